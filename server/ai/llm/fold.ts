// Folding turns into the story memory: how much of a story a turn reads, when the verbatim turns
// are folded and through which message, and the piece of turns one summary request carries. Every
// read and every request is sized from the model's window, never from the story: an imported story
// may bring thousands of unfolded messages, which the memory then catches up with one piece per
// turn, each request within LLM_CONTEXT_TOKENS.
import { countPrompt, cutMiddle, JOINER, SAFETY_MARGIN, type Budget, type Count } from './context';
import { SUMMARY_SYSTEM_PROMPT, summaryUserPrompt } from './prompts';
import { MESSAGE_OVERHEAD_TOKENS } from './tokenizer';
import type { SummaryTurn } from './types';

/**
 * Fold when the unfolded turns fill this share of their room, down to FOLD_KEEP of it. Every fold
 * changes the prompt right after the memory (the turns it folds leave the verbatim window), which a
 * provider's prompt cache misses, so folds come in large steps: over two thirds of the room at a
 * time (bench:cache at a 4k window: 0.11 memory calls a turn over 80 turns, 0.16 over 500,
 * compactions included; 0.25 when a fold took a third, from 75 % down to 40 %).
 */
export const FOLD_TRIGGER = 0.9;
export const FOLD_KEEP = 0.2;
/** Room kept for the new action when deciding to fold (a 2,000-character action is about 500 tokens). */
export const ACTION_RESERVE_TOKENS = 512;
/**
 * UTF-8 bytes a read may bring per token of room. Prose takes 3-5 bytes a token in English and
 * about 6-8 in Cyrillic or Greek; text denser than this only means fewer turns reach the prompt.
 */
export const BYTES_PER_TOKEN = 12;

/** How much a capped read of a story's messages may bring back. */
export interface ReadLimits {
  rows: number;
  /** Bytes of text; the first message always comes, whatever its size. */
  bytes: number;
}

/**
 * The most a turn reads of its unfolded window (the newest messages): as many messages as could
 * fit the prompt (each costs its overhead and a token at least) and as many bytes as its tokens
 * could plausibly hold.
 */
export function windowLimits(budget: Budget): ReadLimits {
  return { rows: Math.floor(budget.prompt / (MESSAGE_OVERHEAD_TOKENS + 1)), bytes: budget.prompt * BYTES_PER_TOKEN };
}

export interface FoldCandidate {
  id: number;
  role: 'user' | 'assistant';
  tokens: number;
}

/**
 * Decides whether the unfolded turns should be folded into memory, and through which message.
 * Folds happen in chunks (from FOLD_TRIGGER down to FOLD_KEEP of the room) and end on a narrator
 * reply, so the verbatim window still starts with a player action. `recent` are the newest
 * unfolded messages; with `olderUnfolded` there are more before them (a capped read, or turns the
 * prompt had no room for), so a fold is due whatever their count, through every older message at
 * least. The answer is an upper bound: one summary request may cover less (summaryPiece).
 */
export function planFold(recent: FoldCandidate[], roomTokens: number, olderUnfolded = false): number | null {
  const total = recent.reduce((sum, m) => sum + m.tokens + MESSAGE_OVERHEAD_TOKENS, 0);
  if (!olderUnfolded && (recent.length < 2 || total <= roomTokens * FOLD_TRIGGER)) return null;
  let remaining = total;
  let through: number | null = null;
  for (const [i, message] of recent.entries()) {
    if (i === recent.length - 1) break;
    remaining -= message.tokens + MESSAGE_OVERHEAD_TOKENS;
    if (message.role === 'assistant') {
      through = message.id;
      if (remaining <= roomTokens * FOLD_KEEP) break;
    }
  }
  if (through === null && olderUnfolded && recent.length > 0) return recent[0].id - 1;
  return through;
}

/**
 * Room for verbatim turns once the rules, the premise, the memory as it stands (never more than its
 * cap) and an action are counted. The memory's actual size, not its cap: a young story's verbatim
 * turns use the room its memory does not yet, so the prompt is as large at turn 20 as at turn 500
 * (bench:cache), instead of growing as the memory fills.
 */
export function recentRoom(budget: Budget, systemTokens: number, premiseTokens: number, memoryTokens: number): number {
  const memory = Math.min(memoryTokens, budget.memory);
  return Math.max(0, budget.prompt - systemTokens - premiseTokens - memory - ACTION_RESERVE_TOKENS);
}

/** The transcript a summary reads: each turn labelled with its voice and, where known, its story turn (the facts name it). */
export function transcript(turns: SummaryTurn[]): string {
  return turns
    .map(
      (t) =>
        `${t.role === 'user' ? 'Player' : 'Narrator'}${t.turn === undefined ? '' : ` (turn ${t.turn})`}: ${t.content}`,
    )
    .join(JOINER);
}

/** What a transcript line adds to its text at most: the longer label with a long turn number, and the blank line after it. */
export function transcriptLineTokens(count: Count): number {
  return count('Narrator (turn 1000000): ') + count(JOINER);
}

/** The most the story bible's facts may add to a summary's answer: a fold's worth of short facts, and never more than the memory itself. */
export const FACTS_OUTPUT_TOKENS_MAX = 400;

/** A summary's answer at most: the memory (its cap), then the facts. */
export function summaryOutputTokens(budget: Budget): number {
  return budget.memory + Math.min(FACTS_OUTPUT_TOKENS_MAX, budget.memory);
}

/** The tokens a summary request's prompt may use: its output (the memory and the facts) and the margin come off the window. */
export function summaryPromptLimit(contextTokens: number, budget: Budget): number {
  return Math.floor((contextTokens - summaryOutputTokens(budget)) * (1 - SAFETY_MARGIN));
}

/**
 * What one summary request holds besides its transcript: the existing memory (its middle cut if it
 * would take more than half the request, as a memory the player wrote may) and the room left for
 * the transcript once the instructions are counted.
 */
export function summaryRoom(
  memory: string,
  maxWords: number,
  limitTokens: number,
  count: Count,
): { memory: string; roomTokens: number } {
  const kept = cutMiddle(memory, Math.floor(limitTokens / 2), count);
  const frame = countPrompt(
    SUMMARY_SYSTEM_PROMPT,
    [{ role: 'user', content: summaryUserPrompt(kept, '', maxWords) }],
    count,
  );
  return { memory: kept, roomTokens: Math.max(0, limitTokens - frame) };
}

/** The most a fold reads of the oldest unfolded messages for a transcript of `roomTokens`. */
export function pieceLimits(roomTokens: number, lineTokens: number): ReadLimits {
  return { rows: Math.floor(roomTokens / (lineTokens + 1)) + 1, bytes: roomTokens * BYTES_PER_TOKEN };
}

export interface FoldMessage {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  /** Its story turn, where known (the transcript shows it). */
  turn?: number;
}

export interface SummaryPiece<M extends FoldMessage = FoldMessage> {
  turns: SummaryTurn[];
  /** The messages the piece covers, as read (the story bible ties each fact to one of them). */
  sources: M[];
  /** The last message the piece covers: the memory's new reach. */
  throughId: number;
}

/**
 * The oldest unfolded messages (`messages`, oldest first) that fit one summary request's
 * transcript, each counted once. The piece ends on a narrator reply when it stops short of what
 * the fold asked for (`complete`: `messages` are all of it), so the window keeps starting with an
 * action; a message too large for a whole piece stands alone with its middle cut.
 */
export function summaryPiece<M extends FoldMessage>(
  messages: M[],
  roomTokens: number,
  complete: boolean,
  count: Count,
): SummaryPiece<M> | null {
  const [first] = messages;
  if (!first) return null;
  const line = transcriptLineTokens(count);
  const taken: M[] = [];
  let used = 0;
  for (const message of messages) {
    const cost = count(message.content) + line;
    if (used + cost > roomTokens) break;
    used += cost;
    taken.push(message);
  }
  if (taken.length === 0) {
    return {
      turns: [
        {
          role: first.role,
          content: cutMiddle(first.content, Math.max(1, roomTokens - line), count),
          ...(first.turn === undefined ? {} : { turn: first.turn }),
        },
      ],
      sources: [first],
      throughId: first.id,
    };
  }
  if (taken.length < messages.length || !complete) {
    const lastReply = taken.findLastIndex((m) => m.role === 'assistant');
    if (lastReply >= 0) taken.length = lastReply + 1;
  }
  return {
    turns: taken.map(({ role, content, turn }) => ({ role, content, ...(turn === undefined ? {} : { turn }) })),
    sources: taken,
    throughId: taken[taken.length - 1].id,
  };
}
