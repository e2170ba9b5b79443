// Token counting with a real BPE tokenizer (gpt-tokenizer, o200k), loaded once and lazily: its
// tables take 80-200 ms to load, which start-up and the unit tests that never count should not pay.
// The compiled server loads the tables from JSON written beside it at build time
// (scripts/build/build-server.mjs): the package ships them as a 2.4 MB JavaScript array literal, and
// compiling that kept about 50 MB resident where parsing the same array as JSON keeps 27 MB.
// Counts are remembered by text: every turn counts the same system prompt, premise, memory and
// verbatim window again (and the memory fold counts them once more), and BPE over them was the
// largest share of a turn's CPU after the network; a lookup costs a hash of the string instead.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

type CountTokens = (text: string) => number;
type EncodingCount = (text: string, options: { disallowedSpecial: Set<string> }) => number;

/** Where the compiled server finds the o200k ranks as JSON (absent when running from source). */
export const RANKS_JSON = 'o200k_base.json';

/** Shorter texts are counted afresh: BPE over a few words costs about what the lookup does. */
const MIN_REMEMBERED_CHARS = 64;
/** The remembered texts' total length; past it the least recently used go first. */
export const REMEMBERED_CHARS_BUDGET = 4_000_000;

/** A counter that remembers the counts of the last texts it counted (least recently used out). */
export function rememberingCounter(countTokens: CountTokens, budgetChars = REMEMBERED_CHARS_BUDGET): CountTokens {
  const counts = new Map<string, number>();
  let chars = 0;
  return (text) => {
    if (!text) return 0;
    if (text.length < MIN_REMEMBERED_CHARS || text.length > budgetChars / 2) return countTokens(text);
    const known = counts.get(text);
    if (known !== undefined) {
      // Move to the young end: a Map iterates in insertion order, so the oldest key comes first.
      counts.delete(text);
      counts.set(text, known);
      return known;
    }
    const tokens = countTokens(text);
    counts.set(text, tokens);
    chars += text.length;
    for (const oldest of counts.keys()) {
      if (chars <= budgetChars) break;
      counts.delete(oldest);
      chars -= oldest.length;
    }
    return tokens;
  };
}

/**
 * Characters without a space that BPE is asked to merge at once, at most. The byte-pair merges cost
 * the square of a run's length: 8,000 Han characters took 370 ms to count and 8,000 dots 100, one
 * card's content holding the event loop at every count; prose never has runs this long.
 */
export const BPE_RUN_MAX = 128;

/**
 * Counts `text` with each run of more than BPE_RUN_MAX characters without whitespace cut into
 * pieces of that length, counted apart: linear in the text's length. A token never spans a cut, so
 * a long run counts at most one more token a cut than BPE over it whole would (under 1 % for a run of
 * Han); a text with no such run is counted as it is.
 */
export function boundedRuns(countTokens: CountTokens): CountTokens {
  return (text) => {
    if (text.length <= BPE_RUN_MAX) return countTokens(text);
    let total = 0;
    let from = 0;
    let run = 0;
    for (let at = 0; at < text.length; at += 1) {
      const unit = text.charCodeAt(at);
      if (unit === 32 || (unit >= 9 && unit <= 13)) {
        run = 0;
        continue;
      }
      run += 1;
      // Never between the halves of a surrogate pair.
      if (run > BPE_RUN_MAX && !(unit >= 0xdc00 && unit <= 0xdfff)) {
        total += countTokens(text.slice(from, at));
        from = at;
        run = 1;
      }
    }
    return from === 0 ? countTokens(text) : total + countTokens(text.slice(from));
  };
}

let loading: Promise<CountTokens> | null = null;

/** A counter over the o200k ranks read from a JSON file: the same encoding the package builds from its module. */
export async function countTokensFromRanksFile(path: string): Promise<EncodingCount> {
  const [{ GptEncoding }, text] = await Promise.all([import('gpt-tokenizer/GptEncoding'), readFile(path, 'utf8')]);
  const ranks = JSON.parse(text) as Array<string | number[]>;
  return GptEncoding.getEncodingApi('o200k_base', () => ranks).countTokens;
}

/**
 * Players' text is text: "<|endoftext|>" typed in an action is counted as the characters it is (as
 * a provider treats it), not refused as a control token, which failed the turn.
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function loadTokenCounter(): Promise<CountTokens> {
  const ranksFile = fileURLToPath(new URL(`./${RANKS_JSON}`, import.meta.url));
  loading ??= (
    existsSync(ranksFile)
      ? countTokensFromRanksFile(ranksFile)
      : import('gpt-tokenizer').then((module) => module.countTokens)
  ).then((count) => rememberingCounter(boundedRuns((text: string) => count(text, PLAIN_TEXT))));
  return loading;
}

/** Chat formats spend a few tokens per message on roles and separators. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
