// Token counting with a real BPE tokenizer (gpt-tokenizer, o200k), loaded once and lazily: its
// tables take 80-200 ms to load, which start-up and the unit tests that never count should not pay.
type CountTokens = (text: string) => number;

let loading: Promise<CountTokens> | null = null;

export function loadTokenCounter(): Promise<CountTokens> {
  loading ??= import('gpt-tokenizer').then((module) => (text: string) => (text ? module.countTokens(text) : 0));
  return loading;
}

/** Chat formats spend a few tokens per message on roles and separators. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
