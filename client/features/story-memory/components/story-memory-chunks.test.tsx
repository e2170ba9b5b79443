// The memory's parts in the 'Story Memory' panel, against a scripted server: a memory of several
// parts lists them read-only above its text, a save with the text unedited sends it back as it
// was (the server keeps the parts), an edited one is saved as the one text it now is; a memory of
// one part, or an answer without parts, shows no list.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import type { StoryMemory } from '@shared/schemas/story-memory';
import { jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { STORY_MEMORY_STRINGS as S } from '../strings';
import { StoryMemoryButton } from './story-memory-button';

const PARTS = ['You met Ysolde at the ferry.', 'You crossed the marsh by night.'];

function setup(memory: Partial<StoryMemory>) {
  let current: StoryMemory = { premise: 'A ferry at dusk.', summary: '', notes: '', ...memory };
  const fetchMock = mockFetch((request) => {
    if (request.url === '/api/story/5/memory' && request.method === 'GET') return jsonResponse(current);
    if (request.url === '/api/story/5/memory' && request.method === 'PUT') {
      const body = request.body as StoryMemory;
      const edited = body.summary !== current.summary;
      current = { ...current, ...body, chunks: edited ? [body.summary] : current.chunks };
      return jsonResponse(current);
    }
    if (request.url === '/api/story/5/bible' && request.method === 'GET') return jsonResponse({ facts: [] });
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  renderWithProviders(<StoryMemoryButton storyId={5} />);
  return fetchMock;
}

async function openPanel() {
  await userEvent.click(screen.getByRole('button', { name: 'Story Memory' }));
  const panel = await screen.findByRole('dialog', { name: 'Story Memory' });
  await within(panel).findByLabelText(S.premiseLabel);
  return panel;
}

const puts = (fetchMock: ReturnType<typeof setup>) =>
  fetchMock.requests.filter((r) => r.method === 'PUT').map((r) => r.body);

it('lists the parts of the memory, read-only, and saves the text unedited as it was', async () => {
  const fetchMock = setup({ summary: PARTS.join('\n\n'), chunks: PARTS });
  const panel = await openPanel();
  const list = within(panel).getByRole('list', { name: S.chunksLabel(2) });
  expect(
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual(PARTS);
  expect(within(list).getByRole('listitem', { name: S.chunkLabel(2, 2) })).toHaveTextContent(PARTS[1]);
  expect(within(panel).getByLabelText(S.summaryLabel)).toHaveValue(PARTS.join('\n\n'));

  await userEvent.click(within(panel).getByRole('button', { name: S.save }));
  await screen.findByText(S.saved);
  expect(puts(fetchMock)).toEqual([{ premise: 'A ferry at dusk.', summary: PARTS.join('\n\n'), notes: '' }]);
});

it('saves an edited memory as its one text, after which it is one part', async () => {
  const fetchMock = setup({ summary: PARTS.join('\n\n'), chunks: PARTS });
  let panel = await openPanel();
  const summary = within(panel).getByLabelText(S.summaryLabel);
  await userEvent.clear(summary);
  await userEvent.type(summary, 'You owe Ysolde a letter.');
  await userEvent.click(within(panel).getByRole('button', { name: S.save }));
  await screen.findByText(S.saved);
  expect(puts(fetchMock)).toEqual([{ premise: 'A ferry at dusk.', summary: 'You owe Ysolde a letter.', notes: '' }]);

  panel = await openPanel();
  expect(within(panel).getByLabelText(S.summaryLabel)).toHaveValue('You owe Ysolde a letter.');
  expect(within(panel).queryByRole('list', { name: S.chunksLabel(1) })).toBeNull();
});

it('shows no list for a memory of one part, or an answer without parts', async () => {
  setup({ summary: PARTS[0] });
  const panel = await openPanel();
  expect(within(panel).getByLabelText(S.summaryLabel)).toHaveValue(PARTS[0]);
  expect(within(panel).queryByText(S.chunksHint)).toBeNull();
});
