// The 'Story Cards' panel through its button, against a scripted server: the list (keys as chips,
// regular expressions as code, tokens, badges), the search, the example an empty story shows, adding
// (checked here first, then the server's 400 shown in the form), editing (only what changed is sent),
// the Enabled switch, deleting after a confirmation, importing (ignored entries listed, those past the
// server's list counted), and exports.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORY_CARD_MESSAGES, type StoryCard } from '@shared/schemas/story-cards';
import { jsonResponse, mockFetch, renderWithProviders, type RecordedRequest } from '@client/test/utils';
import { STORY_CARDS_STRINGS as S } from '../strings';
import { StoryCardsButton } from './story-cards-button';

const at = '2026-01-01T10:00:00.000Z';
const card = (id: number, fields: Partial<StoryCard>): StoryCard => ({
  id,
  name: `Card ${id}`,
  keys: [],
  secondaryKeys: [],
  secondaryLogic: 'andAny',
  content: 'Something the narrator should know.',
  alwaysOn: false,
  enabled: true,
  priority: 0,
  caseSensitive: false,
  wholeWords: true,
  scanDepth: 4,
  recursive: false,
  sticky: 0,
  cooldown: 0,
  delay: 0,
  tokens: 10,
  createdAt: at,
  updatedAt: at,
  ...fields,
});
const BESSIE = card(1, {
  name: 'Bessie',
  keys: ['Bessie', 'the mare'],
  content: 'Bessie is your grey mare, twelve years old, afraid of thunder.',
  tokens: 120,
});
const HARBOUR = card(2, {
  name: 'The harbour',
  keys: ['/harbou?r/i'],
  content: 'Bells ring there on their own at dusk.',
  alwaysOn: true,
  enabled: false,
  tokens: 1,
});

type Handler = (request: RecordedRequest) => Response | undefined;

/** A scripted server keeping the story's cards; `handler` answers first when it wants to. */
function setup(initial: StoryCard[], handler: Handler = () => undefined) {
  let cards = [...initial];
  const fetchMock = mockFetch((request) => {
    const answer = handler(request);
    if (answer) return answer;
    const { url, method } = request;
    if (url === '/api/story/5/cards' && method === 'GET') return jsonResponse({ cards });
    if (url === '/api/story/5/cards' && method === 'POST') {
      const added = card(10, { ...(request.body as Partial<StoryCard>), tokens: 15 });
      cards = [...cards, added];
      return jsonResponse({ card: added }, { status: 201 });
    }
    const match = /^\/api\/story\/5\/cards\/(\d+)$/.exec(url);
    if (match && method === 'PATCH') {
      const id = Number(match[1]);
      cards = cards.map((c) => (c.id === id ? { ...c, ...(request.body as Partial<StoryCard>) } : c));
      return jsonResponse({ card: cards.find((c) => c.id === id) });
    }
    if (match && method === 'DELETE') {
      cards = cards.filter((c) => c.id !== Number(match[1]));
      return jsonResponse({ success: true });
    }
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  renderWithProviders(<StoryCardsButton storyId={5} />);
  return fetchMock;
}

const writes = (fetchMock: ReturnType<typeof setup>) =>
  fetchMock.requests.filter((r) => r.method !== 'GET').map((r) => [r.method, r.url, r.body]);
const cardsReads = (fetchMock: ReturnType<typeof setup>) =>
  fetchMock.requests.filter((r) => r.method === 'GET' && r.url === '/api/story/5/cards').length;

async function openPanel() {
  await userEvent.click(screen.getByRole('button', { name: 'Story Cards' }));
  return screen.findByRole('dialog', { name: 'Story Cards' });
}

async function openList() {
  const panel = await openPanel();
  return { panel, list: await within(panel).findByRole('list', { name: S.listLabel }) };
}

const item = (list: HTMLElement, name: string) => within(list).getByRole('listitem', { name });

// Radix's switch measures itself inside a form; jsdom has no ResizeObserver.
beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

describe('StoryCardsPanel', () => {
  it('lists the cards with their keys, tokens and badges', async () => {
    const fetchMock = setup([BESSIE, HARBOUR]);
    const { panel, list } = await openList();
    expect(within(panel).getByText('2 cards')).toBeInTheDocument();
    const bessie = item(list, 'Bessie');
    expect(
      within(within(bessie).getByRole('list', { name: 'Keys of Bessie' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Bessie', 'the mare']);
    expect(within(bessie).getByText('120 tokens')).toBeInTheDocument();
    expect(within(bessie).queryByText('Always on')).not.toBeInTheDocument();
    expect(within(bessie).getByRole('switch', { name: 'Bessie enabled' })).toBeChecked();

    const harbour = item(list, 'The harbour');
    expect(within(harbour).getByText('/harbou?r/i').tagName).toBe('CODE');
    expect(within(harbour).getByText('1 token')).toBeInTheDocument();
    expect(within(harbour).getByText('Always on')).toBeInTheDocument();
    expect(within(harbour).getByText('Disabled')).toBeInTheDocument();
    expect(within(harbour).getByRole('switch', { name: 'The harbour enabled' })).not.toBeChecked();
    expect(fetchMock.requests[0]).toMatchObject({ url: '/api/story/5/cards', method: 'GET', credentials: 'include' });
  });

  it('searches by name, key or content, and says when nothing matches', async () => {
    setup([BESSIE, HARBOUR]);
    const { panel, list } = await openList();
    const search = within(panel).getByRole('searchbox', { name: S.searchLabel });
    const names = () =>
      within(list)
        .getAllByRole('heading')
        .map((h) => h.textContent);

    await userEvent.type(search, 'MARE');
    expect(names()).toEqual(['Bessie']);
    await userEvent.clear(search);
    await userEvent.type(search, 'dusk');
    expect(names()).toEqual(['The harbour']);
    await userEvent.clear(search);
    await userEvent.type(search, 'harbou?');
    expect(names()).toEqual(['The harbour']);
    await userEvent.clear(search);
    await userEvent.type(search, 'dragon');
    expect(within(panel).getByText('No cards match "dragon".')).toBeInTheDocument();
    expect(within(panel).queryByRole('list', { name: S.listLabel })).not.toBeInTheDocument();
  });

  it('shows a labelled example, not a card, when the story has none', async () => {
    setup([]);
    const panel = await openPanel();
    const example = await within(panel).findByRole('figure', { name: 'An example card' });
    expect(within(example).getByText('Example')).toBeInTheDocument();
    expect(within(example).getByRole('heading', { name: 'Bessie' })).toBeInTheDocument();
    expect(within(example).getByText('the mare')).toBeInTheDocument();
    expect(within(example).getByText(S.exampleContent)).toBeInTheDocument();
    expect(example).toHaveAccessibleDescription(S.exampleNote);
    expect(within(example).queryByRole('button')).not.toBeInTheDocument();
    expect(within(example).queryByRole('switch')).not.toBeInTheDocument();
    expect(within(panel).queryByRole('list', { name: S.listLabel })).not.toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: S.exportLabel })).toBeDisabled();
  });

  it('adds a card: checked before sending, the server’s 400 shown in the form, then the list refreshed', async () => {
    let refusals = 0;
    const fetchMock = setup([BESSIE], (request) => {
      if (request.method !== 'POST' || refusals >= 2) return undefined;
      refusals += 1;
      return refusals === 1
        ? jsonResponse(
            {
              message: 'The key "/[/" is not a valid regular expression.',
              code: 'VALIDATION_ERROR',
              details: [{ path: 'keys.1', message: 'The key "/[/" is not a valid regular expression.' }],
            },
            { status: 400 },
          )
        : jsonResponse({ message: 'A story may have at most 1 cards.', code: 'VALIDATION_ERROR' }, { status: 400 });
    });
    const { panel } = await openList();
    await userEvent.click(within(panel).getByRole('button', { name: 'Add card' }));
    const form = await screen.findByRole('dialog', { name: 'Add a card' });
    const name = within(form).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveFocus();
    await userEvent.type(name, 'Old Tom');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Content' }), 'The lighthouse keeper.');
    expect(within(form).getByText('22 / 8,000')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Save card' }));
    expect(await within(form).findByText(STORY_CARD_MESSAGES.neverSent)).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([]);

    const keys = within(form).getByRole('textbox', { name: 'Keys' });
    await userEvent.type(keys, 'Tom, the keeper{Enter}/[[/{Enter}');
    expect(
      within(within(form).getByRole('list', { name: 'Keys' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Tom', 'the keeper', '/[/ (regular expression)']);
    await userEvent.click(within(form).getByRole('button', { name: 'Remove the keeper' }));
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'Secondary keys logic' }), 'and none of');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Secondary keys' }), 'storm{Enter}');
    await userEvent.click(within(form).getByRole('switch', { name: 'Content may trigger other cards' }));
    const priority = within(form).getByRole('spinbutton', { name: 'Priority' });
    await userEvent.clear(priority);
    await userEvent.type(priority, '5');
    await userEvent.click(within(form).getByRole('button', { name: 'Save card' }));

    expect(await within(form).findByText('The key "/[/" is not a valid regular expression.')).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'Keys' })).toHaveAttribute('aria-invalid', 'true');
    await userEvent.click(within(form).getByRole('button', { name: 'Save card' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('A story may have at most 1 cards.');

    await userEvent.click(within(form).getByRole('button', { name: 'Save card' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add a card' })).not.toBeInTheDocument());
    expect(await screen.findByText('Card added')).toBeInTheDocument();
    const sent = {
      name: 'Old Tom',
      keys: ['Tom', '/[/'],
      secondaryKeys: ['storm'],
      secondaryLogic: 'notAny',
      content: 'The lighthouse keeper.',
      alwaysOn: false,
      enabled: true,
      priority: 5,
      caseSensitive: false,
      wholeWords: true,
      scanDepth: 4,
      recursive: true,
      sticky: 0,
      cooldown: 0,
      delay: 0,
    };
    expect(writes(fetchMock)).toEqual([
      ['POST', '/api/story/5/cards', sent],
      ['POST', '/api/story/5/cards', sent],
      ['POST', '/api/story/5/cards', sent],
    ]);
    const list = within(panel).getByRole('list', { name: S.listLabel });
    expect(await within(list).findByRole('listitem', { name: 'Old Tom' })).toBeInTheDocument();
    expect(cardsReads(fetchMock)).toBe(2);
    expect(within(panel).getByRole('button', { name: 'Add card' })).toHaveFocus();
  });

  it('edits a card in place of its fields, sending only what changed', async () => {
    const fetchMock = setup([BESSIE, HARBOUR]);
    const { list } = await openList();
    const edit = within(item(list, 'Bessie')).getByRole('button', { name: 'Edit Bessie' });
    await userEvent.click(edit);
    const form = await screen.findByRole('dialog', { name: 'Edit Bessie' });
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('Bessie');
    expect(within(form).getByRole('textbox', { name: 'Content' })).toHaveValue(BESSIE.content);
    expect(within(form).getByRole('spinbutton', { name: 'Scan depth' })).toHaveValue(4);
    expect(within(form).getByRole('switch', { name: 'Whole words only' })).toBeChecked();
    expect(within(form).getByRole('combobox', { name: 'Secondary keys logic' })).toHaveDisplayValue('and any of');

    const content = within(form).getByRole('textbox', { name: 'Content' });
    await userEvent.clear(content);
    await userEvent.type(content, 'Bessie is a grey mare who fears thunder.');
    const sticky = within(form).getByRole('spinbutton', { name: 'Sticky' });
    await userEvent.clear(sticky);
    await userEvent.type(sticky, '2000');
    await userEvent.click(within(form).getByRole('button', { name: 'Save card' }));
    expect(await within(form).findByText('Enter a whole number from 0 to 1,000.')).toBeInTheDocument();
    await userEvent.clear(sticky);
    await userEvent.type(sticky, '3');
    await userEvent.click(within(form).getByRole('switch', { name: 'Case sensitive' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save card' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Bessie' })).not.toBeInTheDocument());
    expect(writes(fetchMock)).toEqual([
      [
        'PATCH',
        '/api/story/5/cards/1',
        { content: 'Bessie is a grey mare who fears thunder.', caseSensitive: true, sticky: 3 },
      ],
    ]);
    expect(await within(list).findByText('Bessie is a grey mare who fears thunder.')).toBeInTheDocument();
    expect(screen.getByText('Card saved')).toBeInTheDocument();
    expect(edit).toHaveFocus();
  });

  it('switches a card off and on with its Enabled switch', async () => {
    const fetchMock = setup([BESSIE]);
    const { list } = await openList();
    const bessie = item(list, 'Bessie');
    await userEvent.click(within(bessie).getByRole('switch', { name: 'Bessie enabled' }));
    expect(await within(bessie).findByText('Disabled')).toBeInTheDocument();
    expect(within(bessie).getByRole('switch', { name: 'Bessie enabled' })).not.toBeChecked();
    await userEvent.click(within(bessie).getByRole('switch', { name: 'Bessie enabled' }));
    await waitFor(() => expect(within(bessie).queryByText('Disabled')).not.toBeInTheDocument());
    expect(writes(fetchMock)).toEqual([
      ['PATCH', '/api/story/5/cards/1', { enabled: false }],
      ['PATCH', '/api/story/5/cards/1', { enabled: true }],
    ]);
    expect(cardsReads(fetchMock)).toBe(3);
  });

  it('deletes a card after a confirmation; Cancel keeps it', async () => {
    const fetchMock = setup([BESSIE, HARBOUR]);
    const { panel, list } = await openList();
    const remove = within(item(list, 'Bessie')).getByRole('button', { name: 'Delete Bessie' });
    await userEvent.click(remove);
    let confirm = await screen.findByRole('alertdialog', { name: 'Delete Card' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete the card "Bessie"?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(remove).toHaveFocus());
    expect(writes(fetchMock)).toEqual([]);

    await userEvent.click(remove);
    confirm = await screen.findByRole('alertdialog', { name: 'Delete Card' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Card deleted')).toBeInTheDocument();
    await waitFor(() => expect(within(list).queryByRole('listitem', { name: 'Bessie' })).not.toBeInTheDocument());
    expect(within(panel).getByText('1 card')).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([['DELETE', '/api/story/5/cards/1', {}]]);
  });

  it('imports a lorebook as its bytes, says how many came in and lists the entries left out', async () => {
    const ignored = Array.from({ length: 7 }, (_, i) => ({ entry: `Entry ${i + 1}`, reason: 'It has no content.' }));
    const imported = [card(20, { name: 'Mira', keys: ['Mira'] }), card(21, { name: 'The bell', keys: ['bell'] })];
    let answer = jsonResponse(
      { imported: 2, cards: imported, ignored: ignored.slice(0, 2), ignoredCount: 2 },
      { status: 201 },
    );
    const fetchMock = setup([BESSIE], (request) => {
      if (request.url !== '/api/story/5/cards/import') return undefined;
      return answer;
    });
    const user = userEvent.setup({ applyAccept: false });
    const { panel } = await openList();
    const input = within(panel).getByLabelText(S.importLabel);
    const lorebook = new File(['{"entries":{}}'], 'world.lorebook', { type: '' });
    await user.upload(input, lorebook);

    expect(await within(panel).findByText('2 cards imported')).toBeInTheDocument();
    expect(within(panel).getByText('2 entries ignored:')).toBeInTheDocument();
    expect(
      within(within(panel).getByRole('list', { name: S.ignoredLabel }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Entry 1: It has no content.', 'Entry 2: It has no content.']);
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/story/5/cards/import')!;
    expect(call[1]).toMatchObject({ method: 'POST', body: lorebook, credentials: 'include' });
    expect(new Headers(call[1]!.headers).get('Content-Type')).toBe('application/json');
    expect(new Headers(call[1]!.headers).get('X-Requested-With')).toBe('XMLHttpRequest');
    await waitFor(() => expect(cardsReads(fetchMock)).toBe(2));

    // Many entries left out fold away; a refused file says why.
    answer = jsonResponse({ imported: 1, cards: imported.slice(0, 1), ignored, ignoredCount: 7 }, { status: 201 });
    const png = new File([new Uint8Array([137, 80, 78, 71])], 'mira.png', { type: 'image/png' });
    await user.upload(input, png);
    const summary = await within(panel).findByText('Show the 7 ignored entries');
    expect(within(panel).getByText('1 card imported')).toBeInTheDocument();
    expect(summary.closest('details')).not.toHaveAttribute('open');
    await userEvent.click(summary);
    expect(summary.closest('details')).toHaveAttribute('open');
    expect(within(panel).getAllByText('It has no content.', { exact: false })).toHaveLength(7);
    const pngCall = fetchMock.mock.calls.filter(([url]) => url === '/api/story/5/cards/import')[1];
    expect(new Headers(pngCall[1]!.headers).get('Content-Type')).toBe('image/png');

    answer = jsonResponse(
      { message: 'This file is not a lorebook we know.', code: 'VALIDATION_ERROR' },
      { status: 400 },
    );
    await user.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('This file is not a lorebook we know.');
    expect(within(panel).queryByText('1 card imported')).not.toBeInTheDocument();
    const txtCall = fetchMock.mock.calls.filter(([url]) => url === '/api/story/5/cards/import')[2];
    expect(new Headers(txtCall[1]!.headers).get('Content-Type')).toBe('application/octet-stream');
  });

  it('lists the ignored entries the server listed and counts the rest', async () => {
    const listed = Array.from({ length: 100 }, (_, i) => ({ entry: `Entry ${i + 1}`, reason: 'It has no content.' }));
    setup([BESSIE], (request) =>
      request.url === '/api/story/5/cards/import'
        ? jsonResponse(
            { imported: 1, cards: [card(20, { name: 'Mira', keys: ['Mira'] })], ignored: listed, ignoredCount: 1334 },
            { status: 201 },
          )
        : undefined,
    );
    const user = userEvent.setup({ applyAccept: false });
    const { panel } = await openList();
    await user.upload(within(panel).getByLabelText(S.importLabel), new File(['{}'], 'world.json'));
    const summary = await within(panel).findByText('Show the 1,334 ignored entries');
    await userEvent.click(summary);
    expect(within(within(panel).getByRole('list', { name: S.ignoredLabel })).getAllByRole('listitem')).toHaveLength(
      100,
    );
    expect(within(panel).getByText('…and 1,234 more')).toBeInTheDocument();
  });

  it('offers the cards as a Taleweaver file or a SillyTavern lorebook', async () => {
    setup([BESSIE]);
    const { panel } = await openList();
    await userEvent.click(within(panel).getByRole('button', { name: S.exportLabel }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: S.exportTaleweaver })).toHaveAttribute(
      'href',
      '/api/story/5/cards/export?format=taleweaver',
    );
    expect(within(menu).getByRole('menuitem', { name: S.exportSillyTavern })).toHaveAttribute(
      'href',
      '/api/story/5/cards/export?format=sillytavern',
    );
    expect(within(menu).getByRole('menuitem', { name: S.exportSillyTavern })).toHaveAttribute('download');
  });

  it('shows a failed read with Try again', async () => {
    let fail = true;
    setup([BESSIE], (request) =>
      request.url === '/api/story/5/cards' && fail
        ? jsonResponse({ message: 'Story not found', code: 'NOT_FOUND' }, { status: 404 })
        : undefined,
    );
    const panel = await openPanel();
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Story not found');
    fail = false;
    await userEvent.click(within(panel).getByRole('button', { name: 'Try again' }));
    expect(await within(panel).findByRole('list', { name: S.listLabel })).toBeInTheDocument();
  });
});

describe('StoryCardsButton', () => {
  it('is disabled without a story or while the narrator writes', () => {
    const { rerender } = renderWithProviders(<StoryCardsButton storyId={null} />);
    expect(screen.getByRole('button', { name: 'Story Cards' })).toBeDisabled();
    rerender(<StoryCardsButton storyId={5} disabled />);
    expect(screen.getByRole('button', { name: 'Story Cards' })).toBeDisabled();
    rerender(<StoryCardsButton storyId={5} />);
    expect(screen.getByRole('button', { name: 'Story Cards' })).toBeEnabled();
  });
});
