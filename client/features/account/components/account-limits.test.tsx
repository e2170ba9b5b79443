// 'Your Limits' on Account Settings: each quota as "N of LIMIT" with a named progress bar (its value
// and text for screen readers), the stored data with what it counts, the monthly tokens only with an
// allowance, a full limit marked, and a plain sentence when the limits cannot be read.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UserLimits } from '@shared/schemas/quotas';
import { jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { formatStorage } from '../utils/format-limits';
import { AccountLimits } from './account-limits';

const MB = 1024 * 1024;

function limits(overrides: Partial<UserLimits> = {}): UserLimits {
  return {
    stories: { used: 12, limit: 1000 },
    shares: { used: 200, limit: 200 },
    storedBytes: { used: Math.round(12.34 * MB), limit: 500 * MB },
    monthlyTokens: { used: 45_210, limit: 100_000 },
    ...overrides,
  };
}

describe('AccountLimits', () => {
  it('shows each quota as "N of LIMIT" with a progress bar named after it', async () => {
    const fetchMock = mockFetch(() => jsonResponse(limits()));
    renderWithProviders(<AccountLimits />);

    const stories = await screen.findByRole('progressbar', { name: 'Stories' });
    expect(stories).toHaveAttribute('aria-valuenow', '12');
    expect(stories).toHaveAttribute('aria-valuemax', '1000');
    expect(stories).toHaveAttribute('aria-valuetext', '12 of 1,000');
    expect(screen.getByText('12 of 1,000')).toBeInTheDocument();

    expect(screen.getByRole('progressbar', { name: 'Shared links' })).toHaveAttribute('aria-valuetext', '200 of 200');
    expect(screen.getByRole('progressbar', { name: 'Stored data' })).toHaveAttribute(
      'aria-valuetext',
      '12.3 MB of 500 MB',
    );
    expect(screen.getByRole('progressbar', { name: 'Tokens this month' })).toHaveAttribute(
      'aria-valuetext',
      '45,210 of 100,000',
    );
    // The stored data says what it counts: everything kept for the player, not only the story text.
    expect(screen.getByRole('progressbar', { name: 'Stored data' })).toHaveAccessibleDescription(
      'Your stories’ text and every version of it, story cards, story-bible facts, the memory bank’s index of your turns, the narrator’s record of what each reply was sent, and shared stories. Pictures do not count.',
    );
    expect(screen.getByRole('progressbar', { name: 'Stories' })).not.toHaveAccessibleDescription();
    expect(screen.getAllByRole('listitem')).toHaveLength(4);
    expect(fetchMock.requests.map((request) => request.url)).toEqual(['/api/user/limits']);
  });

  it('marks a limit that is reached, and shows a bar past its limit as full', async () => {
    mockFetch(() => jsonResponse(limits({ storedBytes: { used: 501 * MB, limit: 500 * MB } })));
    renderWithProviders(<AccountLimits />);
    const storage = await screen.findByRole('progressbar', { name: 'Stored data' });
    expect(storage).toHaveAttribute('aria-valuenow', String(500 * MB));
    expect(storage).toHaveAttribute('aria-valuetext', '501 MB of 500 MB');
    expect(storage.firstElementChild).toHaveClass('bg-destructive');
    expect(screen.getByRole('progressbar', { name: 'Shared links' }).firstElementChild).toHaveClass('bg-destructive');
    expect(screen.getByRole('progressbar', { name: 'Stories' }).firstElementChild).not.toHaveClass('bg-destructive');
  });

  it('leaves out the monthly tokens without an allowance', async () => {
    mockFetch(() => jsonResponse(limits({ monthlyTokens: null })));
    renderWithProviders(<AccountLimits />);
    await screen.findByRole('progressbar', { name: 'Stories' });
    expect(screen.getAllByRole('progressbar').map((bar) => bar.getAttribute('aria-valuetext'))).toEqual([
      '12 of 1,000',
      '200 of 200',
      '12.3 MB of 500 MB',
    ]);
    expect(screen.queryByText('Tokens this month')).not.toBeInTheDocument();
  });

  it('says so, without a toast, when the limits cannot be read', async () => {
    mockFetch(() =>
      jsonResponse(
        { message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' },
        { status: 500 },
      ),
    );
    renderWithProviders(<AccountLimits />);
    expect(
      await screen.findByText('Your limits could not be loaded. Please try again later.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong on our side. Please try again.')).not.toBeInTheDocument();
  });

  it('writes small amounts of text in KB and the rest in MB', () => {
    expect([
      formatStorage(0),
      formatStorage(652),
      formatStorage(700 * 1024),
      formatStorage(MB),
      formatStorage(1.55 * MB),
      formatStorage(500 * MB),
    ]).toEqual(['0 MB', '1 KB', '700 KB', '1 MB', '1.6 MB', '500 MB']);
  });
});
