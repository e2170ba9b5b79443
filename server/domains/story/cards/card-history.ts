// The history a turn's sticky and cooldown read: the records of the newest shown replies before the
// action (the replies storyCards.historyReplies names). When the turn's window holds those replies and their
// records are kept (card-heads.ts: each turn keeps the one it wrote, each read the ones it found),
// they are answered from there, as the database would answer them. Else the database names the
// replies (a few numbers each) and only the lists not kept are read: a story whose cards look 200
// turns back read 200 records of up to 1,000 ids on every turn, its main cost (bench:cards).
import type { Repositories } from '@server/db/repositories';
import type { CardHistoryRow } from '@server/db/repositories/story-cards';
import type { CardHeads, KeptRecord } from './card-heads';

/** A message of the turn's window, oldest first: what says which version of a reply is shown. */
export interface WindowMessage {
  id: number;
  role: 'user' | 'assistant';
  turn: number;
  version: number;
}

export interface CardHistoryAsk {
  storyId: number;
  actionId: number;
  turn: number;
  /** Rows wanted at most (historyTurnsNeeded), each a reply of turn `turn - turns` or later. */
  turns: number;
  /** The newest shown messages before the action, oldest first, with none left out between them and it. */
  window: WindowMessage[];
}

/** The replies of the window the database's rows are chosen from, newest first. */
function eligible(ask: CardHistoryAsk): WindowMessage[] {
  const from = ask.turn - ask.turns;
  const out: WindowMessage[] = [];
  for (let at = ask.window.length - 1; at >= 0; at--) {
    const message = ask.window[at];
    if (message.role === 'assistant' && message.id < ask.actionId && message.turn >= from) out.push(message);
  }
  return out;
}

/**
 * The rows the database would answer, from the kept records: the `turns` newest eligible replies
 * of the window. Null when the window does not hold that many (older replies, out of the window,
 * could be among them) or one of them is not kept (it may have no record).
 */
function fromKept(cardHeads: CardHeads, ask: CardHistoryAsk, replies: WindowMessage[]): CardHistoryRow[] | null {
  if (replies.length < ask.turns) return null;
  const rows: CardHistoryRow[] = [];
  for (const reply of replies.slice(0, ask.turns)) {
    const record = cardHeads.recordOf(reply.id, reply.version);
    if (!record) return null;
    rows.push({ messageId: reply.id, version: reply.version, turn: reply.turn, ...record });
  }
  return rows;
}

export async function recentCardHistory(
  repos: Pick<Repositories, 'storyCards'>,
  cardHeads: CardHeads,
  ask: CardHistoryAsk,
): Promise<CardHistoryRow[]> {
  const answered = fromKept(cardHeads, ask, eligible(ask));
  if (answered) return answered;
  // Which replies, from the database; their lists from the kept records where held, the rest read.
  const replies = await repos.storyCards.historyReplies(ask.storyId, ask.actionId, ask.turn, ask.turns);
  const kept = replies.map((reply) => cardHeads.recordOf(reply.messageId, reply.version));
  const missing = replies.filter((_, at) => !kept[at]);
  const read =
    missing.length > 0 ? await repos.storyCards.recordLists(ask.storyId, missing) : new Map<number, KeptRecord>();
  const rows: CardHistoryRow[] = [];
  for (const [at, reply] of replies.entries()) {
    let record = kept[at];
    if (!record) {
      const lists = read.get(reply.messageId);
      // Gone since the first read (the reply erased meanwhile): the line changed, and it is not on it.
      if (!lists) continue;
      // Each list read once, for the cache and the turn alike.
      record = { keyed: lists.keyed, on: lists.on };
      cardHeads.rememberRecord(reply.messageId, reply.version, record);
    }
    rows.push({ ...reply, keyed: record.keyed, on: record.on });
  }
  return rows;
}
