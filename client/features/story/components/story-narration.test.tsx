// Narration on the real story page (router, providers, story controller), with a stand-in for the
// browser's speech synthesis: the drawer is there even without pictures, opening a story with
// narration on reads nothing, switching on reads the latest reply sentence by sentence, a new reply
// is read, and leaving the page silences it.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StoryMessage } from '@shared/schemas/story';
import { splitSentences } from '@shared/speech/sentences';
import { buildUser, jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { narrator } from '@client/features/narration/testing/fakes';
import { storyController } from '../state/story-controller';
import { StoryPage } from './story-page';

class StubUtterance {
  text: string;
  voice: { name: string; lang: string } | null = null;
  lang = '';
  rate = 1;
  pitch = 1;
  volume = 1;
  onend: (() => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  constructor(text: string) {
    this.text = text;
  }
}

/** One stand-in for the whole file: the tab's narrator asks for the synthesis once. */
const synth = {
  spoken: [] as StubUtterance[],
  queue: [] as StubUtterance[],
  cancels: 0,
  paused: false,
  voices: [
    { name: 'Alice', lang: 'en-GB' },
    { name: 'Google US English', lang: 'en-US' },
  ],
  getVoices: () => synth.voices,
  speak: (u: StubUtterance) => {
    synth.spoken.push(u);
    synth.queue.push(u);
  },
  pause: () => (synth.paused = true),
  resume: () => (synth.paused = false),
  cancel: () => {
    synth.cancels += 1;
    synth.queue.splice(0).forEach((u) => u.onerror?.({ error: 'interrupted' }));
  },
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  /** Ends every utterance, each end starting the next. */
  endAll() {
    for (let i = 0; i < 50 && synth.queue.length > 0; i += 1) synth.queue.shift()?.onend?.();
  },
  reset() {
    synth.spoken.length = 0;
    synth.queue.length = 0;
    synth.cancels = 0;
  },
};

const OPENING = 'The bells fall silent as you arrive. A gull watches from the pier! Nobody else is here.';
const messages: StoryMessage[] = [
  {
    messageId: 1,
    role: 'user',
    content: 'A harbour where bells ring alone',
    createdAt: '2026-01-01T10:00:00.000Z',
    isInitialMessage: true,
  },
  { messageId: 2, role: 'assistant', content: OPENING, createdAt: '2026-01-01T10:00:01.000Z', isInitialMessage: false },
];

function sse(events: Array<[string, unknown]>): Response {
  const text = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  return new Response(text, { headers: { 'Content-Type': 'text/event-stream' } });
}

function renderStory() {
  vi.stubGlobal('speechSynthesis', synth);
  vi.stubGlobal('SpeechSynthesisUtterance', StubUtterance);
  mockFetch(({ url }) => {
    if (url === '/api/user') return jsonResponse(buildUser());
    if (url === '/api/features')
      return jsonResponse({
        images: false,
        speech: { voices: [], transcription: false },
        ads: { enabled: false, sponsorUrl: null },
      });
    if (url === '/api/story/5/current-state')
      return jsonResponse({ messages, replying: false, images: [], storyImage: null });
    if (url === '/api/story/5/continue')
      return sse([
        ['delta', { text: 'A rope sways. ' }],
        ['delta', { text: 'Nothing moves.' }],
        ['done', { storyId: 5, messageId: 4, message: 'A rope sways. Nothing moves.' }],
      ]);
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  return renderWithProviders(
    <Routes>
      <Route path="/story/:storyId" element={<StoryPage />} />
    </Routes>,
    { route: '/story/5' },
  );
}

afterEach(() => {
  narrator.setEnabled(false);
  synth.reset();
  storyController.reset(null);
});

describe('narration on the story page', () => {
  it('switching on in the drawer reads the latest reply; a new reply is read; leaving the page silences it', async () => {
    const { unmount } = renderStory();
    await screen.findByText(OPENING);
    await userEvent.click(screen.getByRole('button', { name: 'Story Experience' }));
    const drawer = await screen.findByRole('dialog', { name: 'Story Experience' });
    const voice = within(drawer).getByRole('combobox', { name: 'Voice' });
    expect(voice).toHaveValue('browser:Google US English');
    await userEvent.click(within(drawer).getByRole('switch', { name: 'Read replies aloud' }));
    act(() => synth.endAll());
    expect(synth.spoken.map((u) => u.text)).toEqual(splitSentences(OPENING));
    expect(
      synth.spoken.every(
        (u) => u.voice?.name === 'Google US English' && u.rate === 0.9 && u.pitch === 1 && u.volume === 1,
      ),
    ).toBe(true);
    await userEvent.keyboard('{Escape}');

    synth.reset();
    await userEvent.type(screen.getByPlaceholderText('What would you like to do?'), 'I climb the tower{Enter}');
    await screen.findByText('A rope sways. Nothing moves.');
    await waitFor(() => expect(synth.spoken.map((u) => u.text)).toEqual(['A rope sways.']));
    act(() => synth.endAll());
    expect(synth.spoken.map((u) => u.text)).toEqual(['A rope sways.', 'Nothing moves.']);

    // Play, then leave the page: the speech is cancelled.
    await userEvent.click(screen.getByRole('button', { name: 'Story Experience' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Story Experience' })).getByRole('button', { name: 'Play' }),
    );
    const cancels = synth.cancels;
    unmount();
    expect(synth.cancels).toBe(cancels + 1);
    expect(narrator.store.getState().status).toBe('idle');
  });

  it('opening a story with narration on reads nothing by itself', async () => {
    window.localStorage.setItem('taleweaver-narration-settings', JSON.stringify({ enabled: true, voice: null }));
    narrator.store.setState({ enabled: true });
    renderStory();
    await screen.findByText(OPENING);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(synth.spoken).toHaveLength(0);
  });
});
