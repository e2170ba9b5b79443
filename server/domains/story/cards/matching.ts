// Story-card matching: whether a card's keys come up in the new action and the recent messages,
// and how far back. Pure and synchronous, because a turn scans up to a thousand cards before the
// narrator is called: plain keys are literal and mostly answered by a Set lookup of the text's
// whole words; regular-expression keys run on RE2 (linear time), so no key a player writes can
// stall a turn. Word boundaries are Unicode-aware (JavaScript's \b only knows ASCII).
import { RE2JS } from 're2js';
import { BoundedCache } from '@server/kernel/bounded-cache';
import { REGEX_KEY_PROGRAM_MAX, STORY_CARD_MESSAGES } from '@shared/schemas/story-cards';

/** A key written /pattern/flags (the pattern not empty). Flags are letters; which ones are allowed is keyProblem's call. */
const REGEX_KEY = /^\/([\s\S]+)\/([a-zA-Z]*)$/;
/** A letter, number, combining mark or underscore: what may not touch a whole-word match. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;
const WORD_RUN = /[\p{L}\p{N}\p{M}_]+/gu;
const WORD_ONLY = /^[\p{L}\p{N}\p{M}_]+$/u;
/** Scripts written without spaces between words: there a whole-word rule would never fire. */
const SPACELESS_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Bounds the module-level caches: a story has at most 1,000 cards of 20 + 20 keys, and several stories share a process. */
const CACHE_MAX = 5000;
/**
 * Texts kept prepared between turns: a turn's older messages were scanned on the turns before.
 * Enough for a few dozen stories playing at once.
 */
const PREPARED_TEXTS_MAX = 200;
/**
 * Card contents kept prepared between turns, apart from the messages: a card sent on every turn
 * (always on, say) is scanned for recursion on every turn. A turn scans a few dozen at most
 * (turn-cards' RECURSION_SOURCES_MAX), so they never push each other out within a turn, and about
 * ten stories' worth are kept.
 */
const PREPARED_CONTENTS_MAX = 200;

/** A key written /pattern/flags: flags among i, m, s (u, g, y are accepted and ignored). */
export function isRegexKey(key: string): boolean {
  return REGEX_KEY.test(key);
}

interface ParsedRegexKey {
  pattern: string;
  flags: number;
  unknownFlag: string | null;
}

function parseRegexKey(key: string): ParsedRegexKey | null {
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
const compiledRegexes = new BoundedCache<string, RE2JS | string>(CACHE_MAX);

function compileRegex(pattern: string, flags: number): RE2JS | string {
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
const tooLarge = (regex: RE2JS) => regex.programSize() > REGEX_KEY_PROGRAM_MAX;

export interface MatchableCard {
  id: number;
  keys: string[];
  secondaryKeys: string[];
  secondaryLogic: 'andAny' | 'andAll' | 'notAny' | 'notAll';
  caseSensitive: boolean;
  wholeWords: boolean;
  scanDepth: number;
}

/** Where a card's key came up: the key as written, and how far back (0: the new action, 1: the newest message before it, …). */
export interface KeyHit {
  key: string;
  distance: number;
}

/**
 * A key made ready to test: 'word' is one whole word (a Set lookup), 'phrase' a whole-word match of
 * several words or punctuation (indexOf and a look at both ends), 'substring' a plain substring.
 * 'fold' says it is compared lowercased. A key that cannot run ('never') matches nothing.
 */
type PreparedKey =
  | { kind: 'word' | 'substring'; needle: string; fold: boolean }
  | { kind: 'phrase'; needle: string; fold: boolean; words: string[] }
  | { kind: 'regex'; regex: RE2JS }
  | { kind: 'never' };

/** One cache per (caseSensitive, wholeWords), so a lookup builds no compound string. */
const preparedKeys = [0, 1, 2, 3].map(() => new BoundedCache<string, PreparedKey>(CACHE_MAX));

function prepareKey(key: string, caseSensitive: boolean, wholeWords: boolean): PreparedKey {
  const cache = preparedKeys[(caseSensitive ? 2 : 0) + (wholeWords ? 1 : 0)];
  return cache.peek(key) ?? cache.set(key, buildKey(key, caseSensitive, wholeWords));
}

function buildKey(key: string, caseSensitive: boolean, wholeWords: boolean): PreparedKey {
  const parsed = parseRegexKey(key);
  if (parsed) {
    if (parsed.unknownFlag !== null) return { kind: 'never' };
    const compiled = compileRegex(parsed.pattern, parsed.flags | (caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE));
    // A key stored before the size limit is never run either.
    return typeof compiled === 'string' || tooLarge(compiled) ? { kind: 'never' } : { kind: 'regex', regex: compiled };
  }
  const fold = !caseSensitive;
  const normalized = key.normalize('NFC');
  const needle = fold ? normalized.toLowerCase() : normalized;
  if (needle.length === 0) return { kind: 'never' };
  if (!wholeWords || SPACELESS_SCRIPT.test(needle)) return { kind: 'substring', needle, fold };
  if (WORD_ONLY.test(needle)) return { kind: 'word', needle, fold };
  // Each word of a phrase matched whole is a whole word of the text too: the Set rules most phrases out.
  return { kind: 'phrase', needle, fold, words: needle.match(WORD_RUN) ?? [] };
}

function isWordCodePoint(codePoint: number): boolean {
  if (codePoint < 128) {
    return (
      (codePoint >= 97 && codePoint <= 122) ||
      (codePoint >= 65 && codePoint <= 90) ||
      (codePoint >= 48 && codePoint <= 57) ||
      codePoint === 95
    );
  }
  return WORD_CHAR.test(String.fromCodePoint(codePoint));
}

/** Whether the character ending just before index is a word character (surrogate pairs read whole). */
function wordCharBefore(text: string, index: number): boolean {
  if (index <= 0) return false;
  const unit = text.charCodeAt(index - 1);
  const codePoint = unit >= 0xdc00 && unit <= 0xdfff && index >= 2 ? text.codePointAt(index - 2)! : unit;
  return isWordCodePoint(codePoint);
}

function wordCharAt(text: string, index: number): boolean {
  return index < text.length && isWordCodePoint(text.codePointAt(index)!);
}

function findWholePhrase(text: string, needle: string): boolean {
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (!wordCharBefore(text, at) && !wordCharAt(text, at + needle.length)) return true;
  }
  return false;
}

/** One text prepared lazily: its NFC form, lowercased form, the Sets of their whole words and the regex keys' answers. */
class ScanText {
  private readonly raw: string;
  private lower: string | undefined;
  private rawWords: Set<string> | undefined;
  private lowerWords: Set<string> | undefined;
  /** A regex key runs once per text, however many cards and turns ask. */
  private readonly regexHits = new Map<RE2JS, boolean>();

  constructor(text: string) {
    this.raw = text.normalize('NFC');
  }

  private text(fold: boolean): string {
    if (!fold) return this.raw;
    this.lower ??= this.raw.toLowerCase();
    return this.lower;
  }

  private words(fold: boolean): Set<string> {
    if (fold) return (this.lowerWords ??= new Set(this.text(true).match(WORD_RUN)));
    return (this.rawWords ??= new Set(this.raw.match(WORD_RUN)));
  }

  has(key: PreparedKey): boolean {
    switch (key.kind) {
      case 'word':
        return this.words(key.fold).has(key.needle);
      case 'phrase': {
        const words = this.words(key.fold);
        for (const word of key.words) if (!words.has(word)) return false;
        return findWholePhrase(this.text(key.fold), key.needle);
      }
      case 'substring':
        return this.text(key.fold).includes(key.needle);
      case 'regex': {
        let hit = this.regexHits.get(key.regex);
        if (hit === undefined) {
          hit = key.regex.test(this.raw);
          this.regexHits.set(key.regex, hit);
        }
        return hit;
      }
      case 'never':
        return false;
    }
  }
}

const preparedTexts = new BoundedCache<string, ScanText>(PREPARED_TEXTS_MAX);
const preparedContents = new BoundedCache<string, ScanText>(PREPARED_CONTENTS_MAX);
const prepared = (text: string) => new ScanText(text);

/** The text's prepared form, kept among the PREPARED_TEXTS_MAX most recently used. */
function prepareText(text: string): ScanText {
  return preparedTexts.getOrSet(text, prepared);
}

function secondaryHolds(card: MatchableCard, scans: ScanText[], depth: number): boolean {
  const { secondaryKeys, secondaryLogic } = card;
  if (secondaryKeys.length === 0) return true;
  let found = 0;
  for (const key of secondaryKeys) {
    const prepared = prepareKey(key, card.caseSensitive, card.wholeWords);
    for (let distance = 0; distance <= depth; distance++) {
      if (scans[distance].has(prepared)) {
        found++;
        break;
      }
    }
  }
  switch (secondaryLogic) {
    case 'andAny':
      return found > 0;
    case 'andAll':
      return found === secondaryKeys.length;
    case 'notAny':
      return found === 0;
    case 'notAll':
      return found < secondaryKeys.length;
  }
}

/**
 * Scans the new action and the recent messages (texts[0] is the action, texts[1] the newest message before it, …).
 * match(card) looks at texts[0..card.scanDepth] (scanDepth messages besides the action), returns the hit of the
 * nearest (smallest distance) matching primary key (ties: first key in the card's order), or null when no primary
 * key matches or the secondary condition fails (secondary keys are looked for in the same texts; empty secondaryKeys = no condition).
 * Also `matchText(card, text)`: the first primary key found in one extra text (a card's content, for recursion), with the same secondary rule applied to that text; distance 0.
 * Extra texts are prepared once for this scanner (a turn), kept among the PREPARED_CONTENTS_MAX most recently used.
 */
export function createCardScanner(texts: string[]): {
  match(card: MatchableCard): KeyHit | null;
  matchText(card: MatchableCard, text: string): KeyHit | null;
} {
  const scans = texts.map(prepareText);
  const extra = new Map<string, ScanText>();

  function firstHit(card: MatchableCard, scanned: ScanText[], depth: number): KeyHit | null {
    // Key by key, each looking only nearer than the best so far: a later key wins only by being strictly nearer.
    let best = -1;
    let bestDistance = depth + 1;
    for (let index = 0; index < card.keys.length; index++) {
      const key = prepareKey(card.keys[index], card.caseSensitive, card.wholeWords);
      for (let distance = 0; distance < bestDistance; distance++) {
        if (scanned[distance].has(key)) {
          best = index;
          bestDistance = distance;
          break;
        }
      }
    }
    if (best === -1 || !secondaryHolds(card, scanned, depth)) return null;
    return { key: card.keys[best], distance: bestDistance };
  }

  return {
    match(card) {
      const depth = Math.min(Math.floor(card.scanDepth), scans.length - 1);
      return depth < 0 ? null : firstHit(card, scans, depth);
    },
    matchText(card, text) {
      let scan = extra.get(text);
      if (!scan) extra.set(text, (scan = preparedContents.getOrSet(text, prepared)));
      return firstHit(card, [scan], 0);
    },
  };
}
