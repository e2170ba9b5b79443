// Regular-expression story-card keys: a key written /pattern/flags, compiled on RE2 (re2js: linear
// time, so no pattern a player writes can stall a turn), cached, and checked when a card is written
// (keyProblem): a pattern RE2 refuses, a flag it does not know, or a program past
// REGEX_KEY_PROGRAM_MAX instructions is refused with a message naming the key.
import { RE2JS } from 're2js';
import { BoundedCache } from '@server/kernel/bounded-cache';
import { REGEX_KEY_PROGRAM_MAX, STORY_CARD_MESSAGES } from '@shared/schemas/story-cards';

/** Compiled patterns kept: a story has at most 1,000 cards of 20 + 20 keys, and several stories share a process. */
const COMPILED_MAX = 5000;

/** A key written /pattern/flags (the pattern not empty). Flags are letters; which ones are allowed is keyProblem's call. */
const REGEX_KEY = /^\/([\s\S]+)\/([a-zA-Z]*)$/;
/** A key written /pattern/flags: flags among i, m, s (u, g, y are accepted and ignored). */
export function isRegexKey(key: string): boolean {
  return REGEX_KEY.test(key);
}

interface ParsedRegexKey {
  pattern: string;
  flags: number;
  unknownFlag: string | null;
}

export function parseRegexKey(key: string): ParsedRegexKey | null {
  const parts = REGEX_KEY.exec(key);
  if (!parts) return null;
  let flags = 0;
  let unknownFlag: string | null = null;
  for (const flag of parts[2]) {
    if (flag === 'i') flags |= RE2JS.CASE_INSENSITIVE;
    else if (flag === 'm') flags |= RE2JS.MULTILINE;
    else if (flag === 's') flags |= RE2JS.DOTALL;
    // u, g and y mean nothing for "does it come up": JavaScript habits, accepted so pasted keys work.
    else if (flag !== 'u' && flag !== 'g' && flag !== 'y') unknownFlag ??= flag;
  }
  return { pattern: parts[1], flags, unknownFlag };
}

/** Compiled patterns by flags and pattern; a pattern RE2 refuses is kept as its reason, so it is not recompiled. */
const compiledRegexes = new BoundedCache<string, RE2JS | string>(COMPILED_MAX);

export function compileRegex(pattern: string, flags: number): RE2JS | string {
  const cacheKey = `${flags}/${pattern}`;
  // Peeked, not used: read for every regex key of every turn, they are forgotten in the order they came.
  const cached = compiledRegexes.peek(cacheKey);
  if (cached !== undefined) return cached;
  let compiled: RE2JS | string;
  try {
    compiled = RE2JS.compile(pattern, flags);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    compiled = message.replace(/^error parsing regexp:\s*/, '').replace(/\.$/, '') || 'unsupported syntax';
  }
  return compiledRegexes.set(cacheKey, compiled);
}

/**
 * Null when every key (primary and secondary) of the card can run; else a player-facing message
 * naming the bad key. Unknown flags are refused too.
 */
export function keyProblem(card: { keys: string[]; secondaryKeys: string[] }): string | null {
  for (const key of [...card.keys, ...card.secondaryKeys]) {
    const parsed = parseRegexKey(key);
    if (!parsed) continue;
    if (parsed.unknownFlag !== null) {
      return `The key '${key}' has a flag Taleweaver does not know: '${parsed.unknownFlag}' (a regular expression may use i, m and s).`;
    }
    const compiled = compileRegex(parsed.pattern, parsed.flags);
    if (typeof compiled === 'string') {
      return `The key '${key}' is not a regular expression Taleweaver can run: ${compiled}.`;
    }
    if (tooLarge(compiled)) return STORY_CARD_MESSAGES.regexKeyTooLarge(key, compiled.programSize());
  }
  return null;
}

/**
 * Whether a compiled pattern is past REGEX_KEY_PROGRAM_MAX instructions: RE2's work per character
 * grows with its program, and a counted repeat ({1000}) copies what it repeats, so a key of a few
 * characters could cost as much as hundreds of keys on every text of every turn.
 */
export const tooLarge = (regex: RE2JS) => regex.programSize() > REGEX_KEY_PROGRAM_MAX;
