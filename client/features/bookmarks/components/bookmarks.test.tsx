// The Bookmarks page and Save Progress: the list and its links, the empty state, inline edit,
// delete with the spec's confirmation text, every failure toast, and the save dialog's login path.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Bookmark } from '@shared/schemas/bookmarks';
import type { User } from '@shared/schemas/user';
import {
  buildUser,
  jsonResponse,
  mockFetch,
  renderWithProviders,
  unauthenticated,
  type FetchHandler,
} from '@client/test/utils';
import { BookmarksPage } from './bookmarks-page';
import { SaveProgressButton } from './save-progress';

const bookmark = (overrides: Partial<Bookmark> = {}): Bookmark => ({
  id: 3,
  storyId: 4,
  lastMessageId: 9,
  title: 'The moving valley',
  description: 'Right after the opening',
  createdAt: '2026-03-05T14:07:00.000Z',
  updatedAt: '2026-03-05T14:07:00.000Z',
  ...overrides,
});

function serve(user: User | null, handler: FetchHandler) {
  return mockFetch((request) => {
    if (request.url === '/api/user') return user ? jsonResponse(user) : unauthenticated();
    return handler(request);
  });
}

describe('BookmarksPage', () => {
  it('lists bookmarks with links to the story at the bookmarked message', async () => {
    serve(buildUser(), () => jsonResponse([bookmark(), bookmark({ id: 5, title: 'Second', description: null })]));
    renderWithProviders(<BookmarksPage />, { route: '/bookmarks' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your Bookmarks' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'The moving valley' })).toHaveAttribute(
      'href',
      '/story/4?messageId=9',
    );
    expect(screen.getByText('Right after the opening')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Second' })).toHaveAttribute('href', '/story/4?messageId=9');
  });

  it("shows the empty state with 'Go Home'", async () => {
    serve(buildUser(), () => jsonResponse([]));
    renderWithProviders(<BookmarksPage />, { route: '/bookmarks' });
    expect(await screen.findByText('Your saved stories will appear here')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
  });

  it('shows why the list could not be loaded', async () => {
    serve(buildUser(), () =>
      jsonResponse({ message: 'Database unavailable', code: 'INTERNAL_ERROR' }, { status: 503 }),
    );
    renderWithProviders(<BookmarksPage />, { route: '/bookmarks' });
    // One retry first, then the reason.
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent('Database unavailable');
  });

  it('edits a bookmark in place, trimmed, and toasts the result', async () => {
    const fetchMock = serve(buildUser(), (request) => {
      if (request.method === 'PATCH') return jsonResponse(bookmark({ title: 'Renamed', description: null }));
      return jsonResponse([bookmark()]);
    });
    renderWithProviders(<BookmarksPage />, { route: '/bookmarks' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit bookmark "The moving valley"' }));
    const form = screen.getByRole('form', { name: 'Edit bookmark "The moving valley"' });
    const title = within(form).getByLabelText('Title');
    await userEvent.clear(title);
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('Please enter a title for your bookmark.')).toBeInTheDocument();
    await userEvent.type(title, '  Renamed  ');
    await userEvent.clear(within(form).getByLabelText('Description'));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bookmark updated successfully')).toBeInTheDocument();
    const patch = fetchMock.requests.find((r) => r.method === 'PATCH');
    expect(patch).toMatchObject({ url: '/api/bookmarks/3', body: { title: 'Renamed', description: '' } });
  });

  it("cancels an edit, and toasts the server's message or 'Failed to update bookmark'", async () => {
    let answer = jsonResponse({ message: 'Bookmark not found', code: 'NOT_FOUND' }, { status: 404 });
    serve(buildUser(), (request) => (request.method === 'PATCH' ? answer : jsonResponse([bookmark()])));
    renderWithProviders(<BookmarksPage />, { route: '/bookmarks' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit bookmark "The moving valley"' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bookmark not found')).toBeInTheDocument();
    answer = new Response('', { status: 500 });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Request failed')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('link', { name: 'The moving valley' })).toBeInTheDocument();
  });

  it('deletes after the confirmation, with the spec text', async () => {
    let deleted = false;
    const fetchMock = serve(buildUser(), (request) => {
      if (request.method === 'DELETE') {
        deleted = true;
        return jsonResponse({ success: true });
      }
      return jsonResponse(deleted ? [] : [bookmark()]);
    });
    renderWithProviders(<BookmarksPage />, { route: '/bookmarks' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete bookmark "The moving valley"' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Bookmark' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete "The moving valley"? This action cannot be undone.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.requests.some((r) => r.method === 'DELETE')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Delete bookmark "The moving valley"' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Bookmark deleted successfully')).toBeInTheDocument();
    expect(await screen.findByText('Your saved stories will appear here')).toBeInTheDocument();
    expect(fetchMock.requests.find((r) => r.method === 'DELETE')?.url).toBe('/api/bookmarks/3');
  });

  it('toasts a failed delete and keeps the bookmark', async () => {
    serve(buildUser(), (request) =>
      request.method === 'DELETE'
        ? jsonResponse({ message: 'Bookmark not found', code: 'NOT_FOUND' }, { status: 404 })
        : jsonResponse([bookmark()]),
    );
    renderWithProviders(<BookmarksPage />, { route: '/bookmarks' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete bookmark "The moving valley"' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Bookmark not found')).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('link', { name: 'The moving valley' })).toBeInTheDocument();
  });

  it("offers 'Sign in or Register' in a dialog to visitors", async () => {
    serve(null, () => jsonResponse({ success: true, question: 'What is 2 + 2?' }));
    renderWithProviders(<BookmarksPage />, { route: '/bookmarks' });
    expect(await screen.findByRole('dialog', { name: 'Sign in or Register' })).toBeInTheDocument();
  });
});

describe('SaveProgressButton', () => {
  it('is disabled without a story or message', async () => {
    serve(buildUser(), () => jsonResponse([]));
    renderWithProviders(<SaveProgressButton storyId={null} lastMessageId={null} disabled />);
    expect(await screen.findByRole('button', { name: 'Bookmark' })).toBeDisabled();
  });

  it('saves the trimmed title and description at the last message', async () => {
    const fetchMock = serve(buildUser(), () => jsonResponse(bookmark(), { status: 201 }));
    renderWithProviders(<SaveProgressButton storyId={4} lastMessageId={9} disabled={false} />);
    await screen.findByRole('button', { name: 'Bookmark' });
    await new Promise((r) => setTimeout(r, 50));
    await userEvent.click(screen.getByRole('button', { name: 'Bookmark' }));
    const dialog = screen.getByRole('dialog', { name: 'Save Progress' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Please enter a title for your bookmark.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Title'), '  At the gate ');
    await userEvent.type(within(dialog).getByLabelText('Description (optional)'), ' Before the storm ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Story progress saved')).toBeInTheDocument();
    expect(fetchMock.requests.find((r) => r.url === '/api/bookmarks')?.body).toEqual({
      storyId: 4,
      lastMessageId: 9,
      title: 'At the gate',
      description: 'Before the storm',
    });
    expect(screen.queryByRole('dialog', { name: 'Save Progress' })).not.toBeInTheDocument();
  });

  it("on a 401 closes the dialog and asks to log in; other failures toast the message or 'Failed to save bookmark'", async () => {
    let answer: Response = jsonResponse(
      { message: 'Authentication required', code: 'UNAUTHENTICATED' },
      { status: 401 },
    );
    serve(buildUser(), () => answer);
    renderWithProviders(<SaveProgressButton storyId={4} lastMessageId={9} disabled={false} />);
    await new Promise((r) => setTimeout(r, 50));
    await userEvent.click(await screen.findByRole('button', { name: 'Bookmark' }));
    await userEvent.type(screen.getByLabelText('Title'), 'Gate');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please log in to save bookmarks')).toBeInTheDocument();
    const auth = screen.getByRole('dialog', { name: 'Authentication Required' });
    expect(auth).toHaveTextContent('Please log in or create an account to save bookmarks.');
    expect(within(auth).getByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(within(auth).getByRole('tab', { name: 'Register' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');

    answer = new Response('', { status: 500, statusText: '' });
    await userEvent.click(screen.getByRole('button', { name: 'Bookmark' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Request failed')).toBeInTheDocument();
  });

  it('asks a visitor to log in instead of opening the save dialog', async () => {
    serve(null, () => jsonResponse({ success: true, question: 'What is 2 + 2?' }));
    renderWithProviders(<SaveProgressButton storyId={4} lastMessageId={9} disabled={false} />);
    await new Promise((r) => setTimeout(r, 50));
    await userEvent.click(await screen.findByRole('button', { name: 'Bookmark' }));
    expect(await screen.findByRole('dialog', { name: 'Authentication Required' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Save Progress' })).not.toBeInTheDocument();
  });
});
