// What the operator pays per million tokens (LLM_PRICE_*), so that every dollar figure (a reply's
// cost, a player's month, the admin's cards and tables) is priced the same way, by kernel/cost.ts.
// The defaults are the spec's text rate ($0.000004 a token); pictures keep the spec's image rate.
import { z } from 'zod';
import { COST_PER_IMAGE_TOKEN, COST_PER_TEXT_TOKEN } from '@shared/constants';

export interface Prices {
  /** US dollars per million input tokens not read from a prompt cache (LLM_PRICE_INPUT). */
  inputPerMillion: number;
  /** ...per million input tokens the provider read from its prompt cache (LLM_PRICE_CACHED_INPUT). */
  cachedInputPerMillion: number;
  /** ...per million output tokens (LLM_PRICE_OUTPUT). */
  outputPerMillion: number;
  /** ...per million image tokens: the spec's image rate. */
  imagePerMillion: number;
}

const PER_MILLION = 1_000_000;
/** The spec's text rate, per million tokens: $4. */
export const SPEC_TEXT_PRICE = Math.round(COST_PER_TEXT_TOKEN * PER_MILLION * 1e6) / 1e6;
const SPEC_IMAGE_PRICE = Math.round(COST_PER_IMAGE_TOKEN * PER_MILLION * 1e6) / 1e6;

const price = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^(\d+(\.\d+)?|\.\d+)$/, `${name} must be US dollars per million tokens, from 0 to 10000`)
    .transform(Number)
    .refine((n) => n <= 10_000, `${name} must be US dollars per million tokens, from 0 to 10000`);

export const priceEnv = {
  LLM_PRICE_INPUT: price('LLM_PRICE_INPUT').default(SPEC_TEXT_PRICE),
  /** Unset: cached input costs what input costs, until the operator knows their provider's discount. */
  LLM_PRICE_CACHED_INPUT: price('LLM_PRICE_CACHED_INPUT').optional(),
  LLM_PRICE_OUTPUT: price('LLM_PRICE_OUTPUT').default(SPEC_TEXT_PRICE),
};

type PriceEnv = z.infer<z.ZodObject<typeof priceEnv>>;

export function pricesConfig(e: PriceEnv): Prices {
  return {
    inputPerMillion: e.LLM_PRICE_INPUT,
    cachedInputPerMillion: e.LLM_PRICE_CACHED_INPUT ?? e.LLM_PRICE_INPUT,
    outputPerMillion: e.LLM_PRICE_OUTPUT,
    imagePerMillion: SPEC_IMAGE_PRICE,
  };
}
