// The share flow: title prefill (latest bookmark, else the suggestion, else 'My Story'), the blank
// title rule, bookmark then share (a bookmark failure does not stop sharing), the share dialog's
// links and copy button, stopping the share, the error toast, clearing on close and the viewport lock.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  buildUser,
  jsonResponse,
  mockFetch,
  renderWithProviders,
  waitUntilClickable,
  type RecordedRequest,
} from '@client/test/utils';
import { ShareStoryButton } from './share-story-button';

const STORY_ID = 12;
const BOOKMARK = {
  id: 3,
  storyId: STORY_ID,
  lastMessageId: 40,
  title: 'Saved title',
  description: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
const STATE = {
  messages: [
    { messageId: 40, role: 'user', content: 'x', createdAt: '2025-01-01T00:00:00.000Z', isInitialMessage: true },
    { messageId: 41, role: 'assistant', content: 'y', createdAt: '2025-01-01T00:00:00.000Z', isInitialMessage: false },
  ],
  replying: false,
  images: [],
  storyImage: null,
};

interface Scenario {
  bookmarks?: unknown[];
  title?: Response;
  bookmarkCreate?: Response;
  share?: Response;
  stop?: Response;
}

function setup(scenario: Scenario = {}) {
  const fetchMock = mockFetch(({ url, method }: RecordedRequest) => {
    if (url === '/api/user') return jsonResponse(buildUser());
    if (url === '/api/bookmarks' && method === 'GET') return jsonResponse(scenario.bookmarks ?? []);
    if (url === '/api/bookmarks' && method === 'POST')
      return scenario.bookmarkCreate ?? jsonResponse({ ...BOOKMARK, id: 9 }, { status: 201 });
    if (url === `/api/story/${STORY_ID}/generate-title`)
      return scenario.title ?? jsonResponse({ title: 'Suggested title' });
    if (url === `/api/story/${STORY_ID}/current-state`) return jsonResponse(STATE);
    if (url === `/api/story/${STORY_ID}/share`)
      return scenario.share ?? jsonResponse({ shareId: 'AbCdEfGh12345678' }, { status: 201 });
    if (url === '/api/shared/AbCdEfGh12345678' && method === 'DELETE')
      return scenario.stop ?? jsonResponse({ success: true });
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  renderWithProviders(<ShareStoryButton storyId={STORY_ID} />);
  return fetchMock;
}

const titleInput = () => screen.getByLabelText('Story title');
/** The share dialog, once the naming dialog before it has let go of the page's clicks. */
const shareDialogOpened = async () => waitUntilClickable(await screen.findByRole('dialog', { name: 'Share story' }));
const openFlow = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Share Story' }));
  return screen.findByRole('dialog', { name: 'Name your story' });
};

let viewport: HTMLMetaElement;
beforeEach(() => {
  viewport = document.createElement('meta');
  viewport.name = 'viewport';
  viewport.content = 'width=device-width, initial-scale=1.0';
  document.head.append(viewport);
});
afterEach(() => viewport.remove());

describe('ShareStoryButton', () => {
  it("prefills the story's latest bookmark title", async () => {
    setup({
      bookmarks: [
        BOOKMARK,
        { ...BOOKMARK, id: 2, title: 'Older' },
        { ...BOOKMARK, id: 1, storyId: 99, title: 'Other story' },
      ],
    });
    await openFlow();
    await waitFor(() => expect(titleInput()).toHaveValue('Saved title'));
  });

  it('prefills the suggested title when the story has no bookmark', async () => {
    setup({ bookmarks: [{ ...BOOKMARK, storyId: 99 }] });
    await openFlow();
    await waitFor(() => expect(titleInput()).toHaveValue('Suggested title'));
  });

  it("falls back to 'My Story'", async () => {
    setup({ title: jsonResponse({ message: 'boom', code: 'INTERNAL_ERROR' }, { status: 500 }) });
    await openFlow();
    await waitFor(() => expect(titleInput()).toHaveValue('My Story'));
  });

  it('needs a non-blank title', async () => {
    const fetchMock = setup();
    const dialog = await openFlow();
    await waitFor(() => expect(titleInput()).toHaveValue('Suggested title'));
    await userEvent.clear(titleInput());
    await userEvent.type(titleInput(), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Please enter a title for your story.')).toBeInTheDocument();
    expect(fetchMock.requests.some((r) => r.url.endsWith('/share'))).toBe(false);
  });

  it('bookmarks, shares and shows the link, the messenger links and Open shared story; locks the viewport meanwhile', async () => {
    const fetchMock = setup();
    const dialog = await openFlow();
    expect(viewport.content).toBe('width=device-width, initial-scale=1.0, maximum-scale=1, user-scalable=no');
    await waitFor(() => expect(titleInput()).toHaveValue('Suggested title'));
    await userEvent.clear(titleInput());
    await userEvent.type(titleInput(), '  The Moving Map ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Share' }));

    const shareDialog = await shareDialogOpened();
    const origin = window.location.origin;
    expect(within(shareDialog).getByLabelText('Share link')).toHaveValue(`${origin}/shared/AbCdEfGh12345678`);
    const links = within(shareDialog).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      `${origin}/fb-redirect.html?id=AbCdEfGh12345678`,
      `${origin}/fb-viewer.html?id=AbCdEfGh12345678`,
      `${origin}/fb-shared.html?id=AbCdEfGh12345678`,
      `${origin}/shared/AbCdEfGh12345678`,
    ]);
    expect(within(shareDialog).getByRole('link', { name: 'Open shared story' })).toHaveAttribute('target', '_blank');

    const writes = fetchMock.requests.filter((r) => r.method === 'POST');
    expect(writes.map((r) => [r.url, r.body])).toEqual([
      ['/api/bookmarks', { storyId: STORY_ID, lastMessageId: 41, title: 'The Moving Map' }],
      [`/api/story/${STORY_ID}/share`, { title: 'The Moving Map' }],
    ]);

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(viewport.content).toBe('width=device-width, initial-scale=1.0');
  });

  it('does not bookmark the same place under the same title twice', async () => {
    const fetchMock = setup({ bookmarks: [{ ...BOOKMARK, lastMessageId: 41 }] });
    const dialog = await openFlow();
    await waitFor(() => expect(titleInput()).toHaveValue('Saved title'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    await screen.findByRole('dialog', { name: 'Share story' });
    expect(fetchMock.requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      `/api/story/${STORY_ID}/share`,
    ]);
  });

  it('stops sharing after a confirmation, and closes the dialog', async () => {
    const fetchMock = setup();
    await openFlow();
    await waitFor(() => expect(titleInput()).toHaveValue('Suggested title'));
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    const shareDialog = await shareDialogOpened();
    await userEvent.click(within(shareDialog).getByRole('button', { name: 'Stop sharing' }));
    expect(fetchMock.requests.some((r) => r.method === 'DELETE')).toBe(false);
    await userEvent.click(within(shareDialog).getByRole('button', { name: 'Turn the link off' }));
    expect(await screen.findByText('Sharing stopped')).toBeInTheDocument();
    expect(screen.getByText('The link no longer opens your story.')).toBeInTheDocument();
    expect(fetchMock.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      '/api/shared/AbCdEfGh12345678',
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Share story' })).not.toBeInTheDocument());
  });

  it("keeps the link when stopping fails, with the server's message", async () => {
    setup({ stop: jsonResponse({ message: 'Story not found', code: 'NOT_FOUND' }, { status: 404 }) });
    await openFlow();
    await waitFor(() => expect(titleInput()).toHaveValue('Suggested title'));
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    const shareDialog = await shareDialogOpened();
    await userEvent.click(within(shareDialog).getByRole('button', { name: 'Stop sharing' }));
    await userEvent.click(within(shareDialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(shareDialog).getByRole('button', { name: 'Stop sharing' }));
    await userEvent.click(within(shareDialog).getByRole('button', { name: 'Turn the link off' }));
    expect(await screen.findByText('Story not found')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Share story' })).toBeInTheDocument();
  });

  it('copies the link with the spec toast and a 2 s indicator', async () => {
    const writeText = vi.fn(async () => undefined);
    setup();
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Share Story' }));
    await waitFor(() => expect(titleInput()).toHaveValue('Suggested title'));
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const shareDialog = await shareDialogOpened();
    await user.click(within(shareDialog).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/shared/AbCdEfGh12345678`);
    expect(await screen.findByText('Copied!', { selector: 'div' })).toBeInTheDocument();
    expect(screen.getByText('Link copied to clipboard')).toBeInTheDocument();
    expect(within(shareDialog).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    await waitFor(() => expect(within(shareDialog).getByRole('button', { name: 'Copy link' })).toBeInTheDocument(), {
      timeout: 3000,
    });
  });

  it('still shares when the bookmark cannot be made, and only logs that', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    setup({ bookmarkCreate: jsonResponse({ message: 'nope', code: 'INTERNAL_ERROR' }, { status: 500 }) });
    await openFlow();
    await waitFor(() => expect(titleInput()).toHaveValue('Suggested title'));
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByRole('dialog', { name: 'Share story' })).toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
    expect(screen.queryByText('Error')).not.toBeInTheDocument();
    warn.mockRestore();
  });

  it("toasts 'Error' with the server message, or 'Failed to share story', and keeps the title", async () => {
    setup({ share: jsonResponse({ message: 'Story not found', code: 'NOT_FOUND' }, { status: 404 }) });
    await openFlow();
    await waitFor(() => expect(titleInput()).toHaveValue('Suggested title'));
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Story not found')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Name your story' })).toBeInTheDocument();
    expect(titleInput()).toHaveValue('Suggested title');
  });

  it('clears the title when the dialog closes', async () => {
    setup();
    const dialog = await openFlow();
    await waitFor(() => expect(titleInput()).toHaveValue('Suggested title'));
    await userEvent.type(titleInput(), ' extra');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await openFlow();
    // What was typed is gone; the prefill starts over.
    await waitFor(() => expect(titleInput()).toHaveValue('Suggested title'));
  });
});
