// Context assembly: what a turn's prompt holds and how it is kept inside the model's window.
//
// Layout (most stable first, so provider prompt caches keep hitting):
//   system   the narrator's rules and the player's preferences (changes only with preferences)
//   user     the premise and the player's notes (pinned: never dropped) and the story memory (changes only
//            when turns are folded)
//   ...      the recent turns verbatim (only ever grow at the end between folds)
//   user     the new action
//
// The whole prompt must fit LLM_CONTEXT_TOKENS - LLM_MAX_OUTPUT_TOKENS less a 15 % safety margin
// (other models' tokenizers count differently from o200k). When it does not, it is trimmed in
// this fixed order, each step only if still needed:
//   1. the oldest recent turns, one message at a time (they are folded into memory soon anyway);
//   2. the memory, oldest sentences first;
//   3. the premise and the action, cut in the middle to half and a quarter of the budget
//      (only pathological text reaches this: a 4,000-character premise fits the smallest budget).
import { MESSAGE_OVERHEAD_TOKENS } from './tokenizer';
import { memoryBlock, pinnedBlock } from './prompts';
import type { ChatMessage, TurnRecord } from './types';

export const SAFETY_MARGIN = 0.15;
/** Fold when the unfolded turns fill this share of their room, down to FOLD_KEEP of it. */
export const FOLD_TRIGGER = 0.75;
export const FOLD_KEEP = 0.4;
export const MEMORY_SHARE = 0.15;
/** Room kept for the new action when deciding to fold (a 2,000-character action is about 500 tokens). */
export const ACTION_RESERVE_TOKENS = 512;
const PRIMING_TOKENS = 3;

type Count = (text: string) => number;

export interface Budget {
  /** Tokens the whole prompt may use. */
  prompt: number;
  /** Tokens the memory may use (also the summary call's output cap). */
  memory: number;
}

export function computeBudget(contextTokens: number, maxOutputTokens: number): Budget {
  const prompt = Math.floor((contextTokens - maxOutputTokens) * (1 - SAFETY_MARGIN));
  return { prompt, memory: Math.floor(prompt * MEMORY_SHARE) };
}

export interface TurnContextInput {
  system: string;
  premise: string;
  /** The player's notes for the narrator, pinned with the premise (empty: none). */
  notes?: string;
  memory: string;
  /** Unfolded turns since the memory, oldest first, without the premise message. */
  recent: TurnRecord[];
  /** The new action, or the opening instruction on the first turn. */
  action: string;
}

export interface AssembledPrompt {
  system: string;
  messages: ChatMessage[];
  promptTokens: number;
  droppedTurns: number;
}

export function countPrompt(system: string, messages: ChatMessage[], count: Count): number {
  return count(system) + MESSAGE_OVERHEAD_TOKENS + PRIMING_TOKENS + messages.reduce((sum, m) => sum + count(m.content) + MESSAGE_OVERHEAD_TOKENS, 0);
}

/** Consecutive messages of one role are merged: some providers insist on strict alternation. */
function alternate(items: TurnRecord[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last && last.role === item.role) last.content = `${last.content}\n\n${item.content}`;
    else out.push({ role: item.role, content: item.content });
  }
  return out;
}

/** Keeps the head and tail of a text that is too long for its slot, cutting whole words. */
export function cutMiddle(text: string, maxTokens: number, count: Count): string {
  if (count(text) <= maxTokens) return text;
  const words = text.split(/\s+/);
  let keep = Math.max(2, Math.floor(words.length * (maxTokens / count(text))) - 4);
  for (;;) {
    const half = Math.floor(keep / 2);
    const candidate = `${words.slice(0, half).join(' ')} … ${words.slice(words.length - half).join(' ')}`;
    if (count(candidate) <= maxTokens || keep <= 2) return candidate;
    keep -= Math.max(1, Math.floor(keep / 10));
  }
}

export function assembleTurnPrompt(input: TurnContextInput, budget: Budget, count: Count): AssembledPrompt {
  let recent = [...input.recent];
  let memory = input.memory;
  let premise = input.premise;
  let action = input.action;
  const build = () => {
    const pinned = pinnedBlock(premise, input.notes ?? '');
    const head = memory ? `${pinned}\n\n${memoryBlock(memory)}` : pinned;
    const messages = alternate([{ role: 'user', content: head }, ...recent, { role: 'user', content: action }]);
    return { messages, tokens: countPrompt(input.system, messages, count) };
  };

  let built = build();
  let dropped = 0;
  while (built.tokens > budget.prompt && recent.length > 0) {
    recent = recent.slice(1);
    dropped += 1;
    built = build();
  }
  if (built.tokens > budget.prompt && memory) {
    const sentences = memory.split(/(?<=[.!?])\s+/);
    while (built.tokens > budget.prompt && sentences.length > 0) {
      sentences.shift();
      memory = sentences.join(' ');
      built = build();
    }
  }
  if (built.tokens > budget.prompt) {
    premise = cutMiddle(premise, Math.floor(budget.prompt / 2), count);
    action = cutMiddle(action, Math.floor(budget.prompt / 4), count);
    built = build();
  }
  return { system: input.system, messages: built.messages, promptTokens: built.tokens, droppedTurns: dropped };
}

export interface FoldCandidate {
  id: number;
  role: 'user' | 'assistant';
  tokens: number;
}

/**
 * Decides whether the unfolded turns should be folded into memory, and through which message.
 * Folds happen in chunks (from FOLD_TRIGGER down to FOLD_KEEP of the room) and always end on a
 * narrator reply, so the verbatim window still starts with a player action.
 */
export function planFold(recent: FoldCandidate[], roomTokens: number): number | null {
  const total = recent.reduce((sum, m) => sum + m.tokens + MESSAGE_OVERHEAD_TOKENS, 0);
  if (recent.length < 2 || total <= roomTokens * FOLD_TRIGGER) return null;
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
  return through;
}

/** Room for verbatim turns once the rules, premise, memory and an action are counted. */
export function recentRoom(budget: Budget, systemTokens: number, premiseTokens: number): number {
  return Math.max(0, budget.prompt - systemTokens - premiseTokens - budget.memory - ACTION_RESERVE_TOKENS);
}

export function transcript(turns: TurnRecord[]): string {
  return turns.map((t) => `${t.role === 'user' ? 'Player' : 'Narrator'}: ${t.content}`).join('\n\n');
}
