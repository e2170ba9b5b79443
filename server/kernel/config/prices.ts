// What the operator pays per million tokens (LLM_PRICE_*), so that every dollar figure (a reply's
// cost, a player's month, the admin's cards and tables) is priced the same way, by kernel/cost.ts.
// The defaults are the spec's text rate ($0.000004 a token); pictures keep the spec's image rate.
import { z } from 'zod';
import { COST_PER_IMAGE_TOKEN, COST_PER_TEXT_TOKEN } from '@shared/constants';
import { setting, type ParsedSettings } from './setting';

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

export const priceSettings = {
  LLM_PRICE_INPUT: setting({
    group: 'Narrator',
    doc: 'US dollars per million input tokens not read from a prompt cache.',
    default: String(SPEC_TEXT_PRICE),
    example: '0.15',
    schema: price('LLM_PRICE_INPUT'),
  }),
  LLM_PRICE_CACHED_INPUT: setting({
    group: 'Narrator',
    doc: 'US dollars per million input tokens the provider read from its prompt cache.',
    // Unset: cached input costs what input costs, until the operator knows their provider's discount.
    unsetDoc: 'input price',
    example: '0.075',
    schema: price('LLM_PRICE_CACHED_INPUT'),
  }),
  LLM_PRICE_OUTPUT: setting({
    group: 'Narrator',
    doc: 'US dollars per million output tokens.',
    default: String(SPEC_TEXT_PRICE),
    example: '0.6',
    schema: price('LLM_PRICE_OUTPUT'),
  }),
};

type PriceEnv = ParsedSettings<typeof priceSettings>;

/** What the operator pays (`config.llm.prices`), read from the LLM_PRICE_* variables. */
export function pricesConfig(e: PriceEnv) {
  return {
    /** US dollars per million input tokens not read from a prompt cache (LLM_PRICE_INPUT). */
    inputPerMillion: e.LLM_PRICE_INPUT,
    /** ...per million input tokens the provider read from its prompt cache (LLM_PRICE_CACHED_INPUT). */
    cachedInputPerMillion: e.LLM_PRICE_CACHED_INPUT ?? e.LLM_PRICE_INPUT,
    /** ...per million output tokens (LLM_PRICE_OUTPUT). */
    outputPerMillion: e.LLM_PRICE_OUTPUT,
    /** ...per million image tokens: the spec's image rate. */
    imagePerMillion: SPEC_IMAGE_PRICE,
  };
}

export type Prices = ReturnType<typeof pricesConfig>;
