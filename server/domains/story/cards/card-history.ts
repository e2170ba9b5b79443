// The history a turn's sticky and cooldown read: the records of the newest shown replies before the
// action (storyCards.cardHistory's rows). When the turn's window holds those replies and their
// records are kept (card-heads.ts: each turn keeps the one it wrote, each read the ones it found),
// they are answered from there, as the database would answer them; else the database is asked. On
// the hostile story of bench:cards that read was most of a turn's wait at p99: another thread
// answers it, but only once this one lets the query out.
import type { Repositories } from '@server/db/repositories';
import type { CardHistoryRow } from '@server/db/repositories/story-cards';
import type { CardHeads } from './card-heads';

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
 * The rows storyCards.cardHistory would answer, from the kept records: the `turns` newest eligible
 * replies that have a record. Null when the window does not hold that many (older replies, out of
 * the window, could be among them) or one of them is not kept.
 */
function fromKept(cardHeads: CardHeads, ask: CardHistoryAsk, replies: WindowMessage[]): CardHistoryRow[] | null {
  const rows: CardHistoryRow[] = [];
  for (const reply of replies) {
    if (rows.length === ask.turns) break;
    const record = cardHeads.recordOf(reply.id, reply.version);
    if (record === undefined) return null;
    if (record) rows.push({ messageId: reply.id, version: reply.version, turn: reply.turn, ...record });
  }
  return rows.length === ask.turns ? rows : null;
}

export async function recentCardHistory(
  repos: Pick<Repositories, 'storyCards'>,
  cardHeads: CardHeads,
  ask: CardHistoryAsk,
): Promise<CardHistoryRow[]> {
  const replies = eligible(ask);
  const kept = fromKept(cardHeads, ask, replies);
  if (kept) return kept;
  const rows = await repos.storyCards.cardHistory(ask.storyId, ask.actionId, ask.turn, ask.turns);
  // Only what was read is kept: a reply the rows leave out may have no record, or be older than
  // them, and a version without one is rare (an edit's), so its turns simply ask again.
  return rows.map((row) => {
    // Each row's lists read once, for the cache and for the turn alike.
    const record = { keyed: row.keyed, on: row.on };
    cardHeads.rememberRecord(row.messageId, row.version, record);
    return { messageId: row.messageId, version: row.version, turn: row.turn, ...record };
  });
}
