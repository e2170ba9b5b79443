// Story turns: start, continue and retry. Each call first does everything that can fail cheaply
// (the player's hourly rate and monthly allowance, with the turn's cost reserved; ownership; the
// one-generation-per-story lease) and commits the player's action,
// then returns a PreparedTurn whose run() calls the provider, streams pieces to an optional
// listener and saves the reply only once it is complete. run() always finishes its work even if
// the listener (a browser) has gone: a disconnect never loses a reply. A finished reply that repeats
// the story is asked for once more before it is saved (loop-guard.ts).
// This door makes once per app what every turn shares (the budget, card heads, memory, loop guard
// and admission) and hands it to the use cases: start-story.ts, continue-story.ts, retry-turn.ts,
// and write-reply.ts for the run they all end in.
import { computeBudget } from '@server/ai/llm/context';
import { windowLimits } from '@server/ai/llm/fold';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { createStoryBible } from '../bible';
import { createCardHeads } from '../cards/card-heads';
import { generationDefaults } from '../generation-settings';
import { createLoopGuard } from '../loop-guard';
import { createStoryMemory } from '../memory/folds';
import { createMemoryBank } from '../memory/memory-bank';
import { createTurnAdmission } from '../turn-admission';
import { continueStory } from './continue-story';
import { retryTurn } from './retry-turn';
import { startStory } from './start-story';
import type { PreparedTurn, TurnContext, TurnDeps } from './turn-context';

export type { PreparedTurn, TurnDeps } from './turn-context';

/** A lease outlives the provider timeout, so only a dead process leaves one to expire. */
const LEASE_MARGIN_MS = 60_000;

export function createTurnService(deps: TurnDeps) {
  const { repos, provider, llm } = deps;
  const budget = computeBudget(llm.contextTokens, llm.maxOutputTokens);
  /** The card heads of the stories being played, kept while their cards are unchanged. */
  const cardHeads = createCardHeads(repos);
  /** Every shown message's passages, written after each fold for later turns to recall. */
  const memoryBank = deps.memoryBank ?? createMemoryBank({ repos, log: deps.log });
  const storyBible = deps.storyBible ?? createStoryBible({ repos, now: deps.now, log: deps.log });
  const memory = createStoryMemory({
    repos,
    provider,
    budget,
    contextTokens: llm.contextTokens,
    allowance: deps.allowance,
    apiKey: llm.apiKey,
    now: deps.now,
    flush: deps.flush,
    log: deps.log,
    onFolded: async (storyId, facts, sources) => {
      memoryBank.index(storyId, 'all');
      await storyBible.saveFolded(storyId, facts, sources);
    },
  });
  const leaseUntil = () => new Date(deps.now().getTime() + llm.timeoutMs + LEASE_MARGIN_MS);
  /** The most a turn can cost: a full prompt and a full reply. Reserved before the action is kept; settled by its usage row. */
  const turnTokens = budget.prompt + llm.maxOutputTokens;

  const ctx: TurnContext = {
    ...deps,
    budget,
    windowRead: windowLimits(budget),
    cardHeads,
    memory,
    /** Each finished reply measured against the story's last ones, and asked for once more when it loops. */
    loopGuard: createLoopGuard({
      config: llm.loopGuard,
      repos,
      provider,
      allowance: deps.allowance,
      turnTokens,
      promptBudget: budget.prompt,
      leaseUntil,
      apiKey: llm.apiKey,
      count: loadTokenCounter,
      now: deps.now,
      log: deps.log,
    }),
    defaults: generationDefaults(llm, provider.id),
    leaseUntil,
    admission: createTurnAdmission(deps, turnTokens, leaseUntil),
  };

  return {
    startStory: (userId: number, premise: string): Promise<PreparedTurn> => startStory(ctx, userId, premise),

    continueStory: (userId: number, storyId: number, text: string): Promise<PreparedTurn> =>
      continueStory(ctx, userId, storyId, text),

    /** Answers the last action again: adds a new version of its reply (the earlier ones stay as alternatives), or gives it the reply that failed. */
    retry: (userId: number, storyId: number): Promise<PreparedTurn> => retryTurn(ctx, userId, storyId),

    /**
     * Waits for background memory folds and indexing (tests, benchmarks, shutdown): the folds first,
     * since each schedules the indexing (and embedding) of what it folded; then the ledger rows of
     * the turns' query embeddings.
     */
    idle: async () => {
      await memory.idle();
      await memoryBank.idle();
      await deps.vectors?.idle();
    },
  };
}
export type TurnService = ReturnType<typeof createTurnService>;
