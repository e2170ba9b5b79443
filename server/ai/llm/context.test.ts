// Context assembly: the prompt's layout, its budget, the documented trimming order, and when
// (and through which message) turns are folded into memory.
import { beforeAll, describe, expect, it } from 'vitest';
import { assembleTurnPrompt, cardBudget, computeBudget, countPrompt, cutMiddle, GUARANTEED_TURNS } from './context';
import { FOLD_KEEP, FOLD_TRIGGER, planFold } from './fold';
import { loadTokenCounter } from './tokenizer';

let count: (text: string) => number;
beforeAll(async () => {
  count = await loadTokenCounter();
});

const turn = (i: number) => [
  { role: 'user' as const, content: `I take step number ${i} along the path` },
  { role: 'assistant' as const, content: `Step ${i}: ${'The path winds on through the trees. '.repeat(10)}` },
];

describe('computeBudget', () => {
  it('keeps a 15 % margin below context minus output, and gives memory 15 % of it', () => {
    expect(computeBudget(8192, 500)).toEqual({ prompt: 6538, memory: 980 });
  });
});

describe('assembleTurnPrompt', () => {
  it('puts the premise and memory first, then the turns verbatim, then the action, alternating roles', () => {
    const prompt = assembleTurnPrompt(
      { system: 'RULES', premise: 'PREMISE', memory: 'MEMORY', recent: [...turn(1), ...turn(2)], action: 'I stop' },
      computeBudget(8192, 500),
      count,
    );
    expect(prompt.system).toBe('RULES');
    // The first action merges into the premise message: providers want strictly alternating roles.
    expect(prompt.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(prompt.messages[0].content).toMatch(
      /^Story premise[^]*PREMISE\n\nStory memory[^]*MEMORY\n\nI take step number 1/,
    );
    expect(prompt.messages.at(-1)).toEqual({ role: 'user', content: 'I stop' });
    expect(prompt.droppedTurns).toBe(0);
    expect(prompt.promptTokens).toBe(countPrompt('RULES', prompt.messages, count));
  });

  it('drops the oldest turns first when they do not fit, keeping premise and memory', () => {
    const budget = { prompt: 600, memory: 90 };
    const recent = Array.from({ length: 10 }, (_, i) => turn(i)).flat();
    const prompt = assembleTurnPrompt(
      { system: 'RULES', premise: 'Ada and Brom', memory: 'You met Cato.', recent, action: 'I stop' },
      budget,
      count,
    );
    expect(prompt.promptTokens).toBeLessThanOrEqual(600);
    expect(prompt.droppedTurns).toBeGreaterThan(0);
    const text = prompt.messages.map((m) => m.content).join('\n');
    expect(text).toContain('Ada and Brom');
    expect(text).toContain('You met Cato.');
    expect(text).toContain('Step 9:');
    expect(text).not.toContain('Step 0:');
  });

  it('then shortens the memory from its oldest sentences, then cuts premise and action in the middle', () => {
    const memory = Array.from({ length: 60 }, (_, i) => `Fact number ${i} about the old kingdom.`).join(' ');
    const small = assembleTurnPrompt(
      { system: 'RULES', premise: 'Short premise', memory, recent: turn(1), action: 'I stop' },
      { prompt: 300, memory: 50 },
      count,
    );
    expect(small.promptTokens).toBeLessThanOrEqual(300);
    // The last two turn pairs stay verbatim at any window: the memory gives way to them.
    expect(small.droppedTurns).toBe(0);
    expect(small.parts.find((p) => p.name === 'memory')?.fit).toBe('partial');
    expect(small.messages[0].content).toContain('Fact number 59');
    expect(small.messages[0].content).not.toContain('Fact number 0 ');

    const hugePremise = `${'word '.repeat(2000)}END`;
    const cut = assembleTurnPrompt(
      { system: 'RULES', premise: hugePremise, memory: '', recent: [], action: 'I stop' },
      { prompt: 400, memory: 60 },
      count,
    );
    expect(cut.promptTokens).toBeLessThanOrEqual(400);
    expect(cut.messages[0].content).toContain('…');
    expect(cut.messages[0].content).toContain('END');
  });
});

describe('the prompt layout with story cards', () => {
  it('puts always-on cards in the stable head before the memory, and triggered cards next to the action, last', () => {
    const prompt = assembleTurnPrompt(
      {
        system: 'RULES',
        premise: 'PREMISE',
        notes: 'NOTES',
        memory: 'MEMORY',
        recent: turn(1),
        action: 'I stop',
        headCards: ['Story card: Realm\nALWAYS'],
        tailCards: ['Story card: Bessie\nKEYED'],
      },
      computeBudget(8192, 500),
      count,
    );
    expect(prompt.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    // One turn pair: the author's note's depth (3) reaches the first message.
    expect(prompt.messages[0].content).toMatch(
      /^\[Author's note[^\n]*\]\nNOTES\n\nStory premise[^]*PREMISE[^]*Story card: Realm\nALWAYS\n\nStory memory[^]*MEMORY/,
    );
    expect(prompt.authorsNote).toEqual({ at: 'head', fromEnd: 3 });
    expect(prompt.messages.at(-1)?.content).toBe('Story card: Bessie\nKEYED\n\nI stop');
    expect(prompt.parts.map((p) => p.name)).toEqual(['premise', 'authorsNote', 'card', 'memory', 'card', 'action']);
    expect(prompt.promptTokens).toBe(countPrompt('RULES', prompt.messages, count));
  });

  it('keeps the last two turn pairs verbatim when the window is small, older turns and then the memory giving way', () => {
    const recent = Array.from({ length: 6 }, (_, i) => turn(i)).flat();
    const memory = Array.from({ length: 40 }, (_, i) => `Fact number ${i} about the old kingdom.`).join(' ');
    const prompt = assembleTurnPrompt(
      { system: 'RULES', premise: 'Short premise', memory, recent, action: 'I stop' },
      { prompt: 420, memory: 60 },
      count,
    );
    expect(prompt.promptTokens).toBeLessThanOrEqual(420);
    expect(prompt.droppedTurns).toBe(recent.length - GUARANTEED_TURNS);
    const text = prompt.messages.map((m) => m.content).join('\n');
    expect(text).toContain('Step 5:');
    expect(text).toContain('Step 4:');
    expect(text).not.toContain('Step 3:');
    expect(prompt.memoryTokens).toBeGreaterThan(prompt.parts.find((p) => p.name === 'memory')?.tokens ?? 0);
  });

  it('gives the cards their share of the room, never more than leaves the fixed texts and the last two pairs', () => {
    const budget = computeBudget(8192, 500);
    const layout = { system: 'RULES', premise: 'PREMISE', recent: turn(1), action: 'I stop' };
    expect(cardBudget(layout, budget, 0.25, count)).toBe(Math.floor(budget.prompt * 0.25));
    expect(cardBudget(layout, budget, 0, count)).toBe(0);
    const tight = { prompt: 200, memory: 30 };
    const room = cardBudget(layout, tight, 0.9, count);
    expect(room).toBeLessThan(180);
    expect(room).toBeGreaterThan(0);
    expect(cardBudget({ ...layout, premise: 'word '.repeat(400) }, tight, 0.9, count)).toBe(0);
  });
});

describe('cutMiddle', () => {
  it('keeps head and tail within the cap and leaves short text alone', () => {
    expect(cutMiddle('short text', 50, count)).toBe('short text');
    const cut = cutMiddle(Array.from({ length: 500 }, (_, i) => `w${i}`).join(' '), 100, count);
    expect(count(cut)).toBeLessThanOrEqual(100);
    expect(cut.startsWith('w0 w1')).toBe(true);
    expect(cut.endsWith('w499')).toBe(true);
  });

  it('cuts a text without spaces by characters, and never splits a character in two', () => {
    const real = count;
    const han = `雨${'霧の中で鐘が鳴る。'.repeat(400)}終`;
    const cut = cutMiddle(han, 200, real);
    expect(real(cut)).toBeLessThanOrEqual(200);
    expect(real(cut)).toBeGreaterThan(150);
    expect([cut.startsWith('雨霧'), cut.endsWith('鳴る。終'), cut.includes(' … ')]).toEqual([true, true, true]);
    const emoji = '🐉'.repeat(3000);
    const cutEmoji = cutMiddle(emoji, 100, real);
    expect(real(cutEmoji)).toBeLessThanOrEqual(100);
    expect(cutEmoji.replace(' … ', '')).toMatch(/^(🐉)+$/u);
  });
});

describe('planFold', () => {
  const window = (n: number) =>
    Array.from({ length: n }, (_, i) => [
      { id: i * 2 + 1, role: 'user' as const, tokens: 20 },
      { id: i * 2 + 2, role: 'assistant' as const, tokens: 176 },
    ]).flat();

  // A turn pair costs 204 tokens with its overheads.
  it('waits until the turns fill FOLD_TRIGGER (90 %) of their room', () => {
    const pairs = Math.floor((2000 * FOLD_TRIGGER) / 204);
    expect(planFold(window(pairs), 2000)).toBeNull();
    expect(planFold(window(pairs + 1), 2000)).not.toBeNull();
  });

  it('folds down to FOLD_KEEP (20 %) of the room and ends on a narrator reply', () => {
    const turns = window(Math.floor((2000 * FOLD_TRIGGER) / 204) + 1);
    const through = planFold(turns, 2000)!;
    const folded = turns.find((m) => m.id === through)!;
    expect(folded.role).toBe('assistant');
    const kept = turns.filter((m) => m.id > through).reduce((s, m) => s + m.tokens + 4, 0);
    expect(kept).toBeLessThanOrEqual(2000 * FOLD_KEEP);
    expect(kept).toBeGreaterThan(2000 * FOLD_KEEP - 204);
  });
});

describe('assembleTurnPrompt on a long or lopsided window', () => {
  it('counts each turn once, newest first, and stops at the first that does not fit', () => {
    const recent = Array.from({ length: 2000 }, (_, i) => turn(i)).flat();
    const counted: string[] = [];
    const counting = (text: string) => (counted.push(text), count(text));
    const prompt = assembleTurnPrompt(
      { system: 'RULES', premise: 'A long road', memory: '', recent, action: 'I stop' },
      computeBudget(8192, 500),
      counting,
    );
    const sent = recent.length - prompt.droppedTurns;
    expect(prompt.promptTokens).toBeLessThanOrEqual(computeBudget(8192, 500).prompt);
    expect(prompt.turnTokens).toHaveLength(sent);
    // The turns sent, the one that did not fit, and the fixed texts: nothing of the rest of the story.
    expect(counted.length).toBeLessThanOrEqual(sent + 1 + 6);
    expect(counted.filter((text) => text.startsWith('Step 0:'))).toHaveLength(0);
  });

  it('joins a run of one role into one message, so the roles alternate from the pinned premise to the action', () => {
    const run = Array.from({ length: 300 }, (_, i) => ({
      role: 'assistant' as const,
      content: `Echo ${i}: the bell rings over the water.`,
    }));
    const recent = [
      ...run,
      { role: 'user' as const, content: 'I listen' },
      { role: 'user' as const, content: 'I listen again' },
    ];
    const budget = computeBudget(4096, 500);
    const prompt = assembleTurnPrompt(
      { system: 'RULES', premise: 'A drowned bell', memory: '', recent, action: 'I dive' },
      budget,
      count,
    );
    expect(prompt.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(prompt.messages[0].content).toMatch(/^Story premise[^]*A drowned bell/);
    expect(prompt.messages[1].content).toMatch(/Echo \d+: [^]*\n\nEcho 299: the bell rings over the water\.$/);
    expect(prompt.messages[2].content).toBe('I listen\n\nI listen again\n\nI dive');
    expect(prompt.promptTokens).toBeLessThanOrEqual(budget.prompt);
    // The joined texts' counts are added: never less than the joined message counts itself.
    expect(prompt.promptTokens).toBeGreaterThanOrEqual(countPrompt('RULES', prompt.messages, count));
  });

  it('cuts oversized notes in the middle with the premise, so the prompt fits even then', () => {
    const notes = `${'Remember the lighthouse and the keeper. '.repeat(300)}THE END`.slice(-2000);
    const prompt = assembleTurnPrompt(
      { system: 'RULES', premise: `${'word '.repeat(2000)}END`, notes, memory: '', recent: [], action: 'I stop' },
      { prompt: 400, memory: 60 },
      count,
    );
    expect(prompt.promptTokens).toBeLessThanOrEqual(400);
    expect(countPrompt('RULES', prompt.messages, count)).toBeLessThanOrEqual(400);
    expect(prompt.messages[0].content).toContain("[Author's note");
  });
});

describe("the author's note", () => {
  const layout = (authorsNoteDepth?: number) =>
    assembleTurnPrompt(
      {
        system: 'RULES',
        premise: 'PREMISE',
        notes: 'Tense, short sentences; the storm keeps building.',
        memory: 'MEMORY',
        recent: [...turn(1), ...turn(2), ...turn(3)],
        action: 'I stop',
        facts: ['A fact'],
        authorsNoteDepth,
      },
      computeBudget(8192, 500),
      count,
    );
  const note =
    "[Author's note: the player's direction for the story from here on; follow it]\nTense, short sentences; the storm keeps building.";

  it('joins the user message 3 messages from the end by default, before the action there', () => {
    const prompt = layout();
    expect(prompt.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(prompt.messages.at(-3)?.content).toBe(`${note}\n\nI take step number 3 along the path`);
    expect(prompt.messages.filter((m) => m.content.includes("[Author's note"))).toHaveLength(1);
    expect(prompt.messages[0].content).not.toContain("Author's note");
    // The message it joined starts with the fifth turn sent (index 4): the action before the last reply.
    expect(prompt.authorsNote).toEqual({ at: 'turn', index: 4, fromEnd: 3 });
    // Counted by its parts: never under what the joined message counts (a token may merge at a joint).
    expect(prompt.promptTokens).toBeGreaterThanOrEqual(countPrompt('RULES', prompt.messages, count));
  });

  it('goes as deep as the setting says, into a user message, never a message of its own', () => {
    const inLast = layout(1);
    expect(inLast.messages.at(-1)?.content).toBe(`${note}\n\nA fact\n\nI stop`);
    expect(inLast.authorsNote).toEqual({ at: 'tail', fromEnd: 1 });
    // Depth 2 is the last reply: the note stays in the user message after it.
    expect(layout(2).authorsNote).toEqual({ at: 'tail', fromEnd: 1 });
    expect(layout(5).messages.at(-5)?.content).toBe(`${note}\n\nI take step number 2 along the path`);
    const deeper = layout(100);
    expect(deeper.messages[0].content.startsWith(note)).toBe(true);
    expect(deeper.authorsNote).toEqual({ at: 'head', fromEnd: 7 });
    for (const prompt of [inLast, deeper]) {
      expect(prompt.messages).toHaveLength(7);
      // It costs the same wherever it goes.
      expect(prompt.promptTokens).toBe(layout().promptTokens);
      expect(prompt.promptTokens).toBeGreaterThanOrEqual(countPrompt('RULES', prompt.messages, count));
    }
  });
});
