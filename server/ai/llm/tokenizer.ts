// Token counting with a real BPE tokenizer (gpt-tokenizer, o200k), loaded once and lazily: its
// tables take 80-200 ms to load, which start-up and the unit tests that never count should not pay.
// Counts are remembered by text: every turn counts the same system prompt, premise, memory and
// verbatim window again (and the memory fold counts them once more), and BPE over them was the
// largest share of a turn's CPU after the network; a lookup costs a hash of the string instead.
type CountTokens = (text: string) => number;

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

let loading: Promise<CountTokens> | null = null;

export function loadTokenCounter(): Promise<CountTokens> {
  loading ??= import('gpt-tokenizer').then((module) => rememberingCounter((text: string) => module.countTokens(text)));
  return loading;
}

/** Chat formats spend a few tokens per message on roles and separators. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
