// The allowance figures as words: token counts, the date the monthly allowance renews (the server
// counts calendar months in UTC, see server/db/repositories/usage/rollups.ts), and the `package` query value
// trimmed to something safe to repeat back to the player.
const tokenFormat = new Intl.NumberFormat('en-US');
const resetFormat = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** Longest package name repeated on the page; anything longer is cut and marked with an ellipsis. */
export const PACKAGE_NAME_MAX = 40;

export function formatTokenCount(value: number): string {
  return tokenFormat.format(value);
}

/** Midnight UTC on the 1st of the month after `now`: when this month's usage stops counting. */
export function nextAllowanceReset(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export function formatResetDate(now: Date): string {
  return resetFormat.format(nextAllowanceReset(now));
}

/**
 * The package a visitor picked, as plain text fit to show: control characters dropped, whitespace
 * collapsed, at most PACKAGE_NAME_MAX characters. Null when there is nothing to show. React escapes
 * the text itself; this only keeps an odd link from filling the page.
 */
export function toPackageName(value: string | null): string | null {
  if (value === null) return null;
  const cleaned = [...value]
    .filter((char) => {
      const code = char.codePointAt(0) ?? 0;
      return code >= 0x20 && (code < 0x7f || code > 0x9f);
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  if (cleaned === '') return null;
  const chars = [...cleaned];
  return chars.length > PACKAGE_NAME_MAX ? `${chars.slice(0, PACKAGE_NAME_MAX).join('').trimEnd()}…` : cleaned;
}
