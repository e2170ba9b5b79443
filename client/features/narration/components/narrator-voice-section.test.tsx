// The 'Narrator Voice' section with a fake speech port: the switch (reads the latest reply, kept in
// localStorage), the voice picker's order, preselection and server-voice group, the controls'
// disabled and hidden states (Pause / Resume / Stop), keyboard use, and the 'Not Supported' and
// 'Speech Error' toasts.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { createNarrator, type NarratableMessage } from '../state/narrator';
import { FakeSynthesisPort } from '../testing/fakes';
import { NarratorVoiceSection } from './narrator-voice-section';

const VOICES = [
  { name: 'Zed', lang: 'de-DE' },
  { name: 'Google US English', lang: 'en-US' },
  { name: 'Amelie', lang: 'fr-FR' },
  { name: 'Alice', lang: 'en-GB' },
];
const OPENED: NarratableMessage[] = [
  { id: 'u1', role: 'user', content: 'A harbour where bells ring alone', messageId: 1 },
  {
    id: 'a1',
    role: 'assistant',
    content: 'The bells fall silent as you arrive. A gull watches from the pier!',
    messageId: 2,
  },
];

interface Setup {
  port?: FakeSynthesisPort | null;
  serverVoices?: string[];
  messages?: NarratableMessage[];
}

function renderSection({ port = new FakeSynthesisPort(VOICES), serverVoices = [], messages = OPENED }: Setup = {}) {
  const fetchMock = mockFetch(({ url }) =>
    url === '/api/features'
      ? jsonResponse({
          images: false,
          speech: { voices: serverVoices, transcription: false },
          ads: { enabled: false, sponsorUrl: null },
        })
      : jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 }),
  );
  const narrator = createNarrator({ createPort: () => port, target: null });
  narrator.attach();
  narrator.update({ storyId: 5, messages, streamingId: null });
  renderWithProviders(<NarratorVoiceSection narrator={narrator} />);
  return { narrator, port: port as FakeSynthesisPort, fetchMock };
}

const section = () => screen.getByRole('region', { name: 'Narrator Voice' });
const toggle = () => within(section()).getByRole('switch', { name: 'Read replies aloud' });
const picker = () => within(section()).getByRole('combobox', { name: 'Voice' });
const button = (name: string) => within(section()).queryByRole('button', { name });
const stored = () => JSON.parse(window.localStorage.getItem(LOCAL_STORAGE_KEYS.narrationSettings) ?? 'null') as unknown;

describe('NarratorVoiceSection', () => {
  it('lists English voices first, then by name, preselects the preferred voice, and shows no server voices when there are none', async () => {
    const { fetchMock } = renderSection();
    const options = within(picker()).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Alice (en-GB)',
      'Google US English (en-US)',
      'Amelie (fr-FR)',
      'Zed (de-DE)',
    ]);
    expect(picker()).toHaveValue('browser:Google US English');
    await waitFor(() => expect(fetchMock.requests.some((r) => r.url === '/api/features')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(within(section()).queryByRole('group', { name: 'Taleweaver voices' })).not.toBeInTheDocument();
    expect(within(section()).queryByRole('group', { name: 'Voices of this browser' })).not.toBeInTheDocument();
  });

  it('offers the server voices in a group of their own, and keeps the voice picked', async () => {
    renderSection({ serverVoices: ['nova', 'aria'] });
    const serverGroup = await within(section()).findByRole('group', { name: 'Taleweaver voices' });
    expect(
      within(serverGroup)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['nova', 'aria']);
    const browserGroup = within(section()).getByRole('group', { name: 'Voices of this browser' });
    expect(within(browserGroup).getAllByRole('option')).toHaveLength(4);
    await userEvent.selectOptions(picker(), 'server:aria');
    expect(picker()).toHaveValue('server:aria');
    expect(stored()).toEqual({ enabled: false, voice: { name: 'aria', lang: '', source: 'server' } });
    await userEvent.selectOptions(picker(), 'browser:Alice');
    expect(stored()).toEqual({ enabled: false, voice: { name: 'Alice', lang: 'en-GB', source: 'browser' } });
  });

  it('switching on reads the latest reply and is kept; Pause turns to Resume; Stop shows only while reading', async () => {
    const { port } = renderSection();
    expect(toggle()).toHaveAttribute('aria-checked', 'false');
    expect(button('Pause')).toBeDisabled();
    expect(button('Stop')).not.toBeInTheDocument();
    expect(button('Play')).toBeEnabled();

    await userEvent.click(toggle());
    expect(toggle()).toHaveAttribute('aria-checked', 'true');
    expect(stored()).toEqual({ enabled: true, voice: null });
    expect(port.texts).toEqual(['The bells fall silent as you arrive.']);
    expect(port.spoken[0].options).toEqual({
      voiceName: 'Google US English',
      lang: 'en-US',
      rate: 0.9,
      pitch: 1,
      volume: 1,
    });
    expect(button('Pause')).toBeEnabled();
    expect(button('Stop')).toBeInTheDocument();

    await userEvent.click(button('Pause') as HTMLElement);
    expect(button('Pause')).not.toBeInTheDocument();
    expect(button('Resume')).toBeEnabled();
    expect(port.paused).toBe(true);
    expect(button('Stop')).toBeInTheDocument();
    await userEvent.click(button('Resume') as HTMLElement);
    expect(button('Pause')).toBeEnabled();
    expect(port.paused).toBe(false);

    await userEvent.click(button('Stop') as HTMLElement);
    expect(button('Stop')).not.toBeInTheDocument();
    expect(button('Pause')).toBeDisabled();
    expect(port.cancels).toBe(1);
    // The keyboard goes on from Play.
    expect(button('Play')).toHaveFocus();

    // Play reads it again; once every sentence is spoken the controls go back to rest.
    await userEvent.click(button('Play') as HTMLElement);
    expect(button('Stop')).toBeInTheDocument();
    act(() => port.endAll());
    expect(port.texts.slice(-2)).toEqual(['The bells fall silent as you arrive.', 'A gull watches from the pier!']);
    expect(button('Stop')).not.toBeInTheDocument();
    expect(button('Pause')).toBeDisabled();
  });

  it('works from the keyboard, and focus moves to Play when the control it was on goes away', async () => {
    const { port } = renderSection();
    toggle().focus();
    await userEvent.keyboard(' ');
    expect(toggle()).toHaveAttribute('aria-checked', 'true');
    await userEvent.tab();
    expect(picker()).toHaveFocus();
    await userEvent.tab();
    expect(button('Play')).toHaveFocus();
    await userEvent.tab();
    expect(button('Pause')).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(button('Resume')).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    // The reading ends while the keyboard is on Pause: Pause is disabled, focus goes to Play.
    act(() => port.endAll());
    expect(button('Pause')).toBeDisabled();
    expect(button('Play')).toHaveFocus();
  });

  it('disables Play while there is no narrator reply', () => {
    renderSection({ messages: [{ id: 'u1', role: 'user', content: 'Hello', messageId: 1 }] });
    expect(button('Play')).toBeDisabled();
  });

  it("says 'Not Supported' when the browser cannot speak and the server has no voices, and stays off", async () => {
    renderSection({ port: null });
    expect(within(section()).queryByRole('combobox')).not.toBeInTheDocument();
    await userEvent.click(toggle());
    expect(await screen.findByText('Not Supported')).toBeInTheDocument();
    expect(screen.getByText('Text-to-speech is not supported in your browser.')).toBeInTheDocument();
    expect(toggle()).toHaveAttribute('aria-checked', 'false');
    expect(stored()).toBeNull();
    await userEvent.click(button('Play') as HTMLElement);
    expect(screen.getByText('Not Supported')).toBeInTheDocument();
  });

  it('offers only the server voices where the browser cannot speak', async () => {
    renderSection({ port: null, serverVoices: ['aria'] });
    const group = await within(section()).findByRole('group', { name: 'Taleweaver voices' });
    expect(
      within(group)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['aria']);
    expect(within(picker()).getAllByRole('option')).toHaveLength(1);
    expect(picker()).toHaveValue('server:aria');
  });

  it("shows 'Speech Error' when an utterance fails, and goes back to rest", async () => {
    const { port } = renderSection();
    await userEvent.click(button('Play') as HTMLElement);
    act(() => port.failCurrent('synthesis-failed'));
    expect(await screen.findByText('Speech Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to speak the text. Please try again.')).toBeInTheDocument();
    expect(button('Stop')).not.toBeInTheDocument();
    expect(button('Pause')).toBeDisabled();
  });
});
