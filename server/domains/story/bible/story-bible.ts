// The story bible's service: the facts a fold's answer states (saved after the fold lands, off the
// turn's critical path), a turn's facts for its prompt, and the player's bible in the memory panel:
// read, pin, edit and delete, and 'Suggest cards'. The player's calls are the owner's only (another
// player's story is 404 like a missing one); a change counts from the next turn.
import type { FactInput } from '@server/ai/llm/summary-answer';
import type { Repositories } from '@server/db/repositories';
import type { StoredFact } from '@server/db/repositories/story-bible';
import { MAX_ID } from '@server/db/repositories/sql-values';
import { DomainError } from '@server/kernel/errors';
import type { Log } from '@server/kernel/log';
import { ERROR_CODES } from '@shared/schemas/common';
import {
  BIBLE_PINNED_MAX,
  STORY_BIBLE_MAX_FACTS,
  STORY_BIBLE_MESSAGES,
  type BibleFact,
  type BibleFactPatch,
} from '@shared/schemas/story-bible';
import type { StoryCardFields } from '@shared/schemas/story-cards';
import { notFound } from '../errors';
import { termsOf } from '../memory/terms';
import { factsFromFold, type FoldSource } from './from-fold';
import { lineThrough, withHistory, type BibleEntry } from './history';
import { entityGroups, suggestCards } from './suggest-cards';

interface StoryBibleDeps {
  repos: Pick<Repositories, 'stories' | 'storyBible' | 'storyCards' | 'memoryBank'>;
  now: () => Date;
  log: Log;
}

const factNotFound = () => new DomainError('notFound', ERROR_CODES.notFound, STORY_BIBLE_MESSAGES.factNotFound);

export function factJson(entry: BibleEntry): BibleFact {
  const { id, entity, attribute, value, turn, pinned, supersedes } = entry;
  return { id, entity, attribute, value, turn, pinned, supersedes };
}

export function createStoryBible({ repos, now, log }: StoryBibleDeps) {
  async function owned(userId: number, storyId: number) {
    const story = await repos.stories.findOwned(storyId, userId);
    if (!story) throw notFound();
    return story;
  }

  const entries = async (storyId: number): Promise<BibleEntry[]> => withHistory(await repos.storyBible.shown(storyId));

  async function shownFact(storyId: number, factId: number): Promise<{ all: BibleEntry[]; fact: BibleEntry }> {
    const all = factId > MAX_ID ? [] : await entries(storyId);
    const fact = all.find((e) => e.id === factId);
    if (!fact) throw factNotFound();
    return { all, fact };
  }

  return {
    /** Every fact the story shows, current and history, oldest turn first. */
    async list(userId: number, storyId: number): Promise<BibleFact[]> {
      await owned(userId, storyId);
      return (await entries(storyId)).map(factJson);
    },

    async edit(userId: number, storyId: number, factId: number, patch: BibleFactPatch): Promise<BibleFact> {
      await owned(userId, storyId);
      const { all, fact } = await shownFact(storyId, factId);
      if (patch.pinned && !fact.pinned && all.filter((e) => e.current && e.pinned).length >= BIBLE_PINNED_MAX)
        throw new DomainError('invalid', ERROR_CODES.validation, STORY_BIBLE_MESSAGES.tooManyPinned);
      await repos.storyBible.change(storyId, factId, patch);
      const after = withHistory(all.map((e): StoredFact => (e.id === factId ? { ...e, ...patch } : e)));
      return factJson(after.find((e) => e.id === factId)!);
    },

    /** Deletes a fact and its history (the older values it replaced). */
    async remove(userId: number, storyId: number, factId: number): Promise<void> {
      await owned(userId, storyId);
      const { all } = await shownFact(storyId, factId);
      await repos.storyBible.remove(storyId, lineThrough(all, factId));
    },

    async suggestCards(userId: number, storyId: number): Promise<StoryCardFields[]> {
      await owned(userId, storyId);
      const groups = entityGroups(await entries(storyId));
      const nameTerms = new Map(groups.map((g) => [g.key, g.name ? termsOf(g.name) : []]));
      const terms = [...new Set([...nameTerms.values()].flat())];
      const holding: Record<string, number> =
        terms.length > 0 ? (await repos.memoryBank.termStats(storyId, terms)).holding : {};
      const mentions = (key: string) => {
        const counts = (nameTerms.get(key) ?? []).map((t) => holding[t] ?? 0);
        return counts.length > 0 ? Math.min(...counts) : 0;
      };
      const cards = await repos.storyCards.heads(storyId);
      return suggestCards(groups, (g) => mentions(g.key), cards);
    },

    /** The facts the story shows, with their history (a turn's prompt picks from them). */
    entries,

    /**
     * Saves the facts a fold's answer stated, tied to the piece's messages (`sources`). Called once
     * the fold has landed, so a fold that lost a race adds nothing. A failure is logged: the facts
     * of one fold are worth less than the fold.
     */
    async saveFolded(storyId: number, facts: FactInput[], sources: FoldSource[]): Promise<void> {
      if (facts.length === 0) return;
      try {
        const added = factsFromFold(facts, sources, await entries(storyId));
        await repos.storyBible.add(storyId, added, now(), STORY_BIBLE_MAX_FACTS);
      } catch (error) {
        log.warn({ storyId, error: String(error) }, 'story bible: the facts of a fold were not saved');
      }
    },
  };
}
export type StoryBible = ReturnType<typeof createStoryBible>;
