// One key as a chip, in the cards' list and in the keys box: a regular expression (/pattern/flags)
// is shown as code and says so to screen readers, a plain key as its words.
import type { ReactNode } from 'react';
import { cn } from '@client/lib/utils';
import { STORY_CARDS_STRINGS as S } from '../strings';

/** A key written /pattern/flags (flags i, m, s) is a regular expression. */
export const isRegexKey = (key: string) => /^\/.+\/[ims]*$/.test(key);

export function KeyChip({ value, children }: { value: string; children?: ReactNode }) {
  const regex = isRegexKey(value);
  return (
    <span
      className={cn(
        'inline-flex max-w-full items-center gap-1 rounded-full border bg-muted/60 px-2 py-0.5 text-xs',
        regex && 'rounded-md',
      )}
    >
      {regex ? (
        <>
          <code className="font-mono break-all">{value}</code>
          <span className="sr-only"> ({S.regexKey})</span>
        </>
      ) : (
        <span className="break-words">{value}</span>
      )}
      {children}
    </span>
  );
}
