// How the usage reads read the rollups the database keeps beside the ledger: the calendar keys
// (UTC days, and a month as its first day), the sums of a rollup cell, and the split of tokens as
// they are priced. Shared by a player's figures, the operator's and the allowance's month.
import { sql } from 'drizzle-orm';
import type { usageDaily, userUsageMonthly } from '../../schema';

export interface TokenSplit {
  input: number;
  /** The part of `input` read from a prompt cache. */
  cachedInput: number;
  output: number;
  image: number;
}

/**
 * Tokens as they are priced, from the way user_stats keeps them: text tokens (input and output
 * together), image tokens, and the input and cached-input parts of the text. The output is the rest.
 */
export function statsSplit(stats: { text: number; image: number; input: number; cachedInput: number }): TokenSplit {
  return { input: stats.input, cachedInput: stats.cachedInput, output: stats.text - stats.input, image: stats.image };
}

export function startOfUtcMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** A UTC date as the rollups key it: YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The rollups' key for the current UTC month: its first day. */
export function monthKey(now: Date): string {
  return utcDay(startOfUtcMonth(now));
}

/** Tokens, characters and calls of one rollup cell. */
export interface UsageSums {
  calls: number;
  input: number;
  cachedInput: number;
  output: number;
  image: number;
  characters: number;
}

/** The select list summing a rollup's cells (PostgreSQL answers the sums as text). */
export const sums = (t: typeof usageDaily | typeof userUsageMonthly) => ({
  calls: sql<string>`coalesce(sum(${t.calls}), 0)`,
  input: sql<string>`coalesce(sum(${t.inputTokens}), 0)`,
  cachedInput: sql<string>`coalesce(sum(${t.cachedInputTokens}), 0)`,
  output: sql<string>`coalesce(sum(${t.outputTokens}), 0)`,
  image: sql<string>`coalesce(sum(${t.imageTokens}), 0)`,
  characters: sql<string>`coalesce(sum(${t.characters}), 0)`,
});

export const toSums = (r: {
  calls: string | number;
  input: string | number;
  cachedInput: string | number;
  output: string | number;
  image: string | number;
  characters: string | number;
}): UsageSums => ({
  calls: Number(r.calls),
  input: Number(r.input),
  cachedInput: Number(r.cachedInput),
  output: Number(r.output),
  image: Number(r.image),
  characters: Number(r.characters),
});
