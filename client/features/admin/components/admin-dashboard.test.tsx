// The admin dashboard against a scripted server: the usage card and its cost switch, the users
// table's tabs, search, sort, paging and totals, the monthly usage dialog, the download, and what
// each section says when its request fails.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type {
  AdminUser,
  AdminUsersResponse,
  ApiUsageResponse,
  NarratorUsage,
  UsageHistoryResponse,
  UserUsageResponse,
} from '@shared/schemas/admin';
import { buildUser, jsonResponse, mockFetch, renderWithProviders, type RecordedRequest } from '@client/test/utils';
import { ADMIN_STRINGS } from '../strings';
import { AdminPage } from './admin-page';

// uPlot draws on a canvas jsdom does not have; the chart's own behaviour is covered in the browser.
vi.mock('./usage-chart', () => ({ default: ({ label }: { label: string }) => <div role="img" aria-label={label} /> }));

const apiUsage: ApiUsageResponse = {
  provider: 'Offline demo narrator',
  providerId: 'builtin',
  model: 'builtin',
  notice: 'Connect a real model with LLM_PROVIDER.',
  total: { input: 100_000, output: 150_000, image: 5_000 },
  thisMonth: { input: 1_000, output: 1_500, image: 0 },
  // The server's prices, which no token constant on the client could give.
  costs: {
    total: { input: 0.5, output: 1.23, image: 0.07, total: 1.8 },
    thisMonth: { input: 0.02, output: 0.04, image: 0, total: 0.06 },
  },
  prices: { inputPerMillion: 2.5, cachedInputPerMillion: 1.25, outputPerMillion: 10, imagePerMillion: 20 },
  imageProvider: { provider: 'Offline scene painter', providerId: 'builtin', model: 'builtin', notice: null },
  byNarrator: [],
};

const narratorRow = (id: string, label: string, over: Partial<NarratorUsage> = {}): NarratorUsage => ({
  id,
  label,
  inCatalogue: true,
  total: { input: 0, cachedInput: 0, output: 0, cost: 0 },
  thisMonth: { input: 0, cachedInput: 0, output: 0, cost: 0 },
  monthShare: 0,
  ...over,
});

const adminUser = (overrides: Partial<AdminUser> = {}): AdminUser => ({
  ...buildUser({ id: 1, username: 'ada', email: 'ada@example.com', createdAt: '2026-03-05T14:07:00.000Z' }),
  tokenUsage: { textTokens: 900, imageTokens: 100, total: 1000, thisMonth: 250, balance: null, monthCostUsd: 0.77 },
  stories: 2,
  turns: 7,
  monthImageTokens: 50,
  costs: { text: 1.23, image: 0.45, total: 1.68, thisMonth: 0.77 },
  ...overrides,
});

function usersPage(users: AdminUser[], overrides: Partial<AdminUsersResponse['metadata']> = {}): AdminUsersResponse {
  return {
    users,
    metadata: {
      totalUsers: 60,
      currentMonth: '2026-03',
      monthTokens: 2000,
      matchingUsers: 60,
      page: 1,
      pageSize: 25,
      totals: {
        stories: 40,
        turns: 300,
        textTokens: 90_000,
        imageTokens: 10_000,
        total: 100_000,
        thisMonth: 2000,
        monthImageTokens: 1500,
        costs: { text: 12.34, image: 5.67, total: 18.01, thisMonth: 2.22 },
      },
      ...overrides,
    },
  };
}

const history: UsageHistoryResponse = {
  days: 30,
  from: '2026-02-08',
  to: '2026-03-09',
  daily: [
    {
      day: '2026-03-09',
      turn: 1200,
      'retry-loop': 60,
      summary: 100,
      title: 20,
      image: 500,
      style: 40,
      embedding: 0,
      cost: 0.02,
    },
  ],
  byModel: [
    {
      provider: 'Offline demo narrator',
      model: 'builtin',
      calls: 12,
      input: 800,
      output: 560,
      image: 0,
      characters: 0,
      cost: 0.01,
    },
  ],
};

const months: UserUsageResponse = {
  user: { id: 2, username: 'grace' },
  months: [{ month: '2026-03', calls: 4, input: 300, output: 200, image: 50, characters: 0, cost: 0.003 }],
};

interface Answers {
  history?: () => Response;
  usage?: () => Response;
  users?: (url: URL) => Response | Promise<Response>;
}

function serve(answers: Answers = {}) {
  return mockFetch((request: RecordedRequest) => {
    const url = new URL(request.url, 'http://localhost');
    if (url.pathname === '/api/user') return jsonResponse(buildUser({ isAdmin: true, username: 'boss' }));
    if (url.pathname === '/api/admin/api-usage') return answers.usage?.() ?? jsonResponse(apiUsage);
    if (url.pathname === '/api/admin/users') {
      return (
        answers.users?.(url) ??
        jsonResponse(usersPage([adminUser(), adminUser({ id: 2, username: 'grace', email: null, isAdmin: true })]))
      );
    }
    if (url.pathname === '/api/admin/usage/history') return answers.history?.() ?? jsonResponse(history);
    if (url.pathname === '/api/admin/users/2/usage') return jsonResponse(months);
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
}

const usersRequests = (fetchMock: ReturnType<typeof serve>) =>
  fetchMock.requests.map((r) => new URL(r.url, 'http://localhost')).filter((u) => u.pathname === '/api/admin/users');

describe('AdminDashboard', () => {
  it("shows the usage card with its providers, and the cost switch shows the server's costs", async () => {
    serve();
    renderWithProviders(<AdminPage />, { route: '/admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(await screen.findByText('255,000')).toBeInTheDocument();
    expect(screen.getByText('Offline demo narrator', { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByText('Connect a real model with LLM_PROVIDER.')).toBeInTheDocument();
    expect(screen.getByText('Offline scene painter')).toBeInTheDocument();

    const costSwitch = screen.getByRole('switch', { name: ADMIN_STRINGS.showCosts });
    // The switch says what the server prices with.
    expect(costSwitch).toHaveAccessibleDescription(
      'Priced per million tokens at $2.50 input ($1.25 cached), $10.00 output and $20.00 image.',
    );
    await userEvent.click(costSwitch);
    const card = screen.getByText('Total cost').closest('div')!;
    expect(within(card).getByText('$1.80')).toBeInTheDocument();
    expect(within(card).getByText('$0.06')).toBeInTheDocument();
    expect(within(screen.getByText('Output cost').closest('div')!).getByText('$1.23')).toBeInTheDocument();
    expect(screen.queryByText('255,000')).not.toBeInTheDocument();
    // The users table adds the server's cost beneath each token figure: text, image, total, this month.
    const rows = within(await screen.findByRole('table', { name: /not only this page/ })).getAllByRole('row');
    // The text, image, total and this-month cells: each token figure, then its cost.
    const tokenCells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .slice(-5, -1)
        .map((cell) => cell.textContent);
    expect(tokenCells(rows[1])).toEqual(['900$1.23', '100$0.45', '1,000$1.68', '250$0.77']);
    expect(tokenCells(rows.at(-1)!)).toEqual(['90,000$12.34', '10,000$5.67', '100,000$18.01', '2,000$2.22']);
  });

  it('shows the cost by narrator when there are several, a narrator that left the catalogue named so, and offers its CSV', async () => {
    serve({
      usage: () =>
        jsonResponse({
          ...apiUsage,
          byNarrator: [
            narratorRow('swift', 'Swift', {
              total: { input: 12_000, cachedInput: 2_000, output: 3_000, cost: 0.0039 },
              thisMonth: { input: 3_000, cachedInput: 0, output: 750, cost: 1.5 },
              monthShare: 0.75,
            }),
            narratorRow('deep', 'Deep', {
              thisMonth: { input: 1_000, cachedInput: 0, output: 250, cost: 4.25 },
              monthShare: 0.25,
            }),
            narratorRow('default', 'default', {
              inCatalogue: false,
              total: { input: 500, cachedInput: 0, output: 100, cost: 0.01 },
            }),
          ],
        }),
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderWithProviders(<AdminPage />, { route: '/admin' });
    const table = await screen.findByRole('table', { name: ADMIN_STRINGS.byNarratorCaption });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows.slice(1)).toEqual([
      ['Swift (swift)', '12,000', '2,000', '3,000', '$0.00', '3,750', '$1.50', '75.0%'],
      ['Deep (deep)', '0', '0', '0', '$0.00', '1,250', '$4.25', '25.0%'],
      ['default (default, no longer offered)', '500', '0', '100', '$0.01', '0', '$0.00', '0.0%'],
    ]);
    await userEvent.click(screen.getByRole('button', { name: ADMIN_STRINGS.byNarratorDownload }));
    expect(open).toHaveBeenCalledWith('/api/admin/api-usage/download', '_blank', 'noopener');
    open.mockRestore();
  });

  it('shows no narrator table while one narrator writes everything', async () => {
    serve({ usage: () => jsonResponse({ ...apiUsage, byNarrator: [narratorRow('default', 'Demo narrator')] }) });
    renderWithProviders(<AdminPage />, { route: '/admin' });
    expect(await screen.findByText('255,000')).toBeInTheDocument();
    expect(screen.queryByText(ADMIN_STRINGS.byNarratorTitle)).not.toBeInTheDocument();
  });

  it('lists users with their month share, admin badge, and totals over every matching user', async () => {
    serve();
    renderWithProviders(<AdminPage />, { route: '/admin' });
    const table = await screen.findByRole('table', { name: /not only this page/ });
    const rows = within(table).getAllByRole('row');
    // header, two users, totals
    expect(rows).toHaveLength(4);
    expect(within(rows[1]).getByRole('button', { name: 'Monthly usage for ada' })).toBeInTheDocument();
    expect(within(rows[1]).getByText('Mar 5, 2026')).toBeInTheDocument();
    expect(within(rows[1]).getByText('12.5%')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Admin')).toBeInTheDocument();
    expect(within(rows[2]).getByText('No email')).toBeInTheDocument();
    expect(within(rows[3]).getByRole('rowheader', { name: 'Totals (all matching users)' })).toBeInTheDocument();
    expect(within(rows[3]).getByText('100,000')).toBeInTheDocument();
    expect(within(rows[3]).getByText('100.0%')).toBeInTheDocument();
    expect(screen.getByText('60 users')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Stacked bar chart of daily tokens/ })).toBeInTheDocument();
    expect(screen.getByText('Offline demo narrator', { selector: 'td' })).toBeInTheDocument();
  });

  it('sorts by a column ascending, descending, then off, with aria-sort on its header', async () => {
    const fetchMock = serve();
    renderWithProviders(<AdminPage />, { route: '/admin' });
    const header = await screen.findByRole('columnheader', { name: 'Total' });
    expect(header).toHaveAttribute('aria-sort', 'none');
    const button = within(header).getByRole('button', { name: 'Total' });

    await userEvent.click(button);
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    await waitFor(() =>
      expect(usersRequests(fetchMock).at(-1)?.search).toBe('?tab=all&sort=total&order=asc&page=1&pageSize=25'),
    );
    await userEvent.click(button);
    expect(header).toHaveAttribute('aria-sort', 'descending');
    await waitFor(() => expect(usersRequests(fetchMock).at(-1)?.searchParams.get('order')).toBe('desc'));
    await userEvent.click(button);
    expect(header).toHaveAttribute('aria-sort', 'none');
    // Off is the id order the table opened with (no sort sent), still fresh in the cache.
    expect(usersRequests(fetchMock)[0].searchParams.has('sort')).toBe(false);
    expect(usersRequests(fetchMock)).toHaveLength(3);
  });

  it('searches once typing pauses, from page 1, and switches tabs', async () => {
    const fetchMock = serve();
    renderWithProviders(<AdminPage />, { route: '/admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() => expect(usersRequests(fetchMock).at(-1)?.searchParams.get('page')).toBe('2'));
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();

    const before = usersRequests(fetchMock).length;
    await userEvent.type(screen.getByPlaceholderText('Search users...'), 'gra');
    // One request for the whole word, not one per key.
    await waitFor(() => expect(usersRequests(fetchMock).at(-1)?.searchParams.get('q')).toBe('gra'));
    expect(usersRequests(fetchMock).length).toBe(before + 1);
    expect(usersRequests(fetchMock).at(-1)?.searchParams.get('page')).toBe('1');

    await userEvent.click(screen.getByRole('tab', { name: 'This Month' }));
    await waitFor(() => expect(usersRequests(fetchMock).at(-1)?.searchParams.get('tab')).toBe('month'));
    expect(screen.getByRole('tab', { name: 'This Month' })).toHaveAttribute('aria-selected', 'true');
  });

  it('opens a user’s monthly usage from the name, by keyboard too', async () => {
    serve();
    renderWithProviders(<AdminPage />, { route: '/admin' });
    const name = await screen.findByRole('button', { name: 'Monthly usage for grace' });
    name.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Monthly usage: grace' });
    expect(await within(dialog).findByText('March 2026')).toBeInTheDocument();
    expect(within(dialog).getByText('$0.00')).toBeInTheDocument();
    expect(
      within(dialog)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Month', 'Calls', 'Input', 'Output', 'Image', 'Characters', 'Est. cost']);
  });

  it('downloads the user data in a new window', async () => {
    serve();
    const open = vi.fn(() => null);
    vi.stubGlobal('open', open);
    renderWithProviders(<AdminPage />, { route: '/admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Download user data' }));
    expect(open).toHaveBeenCalledWith('/api/admin/users/download', '_blank', 'noopener');
  });

  it("says 'Failed to load API usage data' and retries", async () => {
    let fail = true;
    serve({
      usage: () =>
        fail
          ? jsonResponse({ message: 'Database unavailable', code: 'INTERNAL_ERROR' }, { status: 503 })
          : jsonResponse(apiUsage),
    });
    renderWithProviders(<AdminPage />, { route: '/admin' });
    expect(await screen.findByText('Failed to load API usage data')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getAllByRole('button', { name: 'Try again' })[0]);
    expect(await screen.findByText('255,000')).toBeInTheDocument();
  });

  it('shows the permission message when the server refuses the session', async () => {
    const refuse = () => jsonResponse({ message: 'Admin access required', code: 'FORBIDDEN' }, { status: 403 });
    serve({ usage: refuse, users: refuse });
    renderWithProviders(<AdminPage />, { route: '/admin' });
    await waitFor(() => expect(screen.getAllByText(ADMIN_STRINGS.accessDeniedText)).toHaveLength(2));
    // No error toast on top of the inline messages.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByText('Error', { exact: true })).not.toBeInTheDocument();
  });

  it('says so when the period has no usage, instead of drawing a flat chart', async () => {
    const zero = { ...history.daily[0], turn: 0, 'retry-loop': 0, summary: 0, title: 0, image: 0, style: 0, cost: 0 };
    serve({ history: () => jsonResponse({ ...history, daily: [zero, { ...zero, day: '2026-03-08' }], byModel: [] }) });
    renderWithProviders(<AdminPage />, { route: '/admin' });
    expect(await screen.findByText('No tokens were used in the last 30 days.')).toBeInTheDocument();
    expect(screen.getByText('No calls in this period.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Stacked bar chart/ })).not.toBeInTheDocument();
  });

  it('keeps the page on screen while the next one loads', async () => {
    let release: () => void = () => undefined;
    serve({
      users: (url) => {
        const page = jsonResponse(
          usersPage([adminUser({ username: url.searchParams.get('page') === '2' ? 'page-two' : 'ada' })]),
        );
        if (url.searchParams.get('page') !== '2') return page;
        return new Promise<Response>((resolve) => (release = () => resolve(page)));
      },
    });
    renderWithProviders(<AdminPage />, { route: '/admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(screen.getByRole('button', { name: 'Monthly usage for ada' })).toBeInTheDocument();
    release();
    expect(await screen.findByRole('button', { name: 'Monthly usage for page-two' })).toBeInTheDocument();
  });
});
