// The dashboard's rules in isolation: the sort cycle, month share with one decimal, the usage card's
// token and cost figures, the users query string, the error messages, and the chart's columns.
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '@client/lib/api-client';
import { ADMIN_USERS_DOWNLOAD_PATH, openUsersDownload } from '../api/download-users';
import { buildAdminUsersSearch } from '../api/get-admin-users';
import { ADMIN_STRINGS } from '../strings';
import { costAxisDecimals, isHistoryEmpty, toChartColumns } from './chart-data';
import { adminErrorMessage, apiUsageErrorMessage, isPermissionError } from './errors';
import { formatDate, formatMonth, formatMonthShare } from './format';
import { ariaSortFor, nextSort } from './sort';
import { usageFigures } from './usage-figures';

describe('nextSort', () => {
  it('cycles a column ascending, descending, then off', () => {
    const asc = nextSort(null, 'username');
    expect(asc).toEqual({ field: 'username', order: 'asc' });
    const desc = nextSort(asc, 'username');
    expect(desc).toEqual({ field: 'username', order: 'desc' });
    expect(nextSort(desc, 'username')).toBeNull();
  });

  it('starts another column at ascending, whatever the current one was', () => {
    expect(nextSort({ field: 'username', order: 'desc' }, 'total')).toEqual({ field: 'total', order: 'asc' });
  });

  it('tells each header its aria-sort', () => {
    const sort = { field: 'total', order: 'desc' } as const;
    expect(ariaSortFor(sort, 'total')).toBe('descending');
    expect(ariaSortFor({ field: 'total', order: 'asc' }, 'total')).toBe('ascending');
    expect(ariaSortFor(sort, 'username')).toBe('none');
    expect(ariaSortFor(null, 'username')).toBe('none');
  });
});

describe('formatMonthShare', () => {
  it.each([
    [125, 1000, '12.5%'],
    [1, 3, '33.3%'],
    [2, 3, '66.7%'],
    [1000, 1000, '100.0%'],
    [0, 1000, '0.0%'],
    [0, 0, '0.0%'],
    [5, 0, '0.0%'],
  ])('%i of %i is %s', (user, month, expected) => {
    expect(formatMonthShare(user, month)).toBe(expected);
  });
});

describe('usageFigures', () => {
  const usage = {
    total: { input: 100_000, output: 150_000, image: 5_000 },
    thisMonth: { input: 1_000, output: 1_500, image: 0 },
    // The server's prices (LLM_PRICE_*), not the spec's $0.000004 a token: the card shows them as they come.
    costs: {
      total: { input: 0.5, output: 1.234, image: 0.07, total: 1.804 },
      thisMonth: { input: 0.02, output: 0.046, image: 0, total: 0.066 },
    },
  };

  it('shows tokens: input, output, image and their total, all time and this month', () => {
    expect(usageFigures(usage, false)).toEqual([
      { key: 'input', label: 'Input tokens', total: '100,000', thisMonth: '1,000' },
      { key: 'output', label: 'Output tokens', total: '150,000', thisMonth: '1,500' },
      { key: 'image', label: 'Image tokens', total: '5,000', thisMonth: '0' },
      { key: 'total', label: 'Total tokens', total: '255,000', thisMonth: '2,500' },
    ]);
  });

  it("shows the server's costs to 2 decimals, pricing nothing itself", () => {
    expect(usageFigures(usage, true)).toEqual([
      { key: 'input', label: 'Input cost', total: '$0.50', thisMonth: '$0.02' },
      { key: 'output', label: 'Output cost', total: '$1.23', thisMonth: '$0.05' },
      { key: 'image', label: 'Image cost', total: '$0.07', thisMonth: '$0.00' },
      { key: 'total', label: 'Total cost', total: '$1.80', thisMonth: '$0.07' },
    ]);
  });

  it('groups thousands of dollars', () => {
    const big = { ...usage, costs: { ...usage.costs, total: { input: 2000, output: 0, image: 0, total: 2000 } } };
    expect(usageFigures(big, true)[3].total).toBe('$2,000.00');
  });
});

describe('buildAdminUsersSearch', () => {
  it('asks for the first page of every user in id order by default', () => {
    expect(buildAdminUsersSearch({})).toBe('tab=all&page=1');
  });

  it('sends the tab, a trimmed search, the sort with its order, and the page', () => {
    expect(
      buildAdminUsersSearch({
        tab: 'month',
        q: '  ada lovelace ',
        sort: 'thisMonth',
        order: 'desc',
        page: '3',
        pageSize: '25',
      }),
    ).toBe('tab=month&q=ada+lovelace&sort=thisMonth&order=desc&page=3&pageSize=25');
  });

  it('leaves out a blank search and an order without a sort (sort off)', () => {
    expect(buildAdminUsersSearch({ tab: 'all', q: '   ', order: 'desc', page: '2' })).toBe('tab=all&page=2');
  });

  it('encodes what the admin typed', () => {
    expect(buildAdminUsersSearch({ q: 'a&b=c@example.com' })).toBe('tab=all&q=a%26b%3Dc%40example.com&page=1');
  });
});

describe('admin error messages', () => {
  const error = (message: string, status: number) => new ApiRequestError(message, { status, code: 'X' });

  it('turns "Admin access required" and "Authentication required" into the permission message', () => {
    for (const failure of [
      error('Admin access required', 403),
      error('Authentication required', 401),
      new Error('Error: Admin access required.'),
    ]) {
      expect(isPermissionError(failure)).toBe(true);
      expect(apiUsageErrorMessage(failure)).toBe(ADMIN_STRINGS.accessDeniedText);
      expect(adminErrorMessage(failure)).toBe(
        "You don't have permission to access the admin panel. Admin privileges are required.",
      );
    }
  });

  it("says 'Failed to load API usage data' for the usage card's other failures", () => {
    expect(apiUsageErrorMessage(error('Database unavailable', 503))).toBe('Failed to load API usage data');
    expect(apiUsageErrorMessage('not even an error')).toBe('Failed to load API usage data');
  });

  it("shows other sections' own message", () => {
    expect(isPermissionError(error('User not found', 404))).toBe(false);
    expect(adminErrorMessage(error('User not found', 404))).toBe('User not found');
  });
});

describe('formatting', () => {
  it('writes dates and months in en-US, months in UTC', () => {
    expect(formatDate('2026-03-05T14:07:00.000Z')).toBe('Mar 5, 2026');
    expect(formatDate(null)).toBeNull();
    expect(formatDate('not a date')).toBeNull();
    expect(formatMonth('2026-01')).toBe('January 2026');
  });
});

describe('chart data', () => {
  const day = (d: string, turn: number, image = 0, cost = 0, embedding = 0, retryLoop = 0) => ({
    day: d,
    turn,
    'retry-loop': retryLoop,
    summary: 0,
    title: 0,
    image,
    style: 0,
    embedding,
    cost,
  });

  it('stacks the kinds as running sums and keeps the raw figures', () => {
    const columns = toChartColumns([day('2026-03-01', 10, 5, 0.1, 3, 2), day('2026-03-02', 0)]);
    expect(columns.x).toEqual([Date.UTC(2026, 2, 1) / 1000, Date.UTC(2026, 2, 2) / 1000]);
    expect(columns.raw.turn).toEqual([10, 0]);
    // turn, retry-loop, summary, title, image, style, embedding
    expect(columns.stacked.map((series) => series[0])).toEqual([10, 12, 12, 12, 17, 17, 20]);
    expect(columns.raw['retry-loop']).toEqual([2, 0]);
    expect(columns.raw.embedding).toEqual([3, 0]);
    expect(columns.cost).toEqual([0.1, 0]);
  });

  it('knows an empty period', () => {
    expect(isHistoryEmpty([day('2026-03-01', 0), day('2026-03-02', 0)])).toBe(true);
    expect(isHistoryEmpty([day('2026-03-01', 0), day('2026-03-02', 1)])).toBe(false);
    expect(isHistoryEmpty([day('2026-03-01', 0), day('2026-03-02', 0, 0, 0, 7)])).toBe(false);
  });

  it('labels cost ticks with enough decimals to tell them apart', () => {
    expect(costAxisDecimals(0.5)).toBe(2);
    expect(costAxisDecimals(0.01)).toBe(2);
    expect(costAxisDecimals(0.0025)).toBe(4);
    expect(costAxisDecimals(0.001 * 3)).toBe(3);
    expect(costAxisDecimals(0)).toBe(2);
  });
});

describe('openUsersDownload', () => {
  it('opens the CSV in a new window without giving it the opener', () => {
    const calls: unknown[][] = [];
    openUsersDownload((...args: unknown[]) => {
      calls.push(args);
      return null;
    });
    expect(calls).toEqual([[ADMIN_USERS_DOWNLOAD_PATH, '_blank', 'noopener']]);
    expect(ADMIN_USERS_DOWNLOAD_PATH).toBe('/api/admin/users/download');
  });
});
