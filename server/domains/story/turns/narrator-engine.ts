// Makes what a turn needs of the narrator that writes it (a NarratorEngine, turn-context.ts): its
// provider and settings, the prompt's budget and the window a turn reads, the memory that folds with
// it, the loop guard that asks it again, a story's default settings, and the most a turn may cost.
// The turn service keeps one per narrator, so each story's turns fit the window of the narrator
// writing it.
import { computeBudget } from '@server/ai/llm/context';
import { windowLimits } from '@server/ai/llm/fold';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import type { NarratorProvider } from '@server/ai/llm/types';
import type { LlmConfig } from '@server/kernel/config';
import type { StoryBible } from '../bible';
import { generationDefaults } from '../generation-settings';
import { createLoopGuard } from '../loop-guard';
import { createStoryMemory } from '../memory/folds';
import type { MemoryBank } from '../memory/memory-bank';
import type { NarratorEngine, TurnDeps } from './turn-context';

/** What every narrator's engine shares: the turn service's dependencies and its memory's stores. */
export interface EngineShared {
  deps: TurnDeps;
  memoryBank: MemoryBank;
  storyBible: StoryBible;
  leaseUntil: () => Date;
}

/** Who writes the memory's summaries: the story's narrator, or the operator's narrator for summaries. */
export interface Summarizer {
  provider: NarratorProvider;
  llm: LlmConfig;
}

export function createNarratorEngine(
  { deps, memoryBank, storyBible, leaseUntil }: EngineShared,
  narrator: { id: string; label: string },
  provider: NarratorProvider,
  llm: LlmConfig,
  summarizer: Summarizer = { provider, llm },
): NarratorEngine {
  const { repos } = deps;
  const budget = computeBudget(llm.contextTokens, llm.maxOutputTokens);
  const turnTokens = budget.prompt + llm.maxOutputTokens;
  const memory = createStoryMemory({
    repos,
    provider: summarizer.provider,
    // The folds follow the story's window; a summary request also fits the summarizer's.
    budget,
    contextTokens: Math.min(llm.contextTokens, summarizer.llm.contextTokens),
    allowance: deps.allowance,
    apiKey: summarizer.llm.apiKey,
    now: deps.now,
    flush: deps.flush,
    log: deps.log,
    onFolded: async (storyId, facts, sources) => {
      memoryBank.index(storyId, 'all');
      await storyBible.saveFolded(storyId, facts, sources);
    },
  });
  return {
    narrator: { id: narrator.id, label: narrator.label },
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
