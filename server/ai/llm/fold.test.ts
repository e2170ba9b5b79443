// Folding: how much a turn reads, when a window with older unfolded messages folds, and the piece
// one summary request carries (it fits, ends on a narrator reply, and cuts a single huge message).
import { beforeAll, describe, expect, it } from 'vitest';
import { computeBudget, countPrompt } from './context';
import {
  ACTION_RESERVE_TOKENS,
  planFold,
  recentRoom,
  summaryOutputTokens,
  summaryPiece,
  summaryPromptLimit,
  summaryRoom,
  transcript,
  windowLimits,
} from './fold';
import { SUMMARY_SYSTEM_PROMPT, summaryUserPrompt } from './prompts';
import { loadTokenCounter } from './tokenizer';

let count: (text: string) => number;
beforeAll(async () => {
  count = await loadTokenCounter();
});

const messages = (n: number, words = 60) =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: `M${i + 1} ${'salt and wind '.repeat(words / 3)}`,
  }));

describe('windowLimits', () => {
  it('reads no more messages than could fit the prompt, nor more than 12 bytes a token', () => {
    expect(windowLimits(computeBudget(8192, 500))).toEqual({ rows: 1307, bytes: 6538 * 12 });
  });
});

describe('recentRoom', () => {
  const budget = computeBudget(4096, 500);
  const fixed = (memoryTokens: number) => recentRoom(budget, 300, 40, memoryTokens);

  it('gives the verbatim turns the room the memory does not use yet', () => {
    expect(fixed(0)).toBe(budget.prompt - 300 - 40 - ACTION_RESERVE_TOKENS);
    expect(fixed(100)).toBe(fixed(0) - 100);
  });

  it('counts the memory at most at its cap (the assembler cuts a longer one to fit)', () => {
    expect(fixed(budget.memory * 3)).toBe(fixed(budget.memory));
    expect(fixed(budget.memory)).toBe(fixed(0) - budget.memory);
  });

  it('is never negative', () => {
    expect(recentRoom(budget, budget.prompt, 40, 0)).toBe(0);
  });
});

describe('planFold with older unfolded messages', () => {
  it('folds even a short window, through every older message at least', () => {
    const window = [
      { id: 40, role: 'user' as const, tokens: 10 },
      { id: 41, role: 'assistant' as const, tokens: 10 },
    ];
    expect(planFold(window, 2000)).toBeNull();
    expect(planFold(window, 2000, true)).toBe(39);
  });
});

describe('summaryPiece', () => {
  it('takes the oldest messages that fit, ending on a narrator reply when it stops short', () => {
    const all = messages(40);
    const piece = summaryPiece(all, 500, true, count)!;
    expect(piece.turns.length).toBeGreaterThan(1);
    expect(piece.turns.length).toBeLessThan(all.length);
    expect(piece.turns.at(-1)!.role).toBe('assistant');
    expect(piece.throughId).toBe(piece.turns.length);
    expect(count(transcript(piece.turns))).toBeLessThanOrEqual(500);
  });

  it('takes all it was given when that is the whole fold, and nothing when there is nothing', () => {
    const all = messages(3, 9);
    expect(summaryPiece(all, 2000, true, count)).toEqual({
      turns: all.map(({ role, content }) => ({ role, content })),
      sources: all,
      throughId: 3,
    });
    expect(summaryPiece(all, 2000, false, count)!.throughId).toBe(2);
    expect(summaryPiece([], 2000, true, count)).toBeNull();
  });

  it('cuts a single message too large for a piece in the middle', () => {
    const huge = {
      id: 7,
      role: 'assistant' as const,
      content: `START ${'the tide rolls in and the tide rolls out '.repeat(400)}FINISH`,
    };
    const piece = summaryPiece([huge, ...messages(2)], 300, true, count)!;
    expect(piece.throughId).toBe(7);
    expect(piece.turns).toHaveLength(1);
    expect(piece.turns[0].content).toMatch(/^START [^]* … [^]*FINISH$/);
    expect(count(transcript(piece.turns))).toBeLessThanOrEqual(300);
  });
});

describe('a summary request', () => {
  it('fits the context with its output, even beside a memory the player made as long as allowed', () => {
    const budget = computeBudget(4096, 500);
    const limit = summaryPromptLimit(4096, budget);
    const memory = 'You crossed the river and met the ferryman who owes you a debt. '.repeat(600).slice(0, 40_000);
    const { memory: kept, roomTokens } = summaryRoom(memory, 300, limit, count);
    expect(count(kept)).toBeLessThanOrEqual(limit / 2);
    const piece = summaryPiece(messages(200), roomTokens, true, count)!;
    const prompt = countPrompt(
      SUMMARY_SYSTEM_PROMPT,
      [{ role: 'user', content: summaryUserPrompt(kept, transcript(piece.turns), 300) }],
      count,
    );
    expect(prompt + summaryOutputTokens(budget)).toBeLessThanOrEqual(4096);
  });
});
