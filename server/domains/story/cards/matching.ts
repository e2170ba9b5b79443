// Story-card matching: whether a card's keys come up in the new action and the recent messages,
// and how far back. Pure and synchronous, because a turn scans up to a thousand cards before the
// narrator is called: plain keys are literal and mostly answered by a Set lookup of the text's
// whole words; regular-expression keys run on RE2 (linear time, regex-keys.ts), so no key a player
// writes can stall a turn, and only on texts that hold their required literal (regex-literal.ts).
// Word boundaries are Unicode-aware (JavaScript's \b only knows ASCII). What a text answers for a
// story's list of cards is kept with the text, so a turn scans only its new texts.
import { RE2JS } from 're2js';
import { BoundedCache } from '@server/kernel/bounded-cache';
import { requiredLiteral, type RequiredLiteral } from './regex-literal';
import { compileRegex, parseRegexKey, tooLarge } from './regex-keys';

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
  | { kind: 'regex'; regex: RE2JS; literal: RequiredLiteral | null }
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
    const flags = parsed.flags | (caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    const compiled = compileRegex(parsed.pattern, flags);
    // A key stored before the size limit is never run either.
    if (typeof compiled === 'string' || tooLarge(compiled)) return { kind: 'never' };
    const literal = requiredLiteral(parsed.pattern, (flags & RE2JS.CASE_INSENSITIVE) !== 0);
    return { kind: 'regex', regex: compiled, literal };
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
  /** Per list of cards (a story's heads at one version), each card's first primary key found here. */
  private readonly firstKeysOf = new WeakMap<readonly MatchableCard[], Int8Array>();

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
          const { literal } = key;
          hit = (literal === null || this.text(literal.fold).includes(literal.text)) && key.regex.test(this.raw);
          this.regexHits.set(key.regex, hit);
        }
        return hit;
      }
      case 'never':
        return false;
    }
  }

  /** The index of the card's first primary key found in this text, or -1. */
  firstKey(card: MatchableCard): number {
    const { primary } = keysOf(card);
    for (let key = 0; key < primary.length; key++) if (this.has(primary[key])) return key;
    return -1;
  }

  /**
   * For each card of the list, the index of its first primary key found in this text, or -1; kept
   * for the list, so a message scanned on one turn is not scanned again on the next ones.
   */
  firstKeys(cards: readonly MatchableCard[]): Int8Array {
    let found = this.firstKeysOf.get(cards);
    if (!found) {
      found = new Int8Array(cards.length);
      for (let index = 0; index < cards.length; index++) found[index] = this.firstKey(cards[index]);
      this.firstKeysOf.set(cards, found);
    }
    return found;
  }
}

const preparedTexts = new BoundedCache<string, ScanText>(PREPARED_TEXTS_MAX);
/** namedIn's answers, by the texts (joined by NUL, which no card holds) and the list of cards. */
const namings = new BoundedCache<
  string,
  { whole: ScanText | null; byList: WeakMap<readonly MatchableCard[], Int16Array> }
>(PREPARED_CONTENTS_MAX);
const preparedContents = new BoundedCache<string, ScanText>(PREPARED_CONTENTS_MAX);
const prepared = (text: string) => new ScanText(text);

/** The text's prepared form, kept among the PREPARED_TEXTS_MAX most recently used. */
function prepareText(text: string): ScanText {
  return preparedTexts.getOrSet(text, prepared);
}

/** A card's keys made ready, primary then secondary, in the card's order. */
interface CardKeys {
  primary: PreparedKey[];
  secondary: PreparedKey[];
  /** Whether a primary key is a regular expression: one that may not hit a joined text as it hits its parts (^, $). */
  regex: boolean;
}

/**
 * The prepared keys of each card object: a turn's heads are the same objects turn after turn while
 * the story's cards stay as they are (card-heads.ts), so their keys are looked up in the key caches
 * once, not for every card and text of every turn. Keyed weakly: a head no longer kept is forgotten.
 */
const cardKeys = new WeakMap<MatchableCard, CardKeys>();

function keysOf(card: MatchableCard): CardKeys {
  let keys = cardKeys.get(card);
  if (!keys) {
    const prepare = (key: string) => prepareKey(key, card.caseSensitive, card.wholeWords);
    const primary = card.keys.map(prepare);
    keys = { primary, secondary: card.secondaryKeys.map(prepare), regex: primary.some((k) => k.kind === 'regex') };
    cardKeys.set(card, keys);
  }
  return keys;
}

/** A scanner's text at a distance, prepared when first asked for: a turn's cards look no further than their scan depth. */
type ScanAt = (distance: number) => ScanText;

function secondaryHolds(card: MatchableCard, secondary: PreparedKey[], scanAt: ScanAt, depth: number): boolean {
  const { secondaryKeys, secondaryLogic } = card;
  if (secondaryKeys.length === 0) return true;
  let found = 0;
  for (const prepared of secondary) {
    for (let distance = 0; distance <= depth; distance++) {
      if (scanAt(distance).has(prepared)) {
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
 * `matchAll(cards)` is match for each card of a list, in its order: the list's answers for each text are kept with the
 * text, so a turn scans only its new texts (the action, the reply before it) when the list is the same object again.
 * And `namedIn(cards, texts)`: for each card of the list, the first of these extra texts that matchText would find it
 * in, or -1; kept for the texts and the list, since a story's always-on cards are sent alike turn after turn.
 * Extra texts are prepared once for this scanner (a turn), kept among the PREPARED_CONTENTS_MAX most recently used.
 */
export function createCardScanner(texts: string[]): {
  match(card: MatchableCard): KeyHit | null;
  matchAll(cards: readonly MatchableCard[]): Array<KeyHit | null>;
  matchText(card: MatchableCard, text: string): KeyHit | null;
  namedIn(cards: readonly MatchableCard[], texts: string[]): Int16Array;
} {
  // Prepared when a card first looks that far back: the window holds dozens of messages, the cards
  // look at a few (at most CARD_SCAN_DEPTH_MAX), and those prepared stay among the kept texts.
  const scans: ScanText[] = [];
  const scanAt: ScanAt = (distance) => (scans[distance] ??= prepareText(texts[distance]));
  const extra = new Map<string, ScanText>();
  const extraScan = (text: string) => {
    let scan = extra.get(text);
    if (!scan) extra.set(text, (scan = preparedContents.getOrSet(text, prepared)));
    return scan;
  };

  /**
   * The card's hit in texts 0..depth: the nearest text holding one of its primary keys, and there its
   * first key found (`keyAt(distance)`, -1 for none); null when none does or the secondary rule fails.
   */
  function nearestHit(card: MatchableCard, depth: number, keyAt: (distance: number) => number, scan: ScanAt) {
    for (let distance = 0; distance <= depth; distance++) {
      const key = keyAt(distance);
      if (key === -1) continue;
      return secondaryHolds(card, keysOf(card).secondary, scan, depth) ? { key: card.keys[key], distance } : null;
    }
    return null;
  }
  const depthOf = (card: MatchableCard) => Math.min(Math.floor(card.scanDepth), texts.length - 1);
  /** matchText for a text prepared as an extra one. */
  const hitInExtra = (card: MatchableCard, extraText: ScanText) =>
    nearestHit(
      card,
      0,
      () => extraText.firstKey(card),
      () => extraText,
    );

  return {
    match(card) {
      return nearestHit(card, depthOf(card), (distance) => scanAt(distance).firstKey(card), scanAt);
    },
    matchAll(cards) {
      let deepest = -1;
      for (const card of cards) deepest = Math.max(deepest, depthOf(card));
      // Each text's answers for the list, kept with the text: a turn works out only its new texts'.
      const firstKeys = Array.from({ length: deepest + 1 }, (_, distance) => scanAt(distance).firstKeys(cards));
      return cards.map((card, index) =>
        nearestHit(card, depthOf(card), (distance) => firstKeys[distance][index], scanAt),
      );
    },
    matchText(card, text) {
      return hitInExtra(card, extraScan(text));
    },
    namedIn(cards, texts) {
      const key = texts.join('\u0000');
      let kept = namings.get(key);
      if (!kept) namings.set(key, (kept = { whole: null, byList: new WeakMap() }));
      let found = kept.byList.get(cards);
      if (!found) {
        const scanned = texts.map(extraScan);
        // A card is first looked for in the texts joined by a paragraph break: a plain key found in
        // one of them is found in the whole with the same neighbours (the break is no word), so a
        // card none of them names is ruled out in one look rather than one per text. Regular
        // expressions, which may hit a part and not the whole (^, $), are asked text by text.
        const whole = texts.length > 1 ? (kept.whole ??= new ScanText(texts.join('\n\n'))) : null;
        found = new Int16Array(cards.length);
        for (let index = 0; index < cards.length; index++) {
          const card = cards[index];
          const { primary, regex } = keysOf(card);
          found[index] =
            whole && !regex && !primary.some((k) => whole.has(k))
              ? -1
              : scanned.findIndex((scan) => hitInExtra(card, scan) !== null);
        }
        kept.byList.set(cards, found);
      }
      return found;
    },
  };
}
