// The player's control over a story on the story page, through the real page, router and providers
// against a scripted server: the version arrows and 'Try again' counts, Undo and Redo (when each
// is offered, and a refusal shown), each message's menu (what it offers where), editing in place
// with a stale edit that keeps the typed words, the Versions dialog, Erase from here with its
// confirmation and the toast's Undo, Branch from here and the Branches dialog.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FOCUS_DELAY_MS } from '@shared/constants';
import type { StoryMessage, StoryStateResponse } from '@shared/schemas/story';
import {
  buildUser,
  jsonResponse,
  mockFetch,
  renderWithProviders,
  waitUntilClickable,
  type RecordedRequest,
} from '@client/test/utils';
import { storyController } from '../state/story-controller';
import { StoryPage } from './story-page';

const at = '2026-01-01T10:00:00.000Z';
const message = (
  messageId: number,
  role: 'user' | 'assistant',
  content: string,
  extra: Partial<StoryMessage> = {},
): StoryMessage => ({ messageId, role, content, createdAt: at, isInitialMessage: messageId === 1, ...extra });
const opening = [
  message(1, 'user', 'A harbour where bells ring alone'),
  message(2, 'assistant', 'The bells fall silent as you arrive.'),
];
const turn = [
  message(3, 'user', 'I climb the bell tower'),
  message(4, 'assistant', 'At the top, a rope sways with no wind.'),
];
const BUSY = 'The narrator is still writing the last reply. Please wait for it to finish.';
const STALE =
  'This message was changed in another tab. Its current text is shown: make your change again if you still want it.';

const state = (messages: StoryMessage[], canRedo = false): StoryStateResponse => ({
  messages,
  replying: false,
  images: [],
  storyImage: null,
  canRedo,
});

function sse(events: Array<[string, unknown]>): Response {
  const text = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  return new Response(text, { headers: { 'Content-Type': 'text/event-stream' } });
}

function renderStory(
  messages: StoryMessage[],
  handler: (request: RecordedRequest) => Response | undefined = () => undefined,
  canRedo = false,
) {
  const fetchMock = mockFetch((request) => {
    const answer = handler(request);
    if (answer) return answer;
    if (request.url === '/api/user') return jsonResponse(buildUser());
    if (request.url === '/api/features')
      return jsonResponse({
        images: false,
        speech: { voices: [], transcription: false },
        ads: { enabled: false, sponsorUrl: null },
      });
    if (request.url === '/api/story/5/current-state') return jsonResponse(state(messages, canRedo));
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

const requestsTo = (fetchMock: ReturnType<typeof renderStory>, url: string) =>
  fetchMock.requests.filter((r) => r.url === url);
/** The '⋯' button of the n-th message (in story order). */
const menuButton = (n: number) => screen.getAllByRole('button', { name: 'Message actions' })[n];

async function openMenu(n: number) {
  await userEvent.click(menuButton(n));
  return screen.findByRole('menu');
}

// jsdom has no pointer capture, which Radix Toast's swipe handling asks about when its action is clicked.
beforeAll(() => {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
});
afterEach(() => storyController.reset(null));

describe('story versions on the story page', () => {
  it('the arrows show the previous and next version of a reply, as the server switches it', async () => {
    const fetchMock = renderStory([...opening, turn[0], { ...turn[1], version: 3, versions: 3 }], (request) =>
      request.url === '/api/story/5/messages/4/select'
        ? jsonResponse({ messageId: 4, role: 'assistant', content: 'The rope lies still.', version: 2, versions: 3 })
        : undefined,
    );
    const switcher = await screen.findByRole('group', { name: 'Versions of this reply' });
    expect(switcher).toHaveTextContent('3 / 3');
    expect(within(switcher).getByRole('button', { name: 'Next version' })).toBeDisabled();
    await userEvent.click(within(switcher).getByRole('button', { name: 'Previous version' }));
    expect(await screen.findByText('The rope lies still.')).toBeInTheDocument();
    expect(screen.queryByText('At the top, a rope sways with no wind.')).not.toBeInTheDocument();
    expect(switcher).toHaveTextContent('2 / 3');
    expect(requestsTo(fetchMock, '/api/story/5/messages/4/select').map((r) => [r.method, r.body])).toEqual([
      ['POST', { version: 2 }],
    ]);
    // The buttons wait while the switch is on its way; they come back in a render of their own.
    await waitFor(() => expect(within(switcher).getByRole('button', { name: 'Next version' })).toBeEnabled());
  });

  it("after 'Try again' the reply shows the count of its versions", async () => {
    renderStory([...opening, ...turn], (request) =>
      request.url === '/api/story/5/retry'
        ? sse([['done', { storyId: 5, messageId: 4, message: 'A second telling.', version: 2, versions: 2 }]])
        : undefined,
    );
    await screen.findByText('At the top, a rope sways with no wind.');
    expect(screen.queryByRole('group', { name: 'Versions of this reply' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('A second telling.')).toBeInTheDocument();
    const switcher = screen.getByRole('group', { name: 'Versions of this reply' });
    expect(switcher).toHaveTextContent('2 / 2');
    expect(within(switcher).getByRole('button', { name: 'Previous version' })).toBeEnabled();
  });

  it('Undo is offered past the opening, Redo only when there is something to bring back', async () => {
    const fetchMock = renderStory([...opening, ...turn], (request) => {
      if (request.url === '/api/story/5/undo') return jsonResponse(state(opening, true));
      if (request.url === '/api/story/5/redo') return jsonResponse(state([...opening, ...turn], false));
      return undefined;
    });
    await screen.findByText('At the top, a rope sways with no wind.');
    const undo = screen.getByRole('button', { name: 'Undo' });
    const redo = screen.getByRole('button', { name: 'Redo' });
    expect(undo).toBeEnabled();
    expect(redo).toBeDisabled();

    await userEvent.click(undo);
    await waitFor(() => expect(screen.queryByText('I climb the bell tower')).not.toBeInTheDocument());
    expect(screen.queryByText('At the top, a rope sways with no wind.')).not.toBeInTheDocument();
    expect(screen.getByText('The bells fall silent as you arrive.')).toBeInTheDocument();
    // Only the opening is left: nothing more to undo; what was undone can come back. Both buttons
    // wait while a change is on its way and come back in a render after the story's own: the one
    // that ends enabled is awaited first, so the disabled one is not merely still waiting.
    await waitFor(() => expect(redo).toBeEnabled());
    expect(undo).toBeDisabled();

    await userEvent.click(redo);
    expect(await screen.findByText('At the top, a rope sways with no wind.')).toBeInTheDocument();
    expect(screen.getByText('I climb the bell tower')).toBeInTheDocument();
    await waitFor(() => expect(undo).toBeEnabled());
    expect(redo).toBeDisabled();
    expect(requestsTo(fetchMock, '/api/story/5/undo')).toHaveLength(1);
    expect(requestsTo(fetchMock, '/api/story/5/redo')).toHaveLength(1);
  });

  it('Undo refused while a reply is being written shows the server message, and the story stays', async () => {
    renderStory([...opening, ...turn], (request) =>
      request.url === '/api/story/5/undo'
        ? jsonResponse({ message: BUSY, code: 'CONFLICT' }, { status: 409 })
        : undefined,
    );
    await screen.findByText('At the top, a rope sways with no wind.');
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText(BUSY)).toBeInTheDocument();
    expect(screen.getByText('I climb the bell tower')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Undo' })).toBeEnabled();
  });

  it("each message's menu offers what applies to it: never Erase on the opening, Versions once there are several", async () => {
    renderStory([...opening, turn[0], { ...turn[1], version: 2, versions: 2 }]);
    await screen.findByText('At the top, a rope sways with no wind.');
    expect(screen.getAllByRole('button', { name: 'Message actions' })).toHaveLength(4);

    const names = async (n: number) => {
      const menu = await openMenu(n);
      const items = within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent);
      await userEvent.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
      return items;
    };
    expect(await names(0)).toEqual(['Edit', 'Branch from here']);
    expect(await names(1)).toEqual(['Edit', 'Branch from here']);
    expect(await names(2)).toEqual(['Edit', 'Branch from here', 'Erase from here']);
    expect(await names(3)).toEqual(['Edit', 'Versions', 'Branch from here', 'Erase from here']);
  });

  it('a stale edit keeps the typed words, shows why, and the next Save is made from the current version', async () => {
    const fetchMock = renderStory([...opening, turn[0], { ...turn[1], version: 3, versions: 3 }], (request) => {
      if (request.url !== '/api/story/5/messages/4') return undefined;
      const body = request.body as { baseVersion: number };
      return body.baseVersion === 3
        ? jsonResponse(
            { message: STALE, code: 'CONFLICT', current: { version: 4, content: 'Words from the other tab.' } },
            { status: 409 },
          )
        : jsonResponse({
            messageId: 4,
            role: 'assistant',
            content: 'The rope is mine to pull.',
            version: 5,
            versions: 5,
          });
    });
    await screen.findByText('At the top, a rope sways with no wind.');
    await userEvent.click(within(await openMenu(3)).getByRole('menuitem', { name: 'Edit' }));
    const editor = await screen.findByRole('textbox', { name: 'Edit this message' });
    expect(editor).toHaveValue('At the top, a rope sways with no wind.');
    expect(editor).toHaveFocus();
    await userEvent.clear(editor);
    await userEvent.type(editor, 'The rope is mine to pull.');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(STALE);
    expect(screen.getByRole('textbox', { name: 'Edit this message' })).toHaveValue('The rope is mine to pull.');
    expect(requestsTo(fetchMock, '/api/story/5/messages/4')[0]).toMatchObject({
      method: 'PATCH',
      body: { content: 'The rope is mine to pull.', baseVersion: 3 },
    });

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Edit this message' })).not.toBeInTheDocument());
    expect(screen.getByText('The rope is mine to pull.')).toBeInTheDocument();
    expect(requestsTo(fetchMock, '/api/story/5/messages/4')[1].body).toEqual({
      content: 'The rope is mine to pull.',
      baseVersion: 4,
    });
    expect(screen.getByRole('group', { name: 'Versions of this reply' })).toHaveTextContent('5 / 5');
  });

  it('Escape leaves the editor without saving; Ctrl+Enter saves; a refused Save keeps the words', async () => {
    const fetchMock = renderStory([...opening, ...turn], (request) =>
      request.url === '/api/story/5/messages/3'
        ? jsonResponse({ message: BUSY, code: 'CONFLICT' }, { status: 409 })
        : undefined,
    );
    await screen.findByText('I climb the bell tower');
    await userEvent.click(within(await openMenu(2)).getByRole('menuitem', { name: 'Edit' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Edit this message' }), ' twice');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit this message' })).not.toBeInTheDocument();
    expect(screen.getByText('I climb the bell tower')).toBeInTheDocument();
    expect(requestsTo(fetchMock, '/api/story/5/messages/3')).toHaveLength(0);

    await userEvent.click(within(await openMenu(2)).getByRole('menuitem', { name: 'Edit' }));
    const editor = await screen.findByRole('textbox', { name: 'Edit this message' });
    await userEvent.type(editor, ' slowly{Control>}{Enter}{/Control}');
    expect(await screen.findByRole('alert')).toHaveTextContent(BUSY);
    expect(editor).toHaveValue('I climb the bell tower slowly');
    expect(requestsTo(fetchMock, '/api/story/5/messages/3')[0].body).toEqual({
      content: 'I climb the bell tower slowly',
      baseVersion: 1,
    });
  });

  it('the Versions dialog lists every version, marks the one shown, and shows another', async () => {
    const fetchMock = renderStory(
      [...opening, turn[0], { ...turn[1], content: 'Edited rope.', version: 3, versions: 3 }],
      (request) => {
        if (request.url === '/api/story/5/messages/4/versions')
          return jsonResponse({
            messageId: 4,
            role: 'assistant',
            version: 3,
            versions: [
              { version: 1, kind: 'original', content: 'At the top, a rope sways with no wind.', createdAt: at },
              { version: 2, kind: 'alternative', content: 'At the top, an owl waits.', createdAt: at },
              { version: 3, kind: 'edit', content: 'Edited rope.', createdAt: at },
            ],
          });
        if (request.url === '/api/story/5/messages/4/select')
          return jsonResponse({
            messageId: 4,
            role: 'assistant',
            content: 'At the top, a rope sways with no wind.',
            version: 1,
            versions: 3,
          });
        return undefined;
      },
    );
    await screen.findByText('Edited rope.');
    await userEvent.click(within(await openMenu(3)).getByRole('menuitem', { name: 'Versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Versions' });
    const items = await within(dialog).findAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'Version 1 · Original',
      'Version 2 · Alternative',
      'Version 3 · Edited',
    ]);
    expect(items[2]).toHaveTextContent('Shown');
    expect(within(items[2]).queryByRole('button', { name: 'Show this version' })).not.toBeInTheDocument();
    expect(items[1]).toHaveTextContent('At the top, an owl waits.');

    await userEvent.click(within(items[0]).getByRole('button', { name: 'Show this version' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Versions' })).not.toBeInTheDocument());
    expect(screen.getByText('At the top, a rope sways with no wind.')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Versions of this reply' })).toHaveTextContent('1 / 3');
    expect(requestsTo(fetchMock, '/api/story/5/messages/4/select')[0].body).toEqual({ version: 1 });
  });

  it("Erase from here asks first; the toast's Undo brings the erased part back", async () => {
    const fetchMock = renderStory([...opening, ...turn], (request) => {
      if (request.url === '/api/story/5/erase') return jsonResponse(state(opening, true));
      if (request.url === '/api/story/5/redo') return jsonResponse(state([...opening, ...turn]));
      return undefined;
    });
    await screen.findByText('I climb the bell tower');
    await userEvent.click(within(await openMenu(2)).getByRole('menuitem', { name: 'Erase from here' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Erase from here?' });
    expect(confirm).toHaveTextContent(
      'This message and everything after it will be removed from the story. Redo brings it back.',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(requestsTo(fetchMock, '/api/story/5/erase')).toHaveLength(0);

    await userEvent.click(within(await openMenu(2)).getByRole('menuitem', { name: 'Erase from here' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Erase from here?' })).getByRole('button', {
        name: 'Erase',
      }),
    );
    expect(await screen.findByText('Erased from here.')).toBeInTheDocument();
    expect(screen.queryByText('I climb the bell tower')).not.toBeInTheDocument();
    expect(screen.queryByText('At the top, a rope sways with no wind.')).not.toBeInTheDocument();
    expect(requestsTo(fetchMock, '/api/story/5/erase')[0].body).toEqual({ fromMessageId: 3 });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Redo' })).toBeEnabled());

    // The confirmation closes a render after the toast shows: until then it holds the page's clicks.
    const toastItem = screen.getByText('Erased from here.').closest('li') as HTMLElement;
    await userEvent.click(await waitUntilClickable(within(toastItem).getByRole('button', { name: 'Undo' })));
    expect(await screen.findByText('I climb the bell tower')).toBeInTheDocument();
    expect(screen.getByText('At the top, a rope sways with no wind.')).toBeInTheDocument();
    expect(requestsTo(fetchMock, '/api/story/5/redo')).toHaveLength(1);
    expect(requestsTo(fetchMock, '/api/story/5/undo')).toHaveLength(0);
  });

  it('Branch from here opens the new story at its address', async () => {
    const fetchMock = renderStory([...opening, ...turn], (request) => {
      if (request.url === '/api/story/5/branch') return jsonResponse({ storyId: 9 }, { status: 201 });
      if (request.url === '/api/story/9/current-state')
        return jsonResponse(
          state([
            message(11, 'user', 'A harbour where bells ring alone', { isInitialMessage: true }),
            message(12, 'assistant', 'Branch opening.'),
          ]),
        );
      return undefined;
    });
    await screen.findByText('I climb the bell tower');
    await userEvent.click(within(await openMenu(1)).getByRole('menuitem', { name: 'Branch from here' }));
    expect(await screen.findByText('Branch created.')).toBeInTheDocument();
    expect(await screen.findByText('Branch opening.')).toBeInTheDocument();
    expect(fetchMock.requests.find((r) => r.url === '/api/story/5/branch')?.body).toEqual({ messageId: 2 });
    expect(screen.queryByText('I climb the bell tower')).not.toBeInTheDocument();
  });

  it('the Branches dialog links the origin and every branch, or says there are none', async () => {
    let family: unknown = {
      origin: { storyId: 3, title: 'The first harbour' },
      branches: [{ storyId: 8, title: 'Bells (branch)', createdAt: at }],
    };
    renderStory([...opening, ...turn], (request) =>
      request.url === '/api/story/5/branches' ? jsonResponse(family) : undefined,
    );
    await screen.findByText('I climb the bell tower');
    await userEvent.click(screen.getByRole('button', { name: 'Branches' }));
    const dialog = await screen.findByRole('dialog', { name: 'Branches' });
    expect(within(dialog).getByText('Branched from')).toBeInTheDocument();
    expect(await within(dialog).findByRole('link', { name: 'The first harbour' })).toHaveAttribute('href', '/story/3');
    expect(within(dialog).getByRole('link', { name: 'Bells (branch)' })).toHaveAttribute('href', '/story/8');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    family = { origin: null, branches: [] };
    await userEvent.click(screen.getByRole('button', { name: 'Branches' }));
    const empty = await screen.findByRole('dialog', { name: 'Branches' });
    expect(await within(empty).findByText('No branches yet.')).toBeInTheDocument();
    expect(within(empty).queryByText('Branched from')).not.toBeInTheDocument();
  });

  it('a message this tab wrote gets its server id from one read, asked for when its menu opens', async () => {
    let messages = [...opening, ...turn];
    const fetchMock = mockFetch((request) => {
      if (request.url === '/api/user') return jsonResponse(buildUser());
      if (request.url === '/api/features')
        return jsonResponse({
          images: false,
          speech: { voices: [], transcription: false },
          ads: { enabled: false, sponsorUrl: null },
        });
      if (request.url === '/api/story/5/current-state') return jsonResponse(state(messages));
      if (request.url === '/api/story/5/continue') {
        messages = [
          ...messages,
          message(5, 'user', 'I pull the rope'),
          message(6, 'assistant', 'A bell rings far away.'),
        ];
        return sse([['done', { storyId: 5, messageId: 6, message: 'A bell rings far away.' }]]);
      }
      return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
    });
    renderWithProviders(
      <Routes>
        <Route path="/story/:storyId" element={<StoryPage />} />
      </Routes>,
      { route: '/story/5' },
    );
    const input = await screen.findByPlaceholderText('What would you like to do?');
    await userEvent.type(input, 'I pull the rope{Enter}');
    await screen.findByText('A bell rings far away.');
    const reads = requestsTo(fetchMock, '/api/story/5/current-state').length;

    // Opened at once, before the input's delayed focus: the menu keeps the focus, and stays open.
    const menu = await openMenu(4);
    await act(() => new Promise((r) => setTimeout(r, FOCUS_DELAY_MS + 50)));
    expect(menu).toBeInTheDocument();
    expect(input).not.toHaveFocus();
    await waitFor(() =>
      expect(within(menu).getByRole('menuitem', { name: 'Edit' })).not.toHaveAttribute('data-disabled'),
    );
    expect(requestsTo(fetchMock, '/api/story/5/current-state')).toHaveLength(reads + 1);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Edit' }));
    expect(await screen.findByRole('textbox', { name: 'Edit this message' })).toHaveValue('I pull the rope');
    // The row stayed the same row: no second read for the same message.
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(requestsTo(fetchMock, '/api/story/5/current-state')).toHaveLength(reads + 1);
  });
});
