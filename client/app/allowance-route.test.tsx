// The allowance page (/tokens) through the real routes: visitors are asked to log in (and come back
// here, package and all); players read that purchases are not available, the package they chose and
// their allowance.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@shared/schemas/user';
import { AppRoutes } from '@client/app/routes';
import { buildUser, jsonResponse, mockFetch, renderWithProviders, unauthenticated } from '@client/test/utils';

function renderTokens(route: string, user: User | null) {
  const fetchMock = mockFetch(({ url }) => {
    if (url === '/api/user') return user ? jsonResponse(user) : unauthenticated();
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  return { ...renderWithProviders(<AppRoutes />, { route }), fetchMock };
}

const inMain = () => within(screen.getByRole('main'));
const statement = "Token purchases aren't available yet. Nothing has been charged.";

afterEach(() => {
  vi.useRealTimers();
});

describe('AllowancePage at /tokens', () => {
  it('asks a visitor to log in and return here with the package', async () => {
    renderTokens('/tokens?package=starter', null);
    expect(await screen.findByRole('heading', { level: 1, name: 'Tokens' })).toBeInTheDocument();
    expect(screen.getByText('Please log in to see your story allowance.')).toBeInTheDocument();
    expect(screen.getByText(statement)).toBeInTheDocument();
    expect(inMain().getByRole('link', { name: 'Login / Register' })).toHaveAttribute(
      'href',
      '/auth?redirect=%2Ftokens%3Fpackage%3Dstarter',
    );
    expect(inMain().getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(screen.queryByText('Remaining this month')).not.toBeInTheDocument();
    // The title is set by an effect after the page commits: on a busy machine a moment later.
    await waitFor(() => expect(document.title).toBe('Tokens · Taleweaver'));
  });

  it('tells a player purchases are not available, names the package and shows an unlimited allowance', async () => {
    renderTokens(
      '/tokens?package=starter',
      buildUser({
        tokenUsage: {
          textTokens: 900,
          imageTokens: 100,
          total: 1000,
          thisMonth: 250,
          balance: null,
          monthCostUsd: 0.0042,
        },
      }),
    );
    expect(await screen.findByText(statement)).toBeInTheDocument();
    expect(screen.getByText('You chose the "starter" package.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Story allowance' })).toBeInTheDocument();
    expect(screen.getByText('Unlimited')).toBeInTheDocument();
    expect(screen.getByText('250 tokens')).toBeInTheDocument();
    expect(screen.getByText('$0.0042')).toBeInTheDocument();
    expect(inMain().getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(inMain().getByRole('link', { name: 'Account Settings' })).toHaveAttribute('href', '/account');
    expect(inMain().queryByRole('link', { name: 'Login / Register' })).not.toBeInTheDocument();
  });

  it("shows a limited player's balance and when it resets", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-20T08:00:00Z'));
    renderTokens(
      '/tokens',
      buildUser({
        tokenUsage: {
          textTokens: 2000,
          imageTokens: 0,
          total: 2000,
          thisMonth: 2000,
          balance: 98000,
          monthCostUsd: 1.23,
        },
      }),
    );
    expect(await screen.findByText('98,000 tokens')).toBeInTheDocument();
    expect(screen.getByText('2,000 tokens')).toBeInTheDocument();
    expect(screen.getByText('April 1, 2026')).toBeInTheDocument();
    expect(screen.getByText('$1.23')).toBeInTheDocument();
  });

  it('names no package without one, and repeats an odd one as plain, shortened text', async () => {
    const { unmount } = renderTokens('/tokens', buildUser());
    expect(await screen.findByText(statement)).toBeInTheDocument();
    expect(screen.queryByText(/You chose the/)).not.toBeInTheDocument();
    unmount();

    const markup = `<img src=x onerror=alert(1)>${'y'.repeat(60)}`;
    renderTokens(`/tokens?package=${encodeURIComponent(markup)}`, buildUser());
    const chosen = await screen.findByText(/You chose the/);
    expect(chosen.textContent).toBe(`You chose the "${markup.slice(0, 40)}…" package.`);
    expect(document.querySelector('main img[src="x"]')).toBeNull();
  });
});
