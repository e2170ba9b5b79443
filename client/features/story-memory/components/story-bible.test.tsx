// The Story Bible section of the 'Story Memory' panel through its button, against a scripted server:
// the current facts grouped by what they are about with their older values, pinning (and the
// server's refusal past the limit), editing in place (checked here first, only what changed sent),
// deleting after a confirmation, 'Suggest cards' (Add card saves one, Dismiss only drops it), the
// empty states, a failed read with Try again, and a fresh read on every opening.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { STORY_BIBLE_MESSAGES, type BibleFact } from '@shared/schemas/story-bible';
import { storyCardFieldsSchema, type StoryCardFields } from '@shared/schemas/story-cards';
import { jsonResponse, mockFetch, renderWithProviders, type RecordedRequest } from '@client/test/utils';
import { STORY_BIBLE_STRINGS as S } from '../strings';
import { StoryMemoryButton } from './story-memory-button';

const fact = (id: number, fields: Partial<BibleFact>): BibleFact => ({
  id,
  entity: 'your horse',
  attribute: 'name',
  value: 'Bramble',
  turn: 1,
  pinned: false,
  supersedes: null,
  ...fields,
});
// Oldest turn first, as the server sends them: Ysolde's home changed twice, the horse's name once.
const FACTS: BibleFact[] = [
  fact(3, { entity: 'Ysolde', attribute: 'home', value: 'the ferry', turn: 0 }),
  fact(1, { value: 'Bramble', turn: 4 }),
  fact(2, { attribute: 'colour', value: 'grey', turn: 4 }),
  fact(6, { entity: 'Ysolde', attribute: 'home', value: 'the mill', turn: 6, supersedes: 3 }),
  fact(4, { value: 'Thistle', turn: 9, supersedes: 1 }),
  fact(7, { entity: 'Ysolde', attribute: 'home', value: 'the tower', turn: 11, supersedes: 6, pinned: true }),
];

/** A proposed card: the fields given, the rest at the shared schema's defaults. */
const proposal = (fields: Partial<StoryCardFields>): StoryCardFields =>
  storyCardFieldsSchema.parse({ name: 'A card', content: 'Something the narrator should know.', ...fields });
const THISTLE_CARD = proposal({
  name: 'Thistle',
  keys: ['Thistle', 'your horse'],
  content: 'Your horse, Thistle (once called Bramble), is grey.',
});
const YSOLDE_CARD = proposal({ name: 'Ysolde', keys: ['Ysolde'], content: 'Ysolde lives in the tower.' });

type Handler = (request: RecordedRequest) => Response | Promise<Response> | undefined;

/** A scripted server keeping the story's bible; `handler` answers first when it wants to. */
function setup(initial: BibleFact[], handler: Handler = () => undefined) {
  let facts = [...initial];
  const fetchMock = mockFetch((request) => {
    const answer = handler(request);
    if (answer) return answer;
    const { url, method } = request;
    if (url === '/api/story/5/memory' && method === 'GET') {
      return jsonResponse({ premise: 'A ferry at dusk.', summary: '', notes: '' });
    }
    if (url === '/api/story/5/bible' && method === 'GET') return jsonResponse({ facts });
    if (url === '/api/story/5/bible/suggest-cards' && method === 'POST') {
      return jsonResponse({ cards: [THISTLE_CARD, YSOLDE_CARD] });
    }
    if (url === '/api/story/5/cards' && method === 'POST') {
      const body = request.body as StoryCardFields;
      const at = '2026-01-01T10:00:00.000Z';
      return jsonResponse({ card: { ...body, id: 30, tokens: 12, createdAt: at, updatedAt: at } }, { status: 201 });
    }
    const match = /^\/api\/story\/5\/bible\/(\d+)$/.exec(url);
    if (match && method === 'PATCH') {
      const id = Number(match[1]);
      facts = facts.map((f) => (f.id === id ? { ...f, ...(request.body as Partial<BibleFact>) } : f));
      return jsonResponse({ fact: facts.find((f) => f.id === id) });
    }
    if (match && method === 'DELETE') {
      // A current fact goes with its history.
      const gone = new Set<number>();
      for (let f = facts.find((x) => x.id === Number(match[1])); f; f = facts.find((x) => x.id === f!.supersedes)) {
        gone.add(f.id);
      }
      facts = facts.filter((f) => !gone.has(f.id));
      return jsonResponse({ success: true });
    }
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  const { queryClient } = renderWithProviders(<StoryMemoryButton storyId={5} />);
  return Object.assign(fetchMock, { queryClient });
}

const writes = (fetchMock: ReturnType<typeof setup>) =>
  fetchMock.requests.filter((r) => r.method !== 'GET').map((r) => [r.method, r.url, r.body]);
const bibleReads = (fetchMock: ReturnType<typeof setup>) =>
  fetchMock.requests.filter((r) => r.method === 'GET' && r.url === '/api/story/5/bible').length;

async function openBible() {
  await userEvent.click(screen.getByRole('button', { name: 'Story Memory' }));
  const panel = await screen.findByRole('dialog', { name: 'Story Memory' });
  return within(panel).findByRole('region', { name: 'Story Bible' });
}

async function openList() {
  const bible = await openBible();
  return { bible, list: await within(bible).findByRole('list', { name: S.listLabel }) };
}

const group = (list: HTMLElement, entity: string) => within(list).getByRole('listitem', { name: entity });
const row = (list: HTMLElement, entity: string, name: string) =>
  within(within(group(list, entity)).getByRole('list', { name: `Facts about ${entity}` })).getByRole('listitem', {
    name,
  });
const texts = (elements: HTMLElement[]) => elements.map((element) => element.textContent);

describe('StoryBible', () => {
  it('lists the current facts grouped by what they are about, each with its older values', async () => {
    const fetchMock = setup(FACTS);
    const { bible, list } = await openList();
    expect(screen.getByRole('form', { name: 'Story Memory' })).toBeInTheDocument();
    expect(texts(within(list).getAllByRole('heading'))).toEqual(['your horse', 'Ysolde']);
    const horseFacts = within(group(list, 'your horse')).getByRole('list', { name: 'Facts about your horse' });
    expect(
      within(horseFacts)
        .getAllByRole('listitem')
        .filter((li) => li.parentElement === horseFacts)
        .map((li) => li.getAttribute('data-fact-id')),
    ).toEqual(['2', '4']);

    const name = row(list, 'your horse', 'name: Thistle');
    expect(within(name).getByText('turn 9')).toBeInTheDocument();
    expect(within(name).queryByText('Pinned')).not.toBeInTheDocument();
    expect(
      texts(
        within(within(name).getByRole('list', { name: 'Earlier values of your horse, name' })).getAllByRole('listitem'),
      ),
    ).toEqual(['was Bramble (turn 4)']);
    expect(within(row(list, 'your horse', 'colour: grey')).queryByRole('list')).not.toBeInTheDocument();

    const home = row(list, 'Ysolde', 'home: the tower');
    expect(within(home).getByText('Pinned')).toBeInTheDocument();
    expect(
      texts(
        within(within(home).getByRole('list', { name: 'Earlier values of Ysolde, home' })).getAllByRole('listitem'),
      ),
    ).toEqual(['was the mill (turn 6)', 'was the ferry (the opening)']);
    expect(within(home).getByRole('button', { name: 'Unpin fact: Ysolde, home' })).toBeInTheDocument();
    expect(within(bible).getByText('1 of 12 pinned')).toBeInTheDocument();
    expect(within(list).queryByText('name: Bramble')).not.toBeInTheDocument();
    expect(fetchMock.requests.find((r) => r.url === '/api/story/5/bible')).toMatchObject({
      method: 'GET',
      credentials: 'include',
    });
  });

  it('pins a fact with PATCH {pinned: true} and shows it pinned', async () => {
    const fetchMock = setup(FACTS);
    const { bible, list } = await openList();
    await userEvent.click(
      within(row(list, 'your horse', 'name: Thistle')).getByRole('button', { name: 'Pin fact: your horse, name' }),
    );
    const unpin = await within(list).findByRole('button', { name: 'Unpin fact: your horse, name' });
    expect(within(row(list, 'your horse', 'name: Thistle')).getByText('Pinned')).toBeInTheDocument();
    expect(within(bible).getByText('2 of 12 pinned')).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([['PATCH', '/api/story/5/bible/4', { pinned: true }]]);

    await userEvent.click(unpin);
    expect(await within(list).findByRole('button', { name: 'Pin fact: your horse, name' })).toBeInTheDocument();
    expect(within(row(list, 'your horse', 'name: Thistle')).queryByText('Pinned')).not.toBeInTheDocument();
    expect(writes(fetchMock)[1]).toEqual(['PATCH', '/api/story/5/bible/4', { pinned: false }]);
  });

  it('shows the server’s refusal when too many facts are pinned', async () => {
    const fetchMock = setup(FACTS, (request) =>
      request.method === 'PATCH'
        ? jsonResponse({ message: STORY_BIBLE_MESSAGES.tooManyPinned, code: 'VALIDATION_ERROR' }, { status: 400 })
        : undefined,
    );
    const { list } = await openList();
    await userEvent.click(within(list).getByRole('button', { name: 'Pin fact: your horse, colour' }));
    expect(await screen.findByText('At most 12 facts can be pinned. Unpin one first.')).toBeInTheDocument();
    expect(within(row(list, 'your horse', 'colour: grey')).queryByText('Pinned')).not.toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Pin fact: your horse, colour' })).toBeEnabled();
    expect(writes(fetchMock)).toEqual([['PATCH', '/api/story/5/bible/2', { pinned: true }]]);
  });

  it('edits a fact in place: checked before sending, only what changed sent', async () => {
    const fetchMock = setup(FACTS);
    const { list } = await openList();
    const edit = within(list).getByRole('button', { name: 'Edit fact: your horse, name' });

    // Nothing changed: the form closes unsent.
    await userEvent.click(edit);
    let form = within(list).getByRole('form', { name: 'Edit fact: your horse, name' });
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(list).queryByRole('form')).not.toBeInTheDocument());
    expect(within(list).getByRole('button', { name: 'Edit fact: your horse, name' })).toHaveFocus();

    await userEvent.click(within(list).getByRole('button', { name: 'Edit fact: your horse, name' }));
    form = within(list).getByRole('form', { name: 'Edit fact: your horse, name' });
    expect(within(form).getByRole('textbox', { name: 'Who or what' })).toHaveValue('your horse');
    expect(within(form).getByRole('textbox', { name: 'Attribute' })).toHaveValue('name');
    const value = within(form).getByRole('textbox', { name: 'Value' });
    expect(value).toHaveValue('Thistle');
    expect(value).toHaveFocus();
    await userEvent.clear(value);
    await userEvent.type(value, '   ');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText(STORY_BIBLE_MESSAGES.valueRequired)).toBeInTheDocument();
    expect(value).toHaveAttribute('aria-invalid', 'true');
    expect(writes(fetchMock)).toEqual([]);

    await userEvent.clear(value);
    await userEvent.type(value, ' Nettle ');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Fact saved')).toBeInTheDocument();
    expect(await within(list).findByRole('listitem', { name: 'name: Nettle' })).toBeInTheDocument();
    expect(within(list).queryByRole('form')).not.toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([['PATCH', '/api/story/5/bible/4', { value: 'Nettle' }]]);
    await waitFor(() =>
      expect(within(list).getByRole('button', { name: 'Edit fact: your horse, name' })).toHaveFocus(),
    );

    // Cancel leaves the fact as it was.
    await userEvent.click(within(list).getByRole('button', { name: 'Edit fact: your horse, colour' }));
    form = within(list).getByRole('form', { name: 'Edit fact: your horse, colour' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Attribute' }), 's');
    await userEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(within(list).getByRole('listitem', { name: 'colour: grey' })).toBeInTheDocument();
    expect(writes(fetchMock)).toHaveLength(1);
  });

  it('deletes a fact after a confirmation, its history with it; Cancel keeps it', async () => {
    const fetchMock = setup(FACTS);
    const { list } = await openList();
    const remove = within(list).getByRole('button', { name: 'Delete fact: your horse, name' });
    await userEvent.click(remove);
    let confirm = await screen.findByRole('alertdialog', { name: 'Delete Fact' });
    expect(confirm).toHaveTextContent(
      'Are you sure you want to delete the fact "your horse, name: Thistle"? Its earlier value goes with it.',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(remove).toHaveFocus());
    expect(writes(fetchMock)).toEqual([]);

    await userEvent.click(remove);
    confirm = await screen.findByRole('alertdialog', { name: 'Delete Fact' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Fact deleted')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(list).queryByRole('listitem', { name: 'name: Thistle' })).not.toBeInTheDocument(),
    );
    expect(within(list).getByRole('listitem', { name: 'colour: grey' })).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([['DELETE', '/api/story/5/bible/4', {}]]);
    expect(bibleReads(fetchMock)).toBe(2);
  });

  it('suggests cards: Add card saves one and refreshes the cards, Dismiss drops one unsent', async () => {
    const fetchMock = setup(FACTS);
    const { bible } = await openList();
    fetchMock.queryClient.setQueryData(['story-cards', 5], { cards: [] });
    await userEvent.click(within(bible).getByRole('button', { name: 'Suggest cards' }));
    const suggestions = await within(bible).findByRole('list', { name: 'Suggested cards' });
    expect(texts(within(suggestions).getAllByRole('heading'))).toEqual(['Thistle', 'Ysolde']);
    const thistle = within(suggestions).getByRole('listitem', { name: 'Thistle' });
    expect(
      texts(within(within(thistle).getByRole('list', { name: 'Keys of Thistle' })).getAllByRole('listitem')),
    ).toEqual(['Thistle', 'your horse']);
    expect(within(thistle).getByText(THISTLE_CARD.content)).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([['POST', '/api/story/5/bible/suggest-cards', {}]]);

    await userEvent.click(within(thistle).getByRole('button', { name: 'Add card: Thistle' }));
    expect(await screen.findByText('Card added: Thistle')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(suggestions).queryByRole('listitem', { name: 'Thistle' })).not.toBeInTheDocument(),
    );
    expect(writes(fetchMock)[1]).toEqual(['POST', '/api/story/5/cards', THISTLE_CARD]);
    expect(fetchMock.queryClient.getQueryState(['story-cards', 5])?.isInvalidated).toBe(true);
    expect(within(suggestions).getByRole('button', { name: 'Add card: Ysolde' })).toHaveFocus();

    await userEvent.click(within(suggestions).getByRole('button', { name: 'Dismiss: Ysolde' }));
    expect(within(bible).queryByRole('list', { name: 'Suggested cards' })).not.toBeInTheDocument();
    expect(writes(fetchMock)).toHaveLength(2);
    expect(within(bible).getByRole('button', { name: 'Suggest cards' })).toHaveFocus();
  });

  it('keeps a suggestion the server refuses to add, with its message', async () => {
    const fetchMock = setup(FACTS, (request) =>
      request.url === '/api/story/5/cards'
        ? jsonResponse({ message: 'A story may have at most 1 cards.', code: 'VALIDATION_ERROR' }, { status: 400 })
        : undefined,
    );
    const { bible } = await openList();
    await userEvent.click(within(bible).getByRole('button', { name: 'Suggest cards' }));
    const suggestions = await within(bible).findByRole('list', { name: 'Suggested cards' });
    await userEvent.click(within(suggestions).getByRole('button', { name: 'Add card: Ysolde' }));
    expect(await screen.findByText('A story may have at most 1 cards.')).toBeInTheDocument();
    expect(within(suggestions).getByRole('listitem', { name: 'Ysolde' })).toBeInTheDocument();
    expect(within(suggestions).getByRole('button', { name: 'Add card: Ysolde' })).toBeEnabled();
    expect(writes(fetchMock)[1]).toEqual(['POST', '/api/story/5/cards', YSOLDE_CARD]);
  });

  it('says when there are no facts yet, with nothing to suggest from', async () => {
    setup([]);
    const bible = await openBible();
    expect(await within(bible).findByText(S.empty)).toBeInTheDocument();
    expect(within(bible).queryByRole('list', { name: S.listLabel })).not.toBeInTheDocument();
    expect(within(bible).getByRole('button', { name: 'Suggest cards' })).toBeDisabled();
  });

  it('says so when the bible suggests no cards', async () => {
    const fetchMock = setup(FACTS, (request) =>
      request.url === '/api/story/5/bible/suggest-cards' ? jsonResponse({ cards: [] }) : undefined,
    );
    const { bible } = await openList();
    await userEvent.click(within(bible).getByRole('button', { name: 'Suggest cards' }));
    expect(await within(bible).findByRole('status')).toHaveTextContent(S.noSuggestions);
    expect(S.noSuggestions).toMatch(/^No suggestions yet: /);
    expect(within(bible).queryByRole('list', { name: 'Suggested cards' })).not.toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([['POST', '/api/story/5/bible/suggest-cards', {}]]);
  });

  it('shows a failed read with Try again', async () => {
    let fail = true;
    const fetchMock = setup(FACTS, (request) =>
      request.url === '/api/story/5/bible' && fail
        ? jsonResponse({ message: 'Story not found', code: 'NOT_FOUND' }, { status: 404 })
        : undefined,
    );
    const bible = await openBible();
    expect(await within(bible).findByRole('alert')).toHaveTextContent('Story not found');
    expect(within(bible).getByRole('button', { name: 'Suggest cards' })).toBeDisabled();
    fail = false;
    await userEvent.click(within(bible).getByRole('button', { name: 'Try again' }));
    expect(await within(bible).findByRole('list', { name: S.listLabel })).toBeInTheDocument();
    expect(within(bible).queryByRole('alert')).not.toBeInTheDocument();
    expect(bibleReads(fetchMock)).toBe(2);
  });

  it('reads the bible afresh on every opening, showing the spinner and never the earlier read', async () => {
    let release: (() => void) | null = null;
    const fetchMock = setup(FACTS, (request) => {
      if (request.url !== '/api/story/5/bible' || bibleReads(fetchMock) < 2) return undefined;
      // The second opening's read: the horse's colour was deleted meanwhile, and the answer waits.
      return new Promise<Response>((resolve) => {
        release = () => resolve(jsonResponse({ facts: FACTS.filter((f) => f.id !== 2) }));
      });
    });
    const { list } = await openList();
    expect(within(list).getByRole('listitem', { name: 'colour: grey' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Story Memory' })).not.toBeInTheDocument());

    const again = await openBible();
    expect(within(again).getByRole('status')).toHaveTextContent(S.loading);
    expect(within(again).queryByRole('list', { name: S.listLabel })).not.toBeInTheDocument();
    await waitFor(() => expect(release).not.toBeNull());
    release!();
    const fresh = await within(again).findByRole('list', { name: S.listLabel });
    expect(within(fresh).queryByRole('listitem', { name: 'colour: grey' })).not.toBeInTheDocument();
    expect(within(fresh).getByRole('listitem', { name: 'name: Thistle' })).toBeInTheDocument();
    expect(bibleReads(fetchMock)).toBe(2);
  });
});
