// A turn's card history answered from the kept records on a real database: the same rows the
// database gives, none asked for while the turn's window holds the replies and their records are
// kept, and the database asked again whenever the window cannot vouch for them (a reply shown in
// another version, a window too short, records not kept).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@server/db/client';
import { createRepositories, type Repositories } from '@server/db/repositories';
import type { CardHistoryRow } from '@server/db/repositories/story-cards';
import { openTestDatabase } from '@server/test/test-app';
import { createCardHeads, type CardHeads } from './card-heads';
import { recentCardHistory } from './card-history';

let database: Database;
let repos: Repositories;
let userId: number;
beforeAll(async () => {
  database = await openTestDatabase();
  repos = createRepositories(database.db);
  userId = (
    await repos.users.insert({
      username: 'card-history',
      email: 'card-history@example.com',
      passwordHash: 'x',
      isAdmin: false,
    })
  ).id;
});
afterAll(() => database.close());

const NOW = new Date('2026-12-01T12:00:00Z');
const RECORD = { blocks: [], promptTokens: 0, outputTokens: 0, windowTokens: 0, cardBudgetTokens: 0 };
const WINDOW = { rows: 1000, bytes: 1_000_000 };

/** A story of `turns` played turns, reply t's record listing card t keyed and cards t and t + 100 on; answers its next action. */
async function playedStory(turns: number) {
  const { story } = await repos.stories.create({ userId, premise: 'A harbour at dusk', now: NOW, leaseUntil: NOW });
  await repos.stories.releaseLease(story.id);
  for (let turn = 1; turn <= turns; turn += 1) {
    await repos.stories.appendAction(story.id, `I walk the pier (${turn}).`, NOW);
    await repos.stories.saveReply({
      storyId: story.id,
      turn,
      content: `The tide turns (${turn}).`,
      alternativeTo: null,
      usage: null,
      now: NOW,
      context: { keyed: [turn], on: [turn, turn + 100], record: RECORD },
    });
  }
  const action = await repos.stories.appendAction(story.id, 'I wait.', NOW);
  return { storyId: story.id, action };
}

/** The story's repositories, counting the history's reads: the replies named, and the record lists read. */
function counting() {
  const reads = { count: 0, lists: 0 };
  const { historyReplies, recordLists } = repos.storyCards;
  const counted: Pick<Repositories, 'storyCards'> = {
    storyCards: {
      ...repos.storyCards,
      historyReplies: (...args) => {
        reads.count += 1;
        return historyReplies(...args);
      },
      recordLists: (storyId, replies) => {
        reads.lists += replies.length;
        return recordLists(storyId, replies);
      },
    },
  };
  return { reads, repos: counted };
}

async function ask(storyId: number, actionId: number, turn: number, turns: number, cardHeads: CardHeads) {
  const { reads, repos: counted } = counting();
  const window = await repos.stories.recentUnfolded(storyId, 0, actionId, WINDOW);
  const rows = await recentCardHistory(counted, cardHeads, { storyId, actionId, turn, turns, window: window.messages });
  return { rows, reads: reads.count, lists: reads.lists };
}

const turnsOf = (rows: CardHistoryRow[]) => rows.map((row) => row.turn);

/** The rows as the database holds them, in one query of their own: what the kept answers are held to. */
async function fromDatabase(storyId: number, beforeMessageId: number, turn: number, turns: number) {
  const { rows } = await database.executeSql(
    `select m.id as "messageId", m.version, m.turn, c.keyed, c."on"
     from story_messages m join narrator_contexts c on c.message_id = m.id and c.version = m.version
     where m.story_id = $1 and m.state = 'shown' and m.role = 'assistant' and m.id < $2 and m.turn >= $3
     order by m.id desc limit $4`,
    [storyId, beforeMessageId, turn - turns, turns],
  );
  return rows as CardHistoryRow[];
}

describe('recentCardHistory', () => {
  it('answers what the database does, and asks it nothing once the records are kept', async () => {
    const { storyId, action } = await playedStory(8);
    const held = await fromDatabase(storyId, action.id, 9, 4);
    const cardHeads = createCardHeads(repos);

    const first = await ask(storyId, action.id, 9, 4, cardHeads);
    expect(first).toMatchObject({ reads: 1, lists: 4 });
    expect(first.rows).toEqual(held);
    const second = await ask(storyId, action.id, 9, 4, cardHeads);
    expect(second).toMatchObject({ reads: 0, lists: 0 });
    expect(second.rows).toEqual(held);
    expect(turnsOf(second.rows)).toEqual([8, 7, 6, 5]);
    expect(second.rows[0]).toMatchObject({ keyed: [8], on: [8, 108] });
  });

  it('uses a record the turn remembered as written, as the turn service does after saving a reply', async () => {
    const { storyId, action } = await playedStory(3);
    const cardHeads = createCardHeads(repos);
    await ask(storyId, action.id, 4, 3, cardHeads);
    // The reply to the action, saved with its record and remembered: the next turn asks nothing.
    const reply = await repos.stories.saveReply({
      storyId,
      turn: 4,
      content: 'Gulls settle on the rail.',
      alternativeTo: null,
      usage: null,
      now: NOW,
      context: { keyed: [4], on: [4, 104], record: RECORD },
    });
    cardHeads.rememberRecord(reply.id, reply.version, { keyed: [4], on: [4, 104] });
    const next = await repos.stories.appendAction(storyId, 'I sit down.', NOW);
    const kept = await ask(storyId, next.id, 5, 3, cardHeads);
    expect(kept.reads).toBe(0);
    expect(kept.rows).toEqual(await fromDatabase(storyId, next.id, 5, 3));
  });

  it('asks the database when a reply is shown in a version whose record is not kept', async () => {
    const { storyId, action } = await playedStory(5);
    const cardHeads = createCardHeads(repos);
    await ask(storyId, action.id, 6, 4, cardHeads);
    // The newest reply written again (an alternative, with a record of its own), which another
    // instance might have done: the kept version 1 no longer says what is shown.
    const window = await repos.stories.recentUnfolded(storyId, 0, action.id, WINDOW);
    const newest = window.messages.at(-1)!;
    await repos.stories.saveReply({
      storyId,
      turn: 5,
      content: 'The tide turns, slower.',
      alternativeTo: newest.id,
      usage: null,
      now: NOW,
      context: { keyed: [55], on: [55], record: RECORD },
    });
    const again = await ask(storyId, action.id, 6, 4, cardHeads);
    // The replies named again, and only the new version's lists read: the other three are kept.
    expect(again).toMatchObject({ reads: 1, lists: 1 });
    expect(again.rows[0]).toMatchObject({ messageId: newest.id, version: 2, keyed: [55], on: [55] });
    expect(again.rows).toEqual(await fromDatabase(storyId, action.id, 6, 4));
  });

  it('asks the database when the window holds fewer replies than the turns asked', async () => {
    const { storyId, action } = await playedStory(6);
    const cardHeads = createCardHeads(repos);
    await ask(storyId, action.id, 7, 4, cardHeads);
    const { reads, repos: counted } = counting();
    // A window of the newest four messages: two replies, where four are asked for.
    const short = await repos.stories.recentUnfolded(storyId, 0, action.id, { rows: 4, bytes: 1_000_000 });
    const rows = await recentCardHistory(counted, cardHeads, {
      storyId,
      actionId: action.id,
      turn: 7,
      turns: 4,
      window: short.messages,
    });
    expect(short.messages.filter((m) => m.role === 'assistant')).toHaveLength(2);
    // The replies named; their lists all kept from the first ask.
    expect(reads).toEqual({ count: 1, lists: 0 });
    expect(turnsOf(rows)).toEqual([6, 5, 4, 3]);
    expect(rows).toEqual(await fromDatabase(storyId, action.id, 7, 4));
  });

  it('keeps no more card ids than its bound, the oldest records dropped first', async () => {
    const cardHeads = createCardHeads(repos);
    const ids = Array.from({ length: 600_000 }, (_, i) => i);
    for (let message = 1; message <= 5; message += 1) cardHeads.rememberRecord(message, 1, { keyed: [], on: ids });
    expect(cardHeads.stats().recordIds).toBeLessThanOrEqual(2_000_000);
    expect(cardHeads.recordOf(1, 1)).toBeUndefined();
    expect(cardHeads.recordOf(5, 1)?.on).toHaveLength(600_000);
    expect(cardHeads.recordOf(5, 2)).toBeUndefined();
  });
});
