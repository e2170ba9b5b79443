// The shared allowance figures: 'Unlimited' without a monthly limit, and a numeric balance with the
// tokens used and the renewal date when there is one; this month's spend as the server priced it.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TokenUsage } from '@shared/schemas/user';
import { AllowanceFigures } from './allowance-figures';

const now = new Date('2025-07-15T12:00:00Z');
const usage = (overrides: Partial<TokenUsage>): TokenUsage => ({
  textTokens: 0,
  imageTokens: 0,
  total: 0,
  thisMonth: 0,
  balance: null,
  monthCostUsd: 0,
  ...overrides,
});

/** The value shown under a figure's label (<dt>/<dd> pairs). */
function figure(label: string): string | null {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? null;
}

describe('AllowanceFigures', () => {
  it("shows 'Unlimited' when there is no monthly limit, and no reset date", () => {
    render(<AllowanceFigures usage={usage({ thisMonth: 4321, balance: null })} now={now} />);
    expect(figure('Remaining this month')).toBe('Unlimited');
    expect(figure('Used this month')).toBe('4,321 tokens');
    expect(screen.queryByText('Resets on')).not.toBeInTheDocument();
    expect(screen.getByText('Your stories have no monthly token limit.')).toBeInTheDocument();
  });

  it('shows the remaining balance, the tokens used and the reset date', () => {
    render(<AllowanceFigures usage={usage({ thisMonth: 1500, balance: 48500 })} now={now} />);
    expect(figure('Remaining this month')).toBe('48,500 tokens');
    expect(figure('Used this month')).toBe('1,500 tokens');
    expect(figure('Resets on')).toBe('August 1, 2025');
  });

  it("shows this month's spend, the server's figure (2 decimals from a dollar up), beside the tokens used", () => {
    render(<AllowanceFigures usage={usage({ thisMonth: 1500, balance: 48500, monthCostUsd: 1234.567 })} now={now} />);
    expect(figure('Spent this month')).toBe('$1,234.57');
    const labels = screen.getAllByRole('term').map((dt) => dt.textContent);
    expect(labels).toEqual(['Remaining this month', 'Used this month', 'Spent this month', 'Resets on']);
  });

  it('shows a month with nothing spent as $0.00, and a few turns to the fraction of a cent', () => {
    const { unmount } = render(<AllowanceFigures usage={usage({ thisMonth: 0, balance: null })} now={now} />);
    expect(figure('Spent this month')).toBe('$0.00');
    unmount();
    render(<AllowanceFigures usage={usage({ thisMonth: 386, balance: null, monthCostUsd: 0.001544 })} now={now} />);
    expect(figure('Spent this month')).toBe('$0.0015');
  });

  it('says when a spent allowance renews', () => {
    render(<AllowanceFigures usage={usage({ thisMonth: 50000, balance: 0 })} now={now} />);
    expect(figure('Remaining this month')).toBe('0 tokens');
    expect(
      screen.getByText("You have used this month's story allowance. It renews on August 1, 2025."),
    ).toBeInTheDocument();
  });
});
