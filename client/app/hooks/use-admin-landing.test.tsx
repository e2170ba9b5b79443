// The admin landing rule: only a logged-in admin whose page load began on '/' without a redirect
// parameter is sent to /admin, and only once per page load.
import { screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { buildUser, jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { shouldSendAdminToDashboard } from './use-admin-landing';

const admin = buildUser({ isAdmin: true });

describe('shouldSendAdminToDashboard', () => {
  const base = { initialPathname: '/', initialSearch: '', currentPathname: '/', user: admin };

  it('sends an admin who landed on the home page', () => {
    expect(shouldSendAdminToDashboard(base)).toBe(true);
  });

  it.each([
    ['a regular user', { user: buildUser() }],
    ['a visitor', { user: null }],
    ['a redirect parameter', { initialSearch: '?redirect=%2Fbookmarks' }],
    ['another first page', { initialPathname: '/bookmarks' }],
    ['a user who already moved on', { currentPathname: '/privacy' }],
  ])('leaves %s alone', (_label, change) => {
    expect(shouldSendAdminToDashboard({ ...base, ...change })).toBe(false);
  });
});

describe('useAdminLanding', () => {
  function LocationProbe() {
    const location = useLocation();
    return <output data-testid="location">{location.pathname}</output>;
  }

  it('redirects once per page load', async () => {
    // A fresh module instance stands for a fresh page load.
    vi.resetModules();
    const { useAdminLanding } = await import('./use-admin-landing');
    const { useSession } = await import('@client/features/auth');
    function Harness() {
      const { user, isLoading } = useSession();
      useAdminLanding(user, isLoading);
      return <LocationProbe />;
    }
    mockFetch(() => jsonResponse(admin));
    const first = renderWithProviders(<Harness />, { route: '/' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin'));
    first.unmount();

    renderWithProviders(<Harness />, { route: '/' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});
