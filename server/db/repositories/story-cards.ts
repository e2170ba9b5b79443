// A story's cards, and the context records of its replies. Cards are read in two steps for a turn:
// their heads (keys and settings, no content) to decide which come up, then the contents of those
// that can fit, so a story of 1,000 long cards is never read whole for one turn. Writes are owner-
// checked by the caller; the story's limits (its cards, and the regular-expression keys they hold
// between them) are counted inside the writing transaction with the story row locked, so writes at
// once (two tabs, a burst of requests) queue on it and each counts the others': none can pass them.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client';
import type { LaterWork, NarratorContext, StoryCardFields } from '@shared/schemas/story-cards';
import { storyCards } from '../schema';
import { executePrepared } from './prepared';
import { inPieces, ROWS_PER_PIECE } from './pieces';
import { assertWithinQuotas, type QuotaCheck } from './quotas';
import { MAX_ID, rows } from './sql-values';

export type CardRow = typeof storyCards.$inferSelect;
/** A card without its content: what matching and the budget need. */
export type CardHead = Omit<CardRow, 'content' | 'createdAt' | 'updatedAt' | 'storyId'>;

/** A card's columns as written: its fields and the content's tokens. */
export type CardValues = StoryCardFields & { tokens: number };

/**
 * The regular-expression keys a story's cards may hold between them: `max`, counted by `of` (what a
 * key must look like to be one is the story domain's rule, handed down).
 */
export interface RegexKeyLimit {
  max: number;
  of: (card: { keys: string[]; secondaryKeys: string[] }) => number;
}

/** Why a write of cards was refused, nothing written: the story would pass a limit, or it went meanwhile. */
export type CardsRefusal = 'tooManyCards' | 'tooManyRegexKeys' | 'storyGone';

/**
 * Inside the writing transaction, with the story row locked: whether the story's other cards (all
 * but `except`) and `adding` more would hold more regular-expression keys than the limit allows.
 * A write that adds none cannot pass it, and is not counted.
 */
async function passesRegexKeys(
  tx: Pick<Db, 'execute'>,
  storyId: number,
  except: number,
  adding: number,
  limit: RegexKeyLimit | undefined,
): Promise<boolean> {
  if (!limit || adding === 0) return false;
  // Only cards that may hold one are read (such a key starts with '/'); `of` counts them exactly.
  const held = await rows<{ keys: string[]; secondaryKeys: string[] }>(
    tx,
    sql`select keys, secondary_keys as "secondaryKeys" from story_cards
        where story_id = ${storyId} and id <> ${except}
          and (keys::text like '%"/%' or secondary_keys::text like '%"/%')`,
  );
  return held.reduce((sum, card) => sum + limit.of(card), adding) > limit.max;
}

/** A piece's refusal, thrown out of its transaction (which rolls back) to the add that answers it. */
class Refused extends Error {
  constructor(readonly refusal: CardsRefusal) {
    super(refusal);
  }
}

/** A card's text, as a piece of an add is measured. */
const cardBytes = (card: CardValues) => card.name.length + card.content.length;

/** A reply's context record, and the cards it turned on (saved with the reply: stories.saveReply). */
export interface ReplyContext {
  keyed: number[];
  on: number[];
  record: NarratorContext;
}

/** One earlier reply's cards, for sticky, cooldown and delay (see narratorContexts). */
/**
 * A paid call a reply set off (its fold, its picture, the picture's style sheet), as the ledger has
 * it: unpriced, its createdAt as json_build_object writes a timestamptz (ISO 8601 with the offset).
 */
export type LaterWorkRow = Omit<LaterWork, 'costUsd'>;
/** At most this many are listed with a reply (a fold, a compaction, a picture, its style sheet, pictures painted again). */
const LATER_WORK_MAX = 20;

export interface CardHistoryRow {
  /** The reply and the version of it shown, whose record this is. */
  messageId: number;
  version: number;
  turn: number;
  keyed: number[];
  on: number[];
}

/** A card's head as one row's JSON array, in this order (the story_card_heads statement builds it). */
type HeadArray = [
  id: number,
  name: string,
  keys: string[],
  secondaryKeys: string[],
  secondaryLogic: CardHead['secondaryLogic'],
  tokens: number,
  alwaysOn: boolean,
  enabled: boolean,
  priority: number,
  caseSensitive: boolean,
  wholeWords: boolean,
  scanDepth: number,
  recursive: boolean,
  sticky: number,
  cooldown: number,
  delay: number,
];

function headOf(json: string): CardHead {
  const h = JSON.parse(json) as HeadArray;
  return {
    id: h[0],
    name: h[1],
    keys: h[2],
    secondaryKeys: h[3],
    secondaryLogic: h[4],
    tokens: h[5],
    alwaysOn: h[6],
    enabled: h[7],
    priority: h[8],
    caseSensitive: h[9],
    wholeWords: h[10],
    scanDepth: h[11],
    recursive: h[12],
    sticky: h[13],
    cooldown: h[14],
    delay: h[15],
  };
}

/** A branch starts with its story's cards, copied as they are now (inside the branch's last transaction). */
export async function copyStoryCards(runner: Pick<Db, 'execute'>, fromStoryId: number, toStoryId: number, now: string) {
  await runner.execute(sql`
    insert into story_cards (story_id, name, keys, secondary_keys, secondary_logic, content, tokens, always_on, enabled,
      priority, case_sensitive, whole_words, scan_depth, recursive, sticky, cooldown, delay, created_at, updated_at)
    select ${toStoryId}, name, keys, secondary_keys, secondary_logic, content, tokens, always_on, enabled,
      priority, case_sensitive, whole_words, scan_depth, recursive, sticky, cooldown, delay, ${now}::timestamptz, ${now}::timestamptz
    from story_cards where story_id = ${fromStoryId} order by id`);
}

export function createStoryCardsRepository(db: Db) {
  /** Takes back the cards an add wrote before it was refused or failed, a piece at a time. */
  async function removeCards(storyId: number, ids: number[]): Promise<void> {
    for (let start = 0; start < ids.length; start += ROWS_PER_PIECE) {
      const piece = sql.param(ids.slice(start, start + ROWS_PER_PIECE));
      await db.execute(sql`delete from story_cards where story_id = ${storyId} and id = any(${piece}::int[])`);
    }
  }

  return {
    /** Every card of the story, oldest first (the caller checked the owner). */
    list(storyId: number): Promise<CardRow[]> {
      return db.select().from(storyCards).where(eq(storyCards.storyId, storyId)).orderBy(asc(storyCards.id));
    },

    /**
     * Every card's head, for a turn, oldest first. Each row comes as one JSON array rather than 16
     * columns: at 1,000 cards on PGlite the columns took about 10 ms of this thread to parse and map
     * (node-postgres and Drizzle, per field), the JSON about 3 (docs/benchmarks.md, bench:cards).
     */
    async heads(storyId: number): Promise<CardHead[]> {
      const found = await executePrepared<{ head: string }>(
        db,
        'story_card_heads',
        sql`select json_build_array(id, name, keys, secondary_keys, secondary_logic, tokens, always_on, enabled, priority,
              case_sensitive, whole_words, scan_depth, recursive, sticky, cooldown, delay)::text as head
            from story_cards where story_id = ${storyId} order by id`,
      );
      return found.map((row) => headOf(row.head));
    },

    /** The contents of these cards of the story. */
    async contents(storyId: number, ids: number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const found = await db
        .select({ id: storyCards.id, content: storyCards.content })
        .from(storyCards)
        .where(and(eq(storyCards.storyId, storyId), inArray(storyCards.id, ids)));
      return new Map(found.map((r) => [r.id, r.content]));
    },

    async get(storyId: number, cardId: number): Promise<CardRow | null> {
      if (cardId > MAX_ID) return null;
      const [row] = await db
        .select()
        .from(storyCards)
        .where(and(eq(storyCards.storyId, storyId), eq(storyCards.id, cardId)));
      return row ?? null;
    },

    /**
     * Adds cards unless the story would then hold more than `maxCards` of them or more
     * regular-expression keys than `regexKeys` allows (the refusal, nothing added; 'storyGone' when
     * the story went meanwhile). Throws QuotaExceeded (nothing added) past the owner's stored text.
     * Written in pieces (pieces.ts), each its own short transaction with the story row locked: a
     * file of a thousand long cards in one transaction held the embedded database's one session
     * for 300-500 ms, every other player's query waiting. The first piece checks the whole add, so
     * a file past a limit is refused before anything is written; each later one checks again what
     * it adds (another write may have come between), and a refusal or failure takes back the
     * pieces already written. So the add lands whole or not at all; only a process dying half-way
     * leaves the cards written so far. Returns the new rows in the given order.
     */
    async add(
      owner: { userId: number; storyId: number },
      cards: CardValues[],
      now: Date,
      limits: { maxCards: number; quotas: QuotaCheck; regexKeys?: RegexKeyLimit },
    ): Promise<CardRow[] | CardsRefusal> {
      const { storyId } = owner;
      const { regexKeys } = limits;
      const regexKeysIn = (list: CardValues[]) =>
        regexKeys ? list.reduce((sum, card) => sum + regexKeys.of(card), 0) : 0;
      const written: CardRow[] = [];
      try {
        await inPieces(db, cards, cardBytes, async (tx, piece) => {
          const [story] = await rows<{ id: number }>(tx, sql`select id from stories where id = ${storyId} for update`);
          if (!story) throw new Refused('storyGone');
          const checked = written.length === 0 ? cards : piece;
          const [{ count }] = await rows<{ count: number }>(
            tx,
            sql`select count(*)::int as count from story_cards where story_id = ${storyId}`,
          );
          if (count + checked.length > limits.maxCards) throw new Refused('tooManyCards');
          if (await passesRegexKeys(tx, storyId, 0, regexKeysIn(checked), regexKeys))
            throw new Refused('tooManyRegexKeys');
          const inserted = await tx
            .insert(storyCards)
            .values(piece.map((card) => ({ ...card, storyId, createdAt: now, updatedAt: now })))
            .returning();
          await assertWithinQuotas(tx, owner.userId, limits.quotas);
          written.push(...inserted);
        });
      } catch (error) {
        await removeCards(
          storyId,
          written.map((row) => row.id),
        );
        if (error instanceof Refused) return error.refusal;
        throw error;
      }
      return written.sort((a, b) => a.id - b.id);
    },

    /**
     * Rewrites a card unless the story's cards would then hold more regular-expression keys than
     * `regexKeys` allows ('tooManyRegexKeys', nothing changed); null when the story has no such card.
     * Throws QuotaExceeded (nothing changed) when it takes the owner past their stored text.
     */
    async update(
      owner: { userId: number; storyId: number },
      cardId: number,
      card: CardValues,
      now: Date,
      limits: { quotas: QuotaCheck; regexKeys?: RegexKeyLimit },
    ): Promise<CardRow | 'tooManyRegexKeys' | null> {
      if (cardId > MAX_ID) return null;
      return db.transaction(async (tx): Promise<CardRow | 'tooManyRegexKeys' | null> => {
        // Locked as an add locks it: edits and adds at once count each other's keys.
        await tx.execute(sql`select id from stories where id = ${owner.storyId} for update`);
        const adding = limits.regexKeys?.of(card) ?? 0;
        if (await passesRegexKeys(tx, owner.storyId, cardId, adding, limits.regexKeys)) return 'tooManyRegexKeys';
        const [row] = await tx
          .update(storyCards)
          .set({ ...card, updatedAt: now })
          .where(and(eq(storyCards.storyId, owner.storyId), eq(storyCards.id, cardId)))
          .returning();
        if (row) await assertWithinQuotas(tx, owner.userId, limits.quotas);
        return row ?? null;
      });
    },

    async remove(storyId: number, cardId: number): Promise<boolean> {
      if (cardId > MAX_ID) return false;
      const gone = await db
        .delete(storyCards)
        .where(and(eq(storyCards.storyId, storyId), eq(storyCards.id, cardId)))
        .returning({ id: storyCards.id });
      return gone.length > 0;
    },

    /**
     * The record of a reply of the owner's story: of `version`, else of the version shown. 'missing'
     * when the message is not a reply of that story (or not theirs), 'none' when no record was kept.
     */
    async context(
      userId: number,
      storyId: number,
      messageId: number,
      version?: number,
    ): Promise<{ record: NarratorContext; laterWork: LaterWorkRow[] } | 'missing' | 'none'> {
      if (storyId > MAX_ID || messageId > MAX_ID || (version ?? 0) > MAX_ID) return 'missing';
      const [row] = await rows<{
        version: number;
        versions: number;
        record: NarratorContext | null;
        later: LaterWorkRow[];
      }>(
        db,
        // The ledger rows the reply set off, by the partial index on message_id: a handful, capped.
        sql`select m.version, m.versions, c.record,
              (select coalesce(json_agg(json_build_object('kind', u.kind, 'inputTokens', u.input_tokens,
                  'cachedInputTokens', u.cached_input_tokens, 'outputTokens', u.output_tokens,
                  'imageTokens', u.image_tokens, 'createdAt', u.created_at) order by u.id), '[]'::json)
               from (select * from usage_events where message_id = m.id and kind in ('summary', 'image', 'style')
                     order by id limit ${LATER_WORK_MAX}) u) as later
            from story_messages m join stories s on s.id = m.story_id
            left join narrator_contexts c on c.message_id = m.id and c.version = coalesce(${version ?? null}::int, m.version)
            where m.id = ${messageId} and m.story_id = ${storyId} and s.user_id = ${userId} and not s.importing
              and m.role = 'assistant' and m.state = 'shown'`,
      );
      if (!row || (version !== undefined && version > row.versions)) return 'missing';
      return row.record ? { record: row.record, laterWork: row.later } : 'none';
    },

    /**
     * The replies whose records a turn's sticky and cooldown read: the newest shown replies with a
     * record before `beforeMessageId`, newest first, as far back as `turns` turns before `turn`
     * (bounded by the look-back the cards ask for, never the story). A few numbers a row: their
     * lists come from the kept records, or recordLists.
     */
    async historyReplies(
      storyId: number,
      beforeMessageId: number,
      turn: number,
      turns: number,
    ): Promise<Array<{ messageId: number; version: number; turn: number }>> {
      const [found] = await executePrepared<{ replies: string }>(
        db,
        'story_card_history_replies',
        sql`select coalesce(json_agg(json_build_array(r.id, r.version, r.turn) order by r.id desc), '[]')::text as replies
            from (select m.id, m.version, m.turn from story_messages m
                  where m.story_id = ${storyId} and m.state = 'shown' and m.role = 'assistant'
                    and m.id < ${beforeMessageId} and m.turn >= ${turn - turns}
                    and exists (select 1 from narrator_contexts c where c.message_id = m.id and c.version = m.version)
                  order by m.id desc limit ${turns}) r`,
      );
      const replies = JSON.parse(found.replies) as Array<[number, number, number]>;
      return replies.map(([messageId, version, at]) => ({ messageId, version, turn: at }));
    },

    /** The lists of these versions of the story's replies' records, by message id (one missing when its record is gone). */
    async recordLists(
      storyId: number,
      replies: Array<{ messageId: number; version: number }>,
    ): Promise<Map<number, { keyed: number[]; on: number[] }>> {
      const ids = `{${replies.map((r) => r.messageId).join(',')}}`;
      const versions = `{${replies.map((r) => r.version).join(',')}}`;
      // As one JSON array a row, as the heads are: 200 rows of a thousand ids each took node-postgres's
      // array parser some 15 ms of this thread, JSON.parse a fraction of it (bench:cards' hostile story).
      const found = await executePrepared<{ row: string }>(
        db,
        'story_card_record_lists',
        sql`select json_build_array(c.message_id, c.keyed, c."on")::text as row
            from unnest(${ids}::int[], ${versions}::int[]) as r(id, version)
            join narrator_contexts c on c.message_id = r.id and c.version = r.version
            join story_messages m on m.id = c.message_id and m.story_id = ${storyId}`,
      );
      return new Map(
        found.map(({ row }) => {
          const [messageId, keyed, on] = JSON.parse(row) as [number, number[], number[]];
          return [messageId, { keyed, on }];
        }),
      );
    },
  };
}
export type StoryCardsRepository = ReturnType<typeof createStoryCardsRepository>;
