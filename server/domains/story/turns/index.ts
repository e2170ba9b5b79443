// Story turns: start, continue and retry. Each call first does everything that can fail cheaply
// (the player's hourly rate and monthly allowance, with the turn's cost reserved; ownership; the
// one-generation-per-story lease) and commits the player's action,
// then returns a PreparedTurn whose run() calls the provider, streams pieces to an optional
// listener and saves the reply only once it is complete. run() always finishes its work even if
// the listener (a browser) has gone: a disconnect never loses a reply. A finished reply that repeats
// the story is asked for once more before it is saved (loop-guard.ts).
// This door makes once per app what every turn shares (card heads, admission, and the narrator's
// engine: its budget, memory and loop guard, narrator-engine.ts) and hands it to the use cases:
// start-story.ts, continue-story.ts, retry-turn.ts, and write-reply.ts for the run they all end in.
import { BoundedCache } from '@server/kernel/bounded-cache';
import type { CatalogueNarrator } from '@server/kernel/config';
import { createStoryBible } from '../bible';
import { createCardHeads } from '../cards/card-heads';
import { createMemoryBank } from '../memory/memory-bank';
import { createTurnAdmission } from '../turn-admission';
import { continueStory } from './continue-story';
import { createNarratorEngine } from './narrator-engine';
import { retryTurn } from './retry-turn';
import { startStory } from './start-story';
import type { PreparedTurn, TurnContext, TurnDeps } from './turn-context';

export type { PreparedTurn, TurnDeps } from './turn-context';

/** Stories whose narrator is remembered for their next continue (a number and a short id each). */
const STORY_NARRATORS_KEPT = 10_000;
/** A lease outlives the provider timeout, so only a dead process leaves one to expire. */
const LEASE_MARGIN_MS = 60_000;

export function createTurnService(deps: TurnDeps) {
  const { repos, llm } = deps;
  /** The card heads of the stories being played, kept while their cards are unchanged. */
  const cardHeads = createCardHeads(repos);
  /** Every shown message's passages, written after each fold for later turns to recall. */
  const memoryBank = deps.memoryBank ?? createMemoryBank({ repos, log: deps.log });
  const storyBible = deps.storyBible ?? createStoryBible({ repos, now: deps.now, log: deps.log });
  const leaseUntil = () => new Date(deps.now().getTime() + llm.timeoutMs + LEASE_MARGIN_MS);
  const shared = { deps, memoryBank, storyBible, leaseUntil };
  const { narrators } = deps;
  const summarizerOf = (narrator: CatalogueNarrator) => {
    const writer = narrators.forTask('summary', narrator);
    return { provider: narrators.provider(writer), llm: writer.llm };
  };
  const engine = createNarratorEngine(
    shared,
    narrators.defaultNarrator,
    narrators.provider(narrators.defaultNarrator),
    narrators.defaultNarrator.llm,
    summarizerOf(narrators.defaultNarrator),
  );
  /** One engine per narrator, made on its first story's turn; idle() waits on all their folds. */
  const engines = new Map([[narrators.defaultNarrator.id, engine]]);
  /** The narrator of each story played lately: a continue reads its window with that one's limits. */
  const storyNarrators = new BoundedCache<number, string>(STORY_NARRATORS_KEPT);

  const ctx: TurnContext = {
    ...deps,
    cardHeads,
    engine,
    async engineFor(story) {
      const { narrator } = await narrators.ofStory(story);
      storyNarrators.set(story.id, narrator.id);
      let found = engines.get(narrator.id);
      if (!found) {
        found = createNarratorEngine(
          shared,
          narrator,
          narrators.provider(narrator),
          narrator.llm,
          summarizerOf(narrator),
        );
        engines.set(narrator.id, found);
      }
      return found;
    },
    windowFor(storyId) {
      const narrator = storyNarrators.peek(storyId);
      return (narrator === undefined ? engine : (engines.get(narrator) ?? engine)).windowRead;
    },
    leaseUntil,
    admission: createTurnAdmission({ ...deps, provider: engine.provider }, engine.turnTokens, leaseUntil),
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
      await Promise.all([...engines.values()].map((each) => each.memory.idle()));
      await memoryBank.idle();
      await deps.vectors?.idle();
    },
  };
}
export type TurnService = ReturnType<typeof createTurnService>;
