// The allowance words: renewal on the 1st of next month in UTC, en-US numbers and dates, and the
// package name cleaned and cut before it is repeated to the player.
import { describe, expect, it } from 'vitest';
import { PACKAGE_NAME_MAX, formatResetDate, formatTokenCount, nextAllowanceReset, toPackageName } from './allowance';

describe('nextAllowanceReset', () => {
  it('is midnight UTC on the 1st of next month', () => {
    expect(nextAllowanceReset(new Date('2025-07-15T12:00:00Z')).toISOString()).toBe('2025-08-01T00:00:00.000Z');
  });

  it('rolls over the year in December', () => {
    expect(nextAllowanceReset(new Date('2025-12-31T23:59:59Z')).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('counts months in UTC, not local time', () => {
    // Still January in UTC, though already February east of Greenwich.
    expect(nextAllowanceReset(new Date('2025-01-31T23:30:00Z')).toISOString()).toBe('2025-02-01T00:00:00.000Z');
    expect(nextAllowanceReset(new Date('2025-02-01T00:00:00Z')).toISOString()).toBe('2025-03-01T00:00:00.000Z');
  });
});

describe('formatting', () => {
  it('writes the reset date in en-US', () => {
    expect(formatResetDate(new Date('2025-07-15T12:00:00Z'))).toBe('August 1, 2025');
  });

  it('groups token counts in thousands', () => {
    expect(formatTokenCount(1234567)).toBe('1,234,567');
    expect(formatTokenCount(0)).toBe('0');
  });
});

describe('toPackageName', () => {
  it('keeps an ordinary name', () => {
    expect(toPackageName('starter')).toBe('starter');
  });

  it('answers null for a missing or blank value', () => {
    expect(toPackageName(null)).toBeNull();
    expect(toPackageName('   ')).toBeNull();
  });

  it('drops control characters and collapses whitespace', () => {
    expect(toPackageName(' big\u0000\n  pack\u0085 ')).toBe('big pack');
  });

  it('cuts long names with an ellipsis', () => {
    const name = toPackageName('x'.repeat(500));
    expect(name).toBe(`${'x'.repeat(PACKAGE_NAME_MAX)}…`);
  });
});
