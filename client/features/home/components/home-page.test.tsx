// The start screen: Begin and Enter need text; a logged-in player goes to /story/new with the
// composed prompt; a visitor's request is kept and they are sent to log in; the genre mix switch
// and sliders; presets; the resume list with its empty state; a kept request resumes exactly once.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { User } from '@shared/schemas/user';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { buildUser, jsonResponse, mockFetch, renderWithProviders, unauthenticated } from '@client/test/utils';
import { HomePage } from './home-page';

function StoryProbe() {
  const location = useLocation();
  return <output data-testid="story-state">{JSON.stringify(location.state)}</output>;
}

function AuthProbe() {
  const location = useLocation();
  return <output data-testid="auth-location">{`${location.pathname}${location.search}`}</output>;
}

function renderHome(user: User | null, bookmarks: unknown = []) {
  const fetchMock = mockFetch(({ url }) => {
    if (url === '/api/user') return user ? jsonResponse(user) : unauthenticated();
    if (url === '/api/bookmarks') return jsonResponse(bookmarks);
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  renderWithProviders(
    <Routes>
      <Route path="/" element={<HomePage />} />
      <Route path="/story/new" element={<StoryProbe />} />
      <Route path="/auth" element={<AuthProbe />} />
    </Routes>,
  );
  return fetchMock;
}

const startState = async () =>
  JSON.parse((await screen.findByTestId('story-state')).textContent ?? 'null') as {
    start: { prompt: string; isRandom: boolean; genrePreferences: Record<string, number> };
  };

describe('HomePage', () => {
  it('keeps Begin disabled while the scenario is blank, and Enter starts the story', async () => {
    renderHome(buildUser());
    const input = await screen.findByPlaceholderText('Describe your scenario');
    const begin = screen.getByRole('button', { name: 'Begin' });
    expect(begin).toBeDisabled();
    await userEvent.type(input, '   ');
    expect(begin).toBeDisabled();
    await userEvent.type(input, '{Enter}');
    expect(screen.queryByTestId('story-state')).not.toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, '  A lighthouse keeper finds a door {Enter}');
    expect((await startState()).start).toEqual({
      prompt: 'A lighthouse keeper finds a door',
      genrePreferences: {},
      isRandom: false,
    });
  });

  it('adds the genre mix sentence when the mix is active, using the start-screen default', async () => {
    renderHome(buildUser());
    const toggle = await screen.findByRole('button', { name: /Genre Mix/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryAllByRole('slider')).toHaveLength(0);
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const sliders = screen.getAllByRole('slider');
    expect(sliders).toHaveLength(10);
    sliders.forEach((slider) => expect(slider).toBeDisabled());
    expect(sliders.map((s) => (s as HTMLInputElement).value)).toEqual([
      '25',
      '25',
      '25',
      '25',
      '0',
      '0',
      '0',
      '0',
      '0',
      '0',
    ]);
    expect(sliders[0]).toHaveAttribute('step', '10');
    expect(screen.getByText('Inactive')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: 'Use the genre mix' }));
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(sliders[0]).toBeEnabled();
    fireEvent.change(screen.getByRole('slider', { name: 'Horror' }), { target: { value: '60' } });
    expect(screen.getByRole('slider', { name: 'Horror' })).toHaveAttribute('aria-valuetext', '60%');
    await userEvent.click(screen.getByRole('button', { name: 'Create Random Story' }));
    const { start } = await startState();
    expect(start.prompt).toBe(
      'Create a story that combines 60% horror, 25% fantasy, 25% scifi, 25% mystery. Surprise me with an unexpected twist!',
    );
    expect(start.isRandom).toBe(true);
    expect(start.genrePreferences).toMatchObject({ fantasy: 25, western: 0 });
  });

  it('starts a preset with its scenario', async () => {
    renderHome(buildUser());
    await userEvent.click(await screen.findByRole('button', { name: /^Space Explorer/ }));
    expect((await startState()).start.prompt).toMatch(/^I am Captain Imani Reyes/);
    expect(screen.queryByText('Fantasy Quest')).not.toBeInTheDocument();
  });

  it("keeps a visitor's story as the pending operation and sends them to log in", async () => {
    renderHome(null);
    await userEvent.type(await screen.findByPlaceholderText('Describe your scenario'), 'A heist on the moon{Enter}');
    expect(await screen.findByTestId('auth-location')).toHaveTextContent('/auth?redirect=%2F');
    expect(JSON.parse(window.localStorage.getItem(LOCAL_STORAGE_KEYS.pendingOperation) ?? 'null')).toEqual({
      type: 'start_story',
      data: { prompt: 'A heist on the moon', genrePreferences: {}, isRandom: false },
      path: '/',
    });
  });

  it('resumes a pending operation once logged in, with the spec toast, and clears it', async () => {
    window.localStorage.setItem(
      LOCAL_STORAGE_KEYS.pendingOperation,
      JSON.stringify({
        type: 'start_story',
        data: { prompt: 'A heist', genrePreferences: {}, isRandom: false },
        path: '/',
      }),
    );
    renderHome(buildUser());
    expect((await startState()).start.prompt).toBe('A heist');
    expect(screen.getByText('Resuming Operation')).toBeInTheDocument();
    expect(screen.getByText('Starting your story where you left off')).toBeInTheDocument();
    expect(window.localStorage.getItem(LOCAL_STORAGE_KEYS.pendingOperation)).toBeNull();
  });

  it('lists bookmarks to resume with their en-US date, linking to the story at its message', async () => {
    renderHome(buildUser(), [
      {
        id: 1,
        storyId: 4,
        lastMessageId: 9,
        title: 'The moving valley',
        description: null,
        createdAt: '2026-03-05T14:07:00.000Z',
        updatedAt: '2026-03-05T14:07:00.000Z',
      },
    ]);
    const region = await screen.findByRole('region', { name: 'Resume a Story' });
    const link = await within(region).findByRole('link', { name: /The moving valley/ });
    expect(link).toHaveAttribute('href', '/story/4?messageId=9');
    const expected = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    }).format(new Date('2026-03-05T14:07:00.000Z'));
    expect(link).toHaveTextContent(expected);
    expect(within(region).getByRole('link', { name: 'Manage Bookmarks' })).toHaveAttribute('href', '/bookmarks');
  });

  it("says 'No saved stories found' without bookmarks, and for visitors without asking the server", async () => {
    renderHome(buildUser(), []);
    expect(await screen.findByText('No saved stories found')).toBeInTheDocument();
    const fetchMock = renderHome(null);
    await waitFor(() => expect(screen.getAllByText('No saved stories found').length).toBeGreaterThan(1));
    expect(fetchMock.requests.some((r) => r.url === '/api/bookmarks')).toBe(false);
  });

  it('warns with a toast when the logo fails to load', async () => {
    renderHome(null);
    const logo = await screen.findByAltText('Taleweaver logo');
    logo.dispatchEvent(new Event('error'));
    expect(await screen.findByText('The Taleweaver logo failed to load.')).toBeInTheDocument();
  });
});
