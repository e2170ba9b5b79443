// The story cards panel's service: list, add, edit, delete, import and export a story's cards, its
// owner's only (another player's story is 404 like a missing one). Every card is checked whole
// before it is written, a PATCH after merging: the shared schema, "keyed or always on", and keys
// that run in linear time (matching.ts). Cards count against the owner's stored text, and a story
// holds at most STORY_MAX_CARDS of them and STORY_REGEX_KEYS_MAX regular-expression keys between
// them, both counted inside the write's transaction (the repository's), so requests at once
// cannot pass them.
import type { Repositories } from '@server/db/repositories';
import type { CardRow, CardsRefusal, CardValues, RegexKeyLimit } from '@server/db/repositories/story-cards';
import type { Prices } from '@server/kernel/config/prices';
import { costUsd } from '@server/kernel/cost';
import { compactObjectWithArray } from '@server/kernel/pretty-json';
import { DomainError, tooManyRequests } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import {
  IMPORT_IGNORED_LISTED_MAX,
  neverSent,
  STORY_CARD_MESSAGES,
  STORY_REGEX_KEYS_MAX,
  storyCardFieldsSchema,
  storyCardSchema,
  type CardExportFormat,
  type IgnoredEntry,
  type NarratorContext,
  type StoryCard,
  type StoryCardFields,
  type StoryCardPatch,
  type StoryCardsImportResponse,
} from '@shared/schemas/story-cards';
import type { QuotaService } from '../../limits/quotas';
import { refusedOverQuota } from '../../limits/quotas';
import type { RequestLimiter } from '../../limits/request-limits';
import { notFound } from '../errors';
import type { ImportReader } from '../files/import-reader';
import { fileSlug } from '../files/story-files';
import { writeCardsFile } from './formats';
import { cardFields, regexKeysOf, withCardTokens } from './card-values';
import { keyProblem } from './regex-keys';

interface StoryCardDeps {
  repos: Repositories;
  /** Reads an imported file off the event loop (files/import-reader.ts). */
  reader: Pick<ImportReader, 'readCards'>;
  now: () => Date;
  maxCards: number;
  quotas: Pick<QuotaService, 'limits'>;
  limiter: Pick<RequestLimiter, 'allow'>;
  /** Prices what a reply set off, as its own cost and the admin's figures are priced. */
  prices: Prices;
}

/** Imports per player and hour: each may be a 5 MB file to read (in the import worker) and cards to write. */
export const CARD_IMPORTS_PER_HOUR = 60;
const importLimit = { bucket: 'card-import-user', max: CARD_IMPORTS_PER_HOUR, windowMs: 3_600_000 };

const badCard = (message: string) => new DomainError('invalid', ERROR_CODES.validation, message);

/** The story's limit on regular-expression keys, as its cards' writes count it. */
const regexKeyLimit: RegexKeyLimit = { max: STORY_REGEX_KEYS_MAX, of: regexKeysOf };

/** A card as the API answers it. */
export function cardJson(row: CardRow): StoryCard {
  const { storyId: _story, createdAt, updatedAt, ...fields } = row;
  return { ...fields, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

/**
 * `{...fields, cards}` as JSON bytes, each card checked against the card's schema (as the route's
 * response schema would check it) and written a run at a time, the event loop turning between runs
 * (compactObjectWithArray): made in one go, the answer of an import of a thousand 5 KB cards held it
 * about 75 ms, and a story's list of them does as much.
 */
function cardsAnswer(fields: Record<string, unknown>, rows: CardRow[]): Promise<Buffer> {
  function* checked() {
    for (const row of rows) yield JSON.stringify(storyCardSchema.parse(cardJson(row)));
  }
  return compactObjectWithArray(fields, 'cards', checked());
}

/**
 * Why a whole card cannot be kept beside `otherRegexKeys` of the story's other cards; null when it
 * can. The count comes before any key is compiled, so a file of thousands of patterns costs nothing.
 */
export function cardProblem(card: StoryCardFields, otherRegexKeys: number): string | null {
  if (neverSent(card)) return STORY_CARD_MESSAGES.neverSent;
  if (otherRegexKeys + regexKeysOf(card) > STORY_REGEX_KEYS_MAX) return STORY_CARD_MESSAGES.tooManyRegexKeys;
  return keyProblem(card);
}

/** The regular-expression keys of these cards, but `except`'s. */
const regexKeysIn = (cards: Array<{ id: number; keys: string[]; secondaryKeys: string[] }>, except?: number) =>
  cards.reduce((sum, card) => sum + (card.id === except ? 0 : regexKeysOf(card)), 0);

export function createStoryCardService({ repos, reader, now, maxCards, quotas, limiter, prices }: StoryCardDeps) {
  async function owned(userId: number, storyId: number) {
    const story = await repos.stories.findOwned(storyId, userId);
    if (!story) throw notFound();
    return story;
  }

  const refused = (refusal: CardsRefusal) =>
    refusal === 'storyGone'
      ? notFound()
      : refusal === 'tooManyCards'
        ? new DomainError('limited', ERROR_CODES.quotaExceeded, STORY_CARD_MESSAGES.tooManyCards(maxCards))
        : badCard(STORY_CARD_MESSAGES.tooManyRegexKeys);

  /** Writes cards whose tokens are counted (withCardTokens, or the import worker). */
  async function add(userId: number, storyId: number, cards: CardValues[]): Promise<CardRow[]> {
    const { maxStoredBytes } = quotas.limits;
    const added = await refusedOverQuota(quotas.limits, async () =>
      repos.storyCards.add({ userId, storyId }, cards, now(), {
        maxCards,
        quotas: { maxStoredBytes },
        regexKeys: regexKeyLimit,
      }),
    );
    if (typeof added === 'string') throw refused(added);
    return added;
  }

  return {
    /** The story's cards, as the JSON bytes of `{cards}` (cardsAnswer). */
    async list(userId: number, storyId: number): Promise<Buffer> {
      await owned(userId, storyId);
      return cardsAnswer({}, await repos.storyCards.list(storyId));
    },

    async create(userId: number, storyId: number, card: StoryCardFields): Promise<StoryCard> {
      await owned(userId, storyId);
      // The story's other keys are counted where the card is written.
      const problem = cardProblem(card, 0);
      if (problem) throw badCard(problem);
      const [row] = await add(userId, storyId, await withCardTokens([card]));
      return cardJson(row);
    },

    async edit(userId: number, storyId: number, cardId: number, patch: StoryCardPatch): Promise<StoryCard> {
      await owned(userId, storyId);
      const current = await repos.storyCards.get(storyId, cardId);
      if (!current) throw new DomainError('notFound', ERROR_CODES.notFound, STORY_CARD_MESSAGES.cardNotFound);
      const { id: _id, storyId: _story, tokens: _tokens, createdAt: _c, updatedAt: _u, ...fields } = current;
      const merged = storyCardFieldsSchema.safeParse({ ...fields, ...patch });
      if (!merged.success) throw badCard(merged.error.issues[0]?.message ?? STORY_CARD_MESSAGES.neverSent);
      const problem = cardProblem(merged.data, 0);
      if (problem) throw badCard(problem);
      const [values] = await withCardTokens([merged.data]);
      const row = await refusedOverQuota(quotas.limits, () =>
        repos.storyCards.update({ userId, storyId }, cardId, values, now(), {
          quotas: { maxStoredBytes: quotas.limits.maxStoredBytes },
          regexKeys: regexKeyLimit,
        }),
      );
      if (row === 'tooManyRegexKeys') throw refused(row);
      if (!row) throw new DomainError('notFound', ERROR_CODES.notFound, STORY_CARD_MESSAGES.cardNotFound);
      return cardJson(row);
    },

    async remove(userId: number, storyId: number, cardId: number): Promise<void> {
      await owned(userId, storyId);
      if (!(await repos.storyCards.remove(storyId, cardId)))
        throw new DomainError('notFound', ERROR_CODES.notFound, STORY_CARD_MESSAGES.cardNotFound);
    },

    /** A lorebook file's cards added to the story: all the usable ones, or none (past a limit); the rest listed as ignored. */
    async importFile(userId: number, storyId: number, bytes: Uint8Array): Promise<Buffer> {
      await owned(userId, storyId);
      if (!(await limiter.allow(importLimit, String(userId))))
        throw tooManyRequests(STORY_CARD_MESSAGES.tooManyImports, 3600);
      const file = await reader.readCards(bytes, maxCards);
      if (!file.ok) throw badCard(file.message);
      const { read, tokens } = file;
      // Past the story's room, nothing of the file is checked further (a file may hold thousands of entries).
      const heads = await repos.storyCards.heads(storyId);
      const room = maxCards - heads.length;
      if (read.cards.length > room)
        throw new DomainError('limited', ERROR_CODES.quotaExceeded, STORY_CARD_MESSAGES.tooManyCards(maxCards));
      const usable: CardValues[] = [];
      const ignored: IgnoredEntry[] = [...read.ignored];
      let regexKeys = regexKeysIn(heads);
      read.cards.forEach((card, index) => {
        const problem = cardProblem(card, regexKeys);
        if (problem) ignored.push({ entry: card.name, reason: problem });
        else {
          usable.push({ ...card, tokens: tokens[index] });
          regexKeys += regexKeysOf(card);
        }
      });
      if (usable.length === 0) throw badCard(STORY_CARD_MESSAGES.importEmpty);
      const rows = await add(userId, storyId, usable);
      const answer: Omit<StoryCardsImportResponse, 'cards'> = {
        imported: rows.length,
        ignored: ignored.slice(0, IMPORT_IGNORED_LISTED_MAX),
        ignoredCount: ignored.length,
      };
      return cardsAnswer(answer, rows);
    },

    /** The story's cards as a file of that format. */
    async exportFile(userId: number, storyId: number, format: CardExportFormat) {
      const story = await owned(userId, storyId);
      const cards = (await repos.storyCards.list(storyId)).map(cardFields);
      const file = writeCardsFile(cards, format);
      return {
        filename: `${fileSlug(story.title ?? 'story')}-cards${file.extension}`,
        contentType: 'application/json; charset=utf-8',
        body: file.text,
      };
    },

    /** What the narrator was sent for a reply (the version shown, or `version`). */
    async context(userId: number, storyId: number, messageId: number, version?: number): Promise<NarratorContext> {
      const found = await repos.storyCards.context(userId, storyId, messageId, version);
      if (found === 'missing') throw notFound();
      if (found === 'none') throw new DomainError('notFound', ERROR_CODES.notFound, STORY_CARD_MESSAGES.contextMissing);
      // Priced now, by the same function as the reply's own cost and the admin's figures.
      const laterWork = found.laterWork.map((row) => ({
        ...row,
        createdAt: new Date(row.createdAt).toISOString(),
        costUsd: costUsd(
          {
            input: row.inputTokens,
            cachedInput: row.cachedInputTokens,
            output: row.outputTokens,
            image: row.imageTokens,
          },
          prices,
        ),
      }));
      return laterWork.length > 0 ? { ...found.record, laterWork } : found.record;
    },
  };
}
export type StoryCardService = ReturnType<typeof createStoryCardService>;
