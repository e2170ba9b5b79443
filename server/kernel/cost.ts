// The one price function: tokens to US dollars at the operator's prices. A reply's cost,
// a player's month and every figure of the admin dashboard come from it, so they always agree.
import type { Prices } from './config/prices';

export interface PricedTokens {
  /** Every input token, the cached ones included (as OpenAI's prompt_tokens counts them). */
  input: number;
  /** The part of `input` read from the provider's prompt cache. */
  cachedInput?: number;
  output: number;
  image?: number;
}

/** Dollars kept to a millionth: sums of many small floats would otherwise print 0.30000000000000004. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

/** What the tokens cost: uncached input, cached input, output and image tokens, each at its price. */
export function costUsd(tokens: PricedTokens, prices: Prices): number {
  const cached = Math.min(Math.max(tokens.cachedInput ?? 0, 0), tokens.input);
  const perMillion =
    (tokens.input - cached) * prices.inputPerMillion +
    cached * prices.cachedInputPerMillion +
    tokens.output * prices.outputPerMillion +
    (tokens.image ?? 0) * prices.imagePerMillion;
  return roundUsd(perMillion / 1_000_000);
}
