// How the dashboard writes its figures: en-US token counts and dates, calendar months, costs to 2
// decimals (every dollar figure is the server's, priced at its LLM_PRICE_* settings,
// never estimated here) and the month share with exactly one decimal.
import { formatCost } from '@shared/cost';

const numberFormat = new Intl.NumberFormat('en-US');
const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
// Months and days arrive as UTC calendar names (YYYY-MM, YYYY-MM-DD); formatting them in UTC keeps
// a viewer west of Greenwich from seeing the previous month or day.
const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

/** "Mar 5, 2026"; null when the value is missing or not a date, so the caller says what that means. */
export function formatDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : dateFormat.format(date);
}

/** "2026-03" -> "March 2026". */
export function formatMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  if (!year || !monthNumber) return month;
  return monthFormat.format(new Date(Date.UTC(year, monthNumber - 1, 1)));
}

/** "2026-03-05" -> "Mar 5, 2026". */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dayFormat.format(date);
}

export { formatCost };

/**
 * A user's share of every user's tokens this month: "12.5%". With no tokens spent this month at
 * all the share is "0.0%" rather than a division by zero.
 */
export function formatMonthShare(userThisMonth: number, monthTokens: number): string {
  if (monthTokens <= 0) return '0.0%';
  return formatShare(userThisMonth / monthTokens);
}

/** A fraction from 0 to 1 as a percentage with one decimal: "12.5%". */
export function formatShare(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}
