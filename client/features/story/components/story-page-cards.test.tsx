// Story Cards on the story page, through the real page against a scripted server: the 'Story Cards'
// button beside 'Story Memory' opens the panel, and each narrator reply (never the player's action)
// offers 'What the narrator saw' for the version it shows.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoryMessage, StoryStateResponse } from '@shared/schemas/story';
import type { NarratorContext } from '@shared/schemas/story-cards';
import { buildUser, jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { storyController } from '../state/story-controller';
import { StoryPage } from './story-page';

const at = '2026-01-01T10:00:00.000Z';
const message = (messageId: number, role: 'user' | 'assistant', content: string, extra: Partial<StoryMessage> = {}) =>
  ({ messageId, role, content, createdAt: at, isInitialMessage: messageId === 1, ...extra }) satisfies StoryMessage;
const messages = [
  message(1, 'user', 'A harbour where bells ring alone'),
  message(2, 'assistant', 'The bells fall silent as you arrive.'),
  message(3, 'user', 'I climb the bell tower'),
  message(4, 'assistant', 'At the top, a rope sways with no wind.', { version: 2, versions: 3 }),
];
const CONTEXT: NarratorContext = {
  blocks: [
    { kind: 'action', title: 'I climb the bell tower', tokens: 12, included: 'full', reason: 'Your new action.' },
  ],
  promptTokens: 900,
  outputTokens: 80,
  windowTokens: 6000,
  cardBudgetTokens: 1500,
};

function renderStory() {
  const fetchMock = mockFetch((request) => {
    if (request.url === '/api/user') return jsonResponse(buildUser());
    if (request.url === '/api/features')
      return jsonResponse({
        images: false,
        speech: { voices: [], transcription: false },
        ads: { enabled: false, sponsorUrl: null },
      });
    if (request.url === '/api/story/5/current-state') {
      const state: StoryStateResponse = { messages, replying: false, images: [], storyImage: null, canRedo: false };
      return jsonResponse(state);
    }
    if (request.url === '/api/story/5/cards') return jsonResponse({ cards: [] });
    if (request.url.startsWith('/api/story/5/messages/4/context')) return jsonResponse(CONTEXT);
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  renderWithProviders(
    <Routes>
      <Route path="/story/:storyId" element={<StoryPage />} />
    </Routes>,
    { route: '/story/5' },
  );
  return fetchMock;
}

afterEach(() => storyController.reset(null));

describe('story cards on the story page', () => {
  it("offers 'What the narrator saw' on each narrator reply, for the version it shows", async () => {
    const fetchMock = renderStory();
    await screen.findByText('At the top, a rope sways with no wind.');
    const replies = screen.getAllByRole('article', { name: 'Narrator' });
    const actions = screen.getAllByRole('article', { name: 'You' });
    expect(
      replies.map((reply) => within(reply).queryByRole('button', { name: 'What the narrator saw' })),
    ).not.toContain(null);
    for (const action of actions)
      expect(within(action).queryByRole('button', { name: 'What the narrator saw' })).not.toBeInTheDocument();

    const open = within(replies[1]).getByRole('button', { name: 'What the narrator saw' });
    await userEvent.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'What the narrator saw' });
    expect(await within(dialog).findByText('900 of 6,000 tokens (15%)')).toBeInTheDocument();
    expect(fetchMock.requests.filter((r) => r.url.includes('/context')).map((r) => r.url)).toEqual([
      '/api/story/5/messages/4/context?version=2',
    ]);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(open).toHaveFocus();
  });

  it("opens the 'Story Cards' panel from the bar, beside 'Story Memory'", async () => {
    renderStory();
    await screen.findByText('At the top, a rope sways with no wind.');
    expect(screen.getByRole('button', { name: 'Story Memory' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Story Cards' }));
    const panel = await screen.findByRole('dialog', { name: 'Story Cards' });
    expect(await within(panel).findByRole('figure', { name: 'An example card' })).toBeInTheDocument();
  });
});
