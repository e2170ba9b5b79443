// What the story memory's folds are given: the repositories, the provider that summarises, the
// budget the memory lives in, the player's allowance, the clock and the durable flush. One shape
// for the door (index.ts) and the use cases it runs (fold.ts, compaction.ts, summary-call.ts).
import type { Budget } from '@server/ai/llm/context';
import type { FactInput } from '@server/ai/llm/summary-answer';
import type { NarratorProvider } from '@server/ai/llm/types';
import type { Repositories } from '@server/db/repositories';
import type { Log } from '@server/kernel/log';
import type { Allowance } from '../../../limits/allowance';
import type { FoldSource } from '../../bible/from-fold';

export interface MemoryDeps {
  repos: Repositories;
  provider: NarratorProvider;
  budget: Budget;
  /** LLM_CONTEXT_TOKENS: a summary request, its output included, stays inside it. */
  contextTokens: number;
  /** A fold is a paid call: it waits for a later turn when the player's hour or month is spent. */
  allowance: Pick<Allowance, 'admit'>;
  apiKey: string | undefined;
  now: () => Date;
  flush: () => Promise<void>;
  log: Log;
  /**
   * Told of each fold applied, with the story bible's facts its answer stated and the messages it
   * covered: the turns it took out of the verbatim window can now be recalled (the memory bank
   * indexes them), and the facts are saved.
   */
  onFolded?: (storyId: number, facts: FactInput[], sources: FoldSource[]) => Promise<void> | void;
}
