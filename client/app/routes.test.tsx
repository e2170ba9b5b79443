// Every route of the spec renders, and the gating shells say the spec's words to visitors,
// non-admins and users. Rendered through the real layout, providers and lazy route modules.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { User } from '@shared/schemas/user';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { buildUser, jsonResponse, mockFetch, renderWithProviders, unauthenticated } from '@client/test/utils';
import { AppRoutes } from './routes';

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

function renderApp(route: string, user: User | null) {
  const fetchMock = mockFetch(({ url }) => {
    if (url === '/api/user') return user ? jsonResponse(user) : unauthenticated();
    if (url === '/api/logout') return jsonResponse({ success: true });
    if (url === '/api/captcha') return jsonResponse({ success: true, question: 'What is 2 + 2?' });
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  const result = renderWithProviders(
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
    { route },
  );
  return { ...result, fetchMock };
}

const location = () => screen.getByTestId('location').textContent;
const inMain = () => within(screen.getByRole('main'));

describe('routes', () => {
  it.each([
    ['/', 'Taleweaver'],
    ['/auth', 'Welcome Back'],
    // Without a story on screen or saved, /story and /story/new lead home; the mock has no story 12.
    ['/story', 'Taleweaver'],
    ['/story/new', 'Taleweaver'],
    ['/story/12', 'Story content could not be loaded properly.'],
    ['/shared/abc123', 'Story Not Available'],
    ['/bookmarks', 'Your Bookmarks'],
    ['/preferences', 'Story Preferences'],
    ['/account', 'Account Settings'],
    ['/admin', 'Admin Dashboard'],
    ['/privacy', 'Privacy Policy'],
    ['/terms', 'Terms of Service'],
    ['/tokens?package=starter', 'Tokens'],
    ['/no/such/page', 'Page Not Found'],
  ])('%s renders its page', async (route, heading) => {
    // An admin sees /admin's own content; elsewhere a regular user (an admin landing on '/' would be sent to /admin).
    renderApp(route, route === '/auth' ? null : buildUser({ isAdmin: route === '/admin' }));
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it('shows the 404 text and a Home button for unknown paths', async () => {
    renderApp('/nowhere', null);
    expect(await screen.findByText("The page you're looking for doesn't exist.")).toBeInTheDocument();
    expect(inMain().getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  });

  it('gives the legal pages a Home button', async () => {
    renderApp('/privacy', null);
    await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' });
    expect(inMain().getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  });
});

describe('gating shells', () => {
  it('asks visitors to log in for the admin panel', async () => {
    renderApp('/admin', null);
    expect(await screen.findByText('Please log in to access the admin panel.')).toBeInTheDocument();
    expect(inMain().getByRole('link', { name: 'Login / Register' })).toHaveAttribute('href', '/auth?redirect=%2Fadmin');
  });

  it("denies non-admins, and 'Back to Login' logs them out and opens the login page", async () => {
    const { fetchMock } = renderApp('/admin', buildUser());
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(
      screen.getByText("You don't have permission to access the admin panel. Admin privileges are required."),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Back to Login' }));
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(location()).toBe('/auth?redirect=%2Fadmin');
    expect(fetchMock.requests.some((request) => request.url === '/api/logout')).toBe(true);
  });

  it("shows 'Login Required' on story pages with a return path that keeps the messageId", async () => {
    renderApp('/story/5?messageId=3', null);
    expect(await screen.findByRole('heading', { name: 'Login Required' })).toBeInTheDocument();
    expect(inMain().getByRole('link', { name: 'Login / Register' })).toHaveAttribute(
      'href',
      '/auth?redirect=%2Fstory%2F5%3FmessageId%3D3',
    );
    expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
  });

  it('asks visitors to log in for account settings', async () => {
    renderApp('/account', null);
    expect(await screen.findByText('Please log in to access settings')).toBeInTheDocument();
    expect(inMain().getByRole('link', { name: 'Login / Register' })).toHaveAttribute(
      'href',
      '/auth?redirect=%2Faccount',
    );
  });

  it('shows the account forms to a logged-in user', async () => {
    renderApp('/account', buildUser({ username: 'ada', email: 'ada@example.com' }));
    expect(await screen.findByRole('heading', { name: 'Change Username' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
  });

  it("shows the player's story allowance on account settings", async () => {
    renderApp(
      '/account',
      buildUser({
        tokenUsage: { textTokens: 700, imageTokens: 0, total: 700, thisMonth: 700, balance: null, monthCostUsd: 0.42 },
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Story allowance' })).toBeInTheDocument();
    expect(screen.getByText('Unlimited')).toBeInTheDocument();
    expect(screen.getByText('700 tokens')).toBeInTheDocument();
    expect(screen.getByText('$0.42')).toBeInTheDocument();
  });

  it("offers visitors 'Sign in or Register' in a dialog on the bookmarks page", async () => {
    renderApp('/bookmarks', null);
    expect(await screen.findByRole('dialog', { name: 'Sign in or Register' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Register' })).toBeInTheDocument();
  });

  it('shows the preferences login hint to visitors only', async () => {
    renderApp('/preferences', null);
    expect(await screen.findByRole('link', { name: 'Log in to change them' })).toHaveAttribute(
      'href',
      '/auth?redirect=%2Fpreferences',
    );
  });
});

describe('auth page', () => {
  it('toggles between login and registration', async () => {
    renderApp('/auth', null);
    await screen.findByRole('heading', { name: 'Welcome Back' });
    await userEvent.click(screen.getByRole('button', { name: "Don't have an account? Create one" }));
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    expect(await screen.findByText('What is 2 + 2?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Already have an account? Login' }));
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
  });

  it('explains the token purchase variant', async () => {
    renderApp('/auth?redirect=%2Ftokens%3Fpackage%3Dstarter', null);
    expect(await screen.findByText('Sign in to continue your token purchase.')).toBeInTheDocument();
  });

  it('sends a logged-in user on to the safe redirect target', async () => {
    renderApp('/auth?redirect=%2Fbookmarks', buildUser());
    await waitFor(() => expect(location()).toBe('/bookmarks'));
  });

  it('ignores an off-site redirect', async () => {
    renderApp('/auth?redirect=https%3A%2F%2Fevil.example', buildUser());
    await waitFor(() => expect(location()).toBe('/'));
  });

  it('resumes a pending operation before anything else after login', async () => {
    window.localStorage.setItem(
      LOCAL_STORAGE_KEYS.pendingOperation,
      JSON.stringify({
        type: 'start_story',
        data: { prompt: 'A heist', genrePreferences: {}, isRandom: false },
        path: '/?resume=start',
      }),
    );
    const user = buildUser();
    const fetchMock = mockFetch(({ url }) => (url === '/api/login' ? jsonResponse(user) : unauthenticated()));
    renderWithProviders(
      <>
        <AppRoutes />
        <LocationProbe />
      </>,
      { route: '/auth?redirect=%2Fbookmarks' },
    );
    await userEvent.type(await screen.findByLabelText('Username or Email'), 'ada');
    await userEvent.type(screen.getByLabelText('Password'), 'secret12');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(location()).toBe('/?resume=start'));
    expect(fetchMock.requests.some((request) => request.url === '/api/login')).toBe(true);
  });
});

describe('chrome', () => {
  it('offers Login / Register to visitors and Logout to users', async () => {
    const { unmount } = renderApp('/privacy', null);
    const banner = within(screen.getByRole('banner'));
    expect(await banner.findByRole('link', { name: 'Login / Register' })).toHaveAttribute('href', '/auth');
    unmount();

    renderApp('/privacy', buildUser());
    expect(await screen.findByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('lists Account Settings in the settings menu only when logged in', async () => {
    renderApp('/privacy', buildUser());
    await screen.findByRole('button', { name: 'Logout' });
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(await screen.findByRole('menuitem', { name: 'Account Settings' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Story Preferences' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Privacy Policy' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Terms of Service' })).toBeInTheDocument();
  });

  it('hides Account Settings from visitors', async () => {
    renderApp('/privacy', null);
    await within(screen.getByRole('banner')).findByRole('link', { name: 'Login / Register' });
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(await screen.findByRole('menuitem', { name: 'Story Preferences' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Account Settings' })).not.toBeInTheDocument();
  });

  it('switches the theme from the theme menu', async () => {
    renderApp('/privacy', null);
    await userEvent.click(await screen.findByRole('button', { name: 'Toggle theme' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Light' }));
    expect(window.localStorage.getItem('vite-ui-theme')).toBe('light');
    expect(document.documentElement).toHaveClass('light');
  });

  it("answers 'Please wait' when Current Story is clicked while the session is still being checked", async () => {
    mockFetch(() => new Promise<Response>(() => undefined));
    renderWithProviders(
      <>
        <AppRoutes />
        <LocationProbe />
      </>,
      { route: '/privacy' },
    );
    const [currentStory] = await screen.findAllByRole('link', { name: 'Current Story' });
    await userEvent.click(currentStory);
    expect(await screen.findByText('Please wait')).toBeInTheDocument();
    expect(screen.getByText('Checking authentication status')).toBeInTheDocument();
    expect(location()).toBe('/privacy');
  });

  it('warns when the home page logo fails to load', async () => {
    renderApp('/', null);
    await screen.findByText('Begin Your Unique Adventure.');
    fireEvent.error(screen.getByRole('img', { name: 'Taleweaver logo' }));
    expect(await screen.findByText('Warning')).toBeInTheDocument();
    expect(screen.getByText('The Taleweaver logo failed to load.')).toBeInTheDocument();
  });
});
