// What a turn needs of the narrator that writes it, made once per narrator: its provider and
// settings, the prompt's budget and the window a turn reads, the memory that folds with it, the loop
// guard that asks it again, a story's default settings, and the most a turn may cost. The turn
// service keeps one per narrator, so each story's turns fit the window of the narrator writing it.
import { computeBudget, type Budget } from '@server/ai/llm/context';
import { windowLimits, type ReadLimits } from '@server/ai/llm/fold';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import type { NarratorProvider } from '@server/ai/llm/types';
import type { LlmConfig } from '@server/kernel/config';
import type { StoryBible } from '../bible';
import { generationDefaults, type GenerationDefaults } from '../generation-settings';
import { createLoopGuard, type LoopGuard } from '../loop-guard';
import { createStoryMemory, type StoryMemory } from '../memory/folds';
import type { MemoryBank } from '../memory/memory-bank';
import type { TurnDeps } from './turn-context';

export interface NarratorEngine {
  provider: NarratorProvider;
  llm: LlmConfig;
  budget: Budget;
  /** A turn reads at most this much of its story: the newest unfolded messages the prompt could hold. */
  windowRead: ReadLimits;
  memory: StoryMemory;
  /** Each finished reply measured against the story's last ones, and asked for once more when it loops. */
  loopGuard: LoopGuard;
  /** A story's temperature when it has none, and the most the narrator accepts. */
  defaults: GenerationDefaults;
  /** The most a turn can cost: a full prompt and a full reply. Reserved before the action is kept; settled by its usage row. */
  turnTokens: number;
}

/** What every narrator's engine shares: the turn service's dependencies and its memory's stores. */
export interface EngineShared {
  deps: TurnDeps;
  memoryBank: MemoryBank;
  storyBible: StoryBible;
  leaseUntil: () => Date;
}

export function createNarratorEngine(
  { deps, memoryBank, storyBible, leaseUntil }: EngineShared,
  provider: NarratorProvider,
  llm: LlmConfig,
): NarratorEngine {
  const { repos } = deps;
  const budget = computeBudget(llm.contextTokens, llm.maxOutputTokens);
  const turnTokens = budget.prompt + llm.maxOutputTokens;
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
  return {
    provider,
    llm,
    budget,
    windowRead: windowLimits(budget),
    memory,
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
    turnTokens,
  };
}
