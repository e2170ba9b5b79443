// The offline narrator's promises: 80-180 words of second-person story that reacts to the action
// with its own verb and object, ends on an open question, stays in the premise's genre, never
// repeats a paragraph within a story, and is a pure function of story, turn and attempt.
import { describe, expect, it } from 'vitest';
import { composeRequest } from './test-helpers';
import { composeReply, MAX_WORDS, MIN_WORDS, UNIQUE_TURNS } from './narrator';
import { detectGenre, parseAction } from './text';
import { VOCABULARY } from './vocabulary';
import { createBuiltinNarrator } from '.';

const PREMISE = 'A haunted lighthouse on a cursed island';
const ACTIONS = [
  'I open the rusty door',
  'look around',
  '"Is anyone there?"',
  'I carefully lift my lantern toward the stairs',
  'wait',
  'I run',
];

describe('composeReply', () => {
  it('writes 80-180 words, in the second person, ending on a question, for many turns and actions', () => {
    for (let turn = 0; turn < 300; turn += 1) {
      const reply = composeReply({
        storyId: 11,
        turn,
        attempt: turn % 3,
        premise: PREMISE,
        action: ACTIONS[turn % ACTIONS.length],
      });
      const words = reply.split(/\s+/).length;
      expect(words).toBeGreaterThanOrEqual(MIN_WORDS);
      expect(words).toBeLessThanOrEqual(MAX_WORDS);
      expect(reply).toMatch(/\byou\b/i);
      expect(reply).not.toMatch(/\b(I|my|me)\b/);
      expect(reply.trimEnd().endsWith('?')).toBe(true);
    }
  });

  it('opens by restating the action in the second person and reuses its verb and object', () => {
    const reply = composeReply({
      storyId: 3,
      turn: 4,
      attempt: 0,
      premise: PREMISE,
      action: "I open my grandmother's iron chest.",
    });
    expect(reply.startsWith("You open your grandmother's iron chest.")).toBe(true);
    const speech = composeReply({ storyId: 3, turn: 5, attempt: 0, premise: PREMISE, action: '"Who goes there?"' });
    expect(speech.startsWith('You say, "Who goes there?"')).toBe(true);
  });

  it('stays in the genre the premise or its genre mix asks for', () => {
    const words = (genre: keyof typeof VOCABULARY) => [
      ...VOCABULARY[genre].sights,
      ...VOCABULARY[genre].sounds,
      ...VOCABULARY[genre].places,
    ];
    const spaceReply = composeReply({
      storyId: 1,
      turn: 2,
      attempt: 0,
      premise: 'A derelict space station drifts above a dead planet',
      action: 'I listen',
    });
    expect(words('scifi').some((w) => spaceReply.includes(w))).toBe(true);
    const mixed = composeReply({
      storyId: 1,
      turn: 2,
      attempt: 0,
      premise: 'Create a story that combines 70% western, 30% comedy. Surprise me with an unexpected twist!',
      action: 'I listen',
    });
    expect(words('western').some((w) => mixed.includes(w))).toBe(true);
  });

  it('is deterministic per story, turn and attempt, and a retry (next attempt) differs', () => {
    const seed = { storyId: 42, turn: 7, attempt: 0, premise: PREMISE, action: 'I climb the stairs' };
    expect(composeReply(seed)).toBe(composeReply({ ...seed }));
    const attempts = new Set([0, 1, 2, 3].map((attempt) => composeReply({ ...seed, attempt })));
    expect(attempts.size).toBe(4);
    expect(composeReply({ ...seed, storyId: 43 })).not.toBe(composeReply(seed));
  });

  it(`never repeats a paragraph within a story's first ${UNIQUE_TURNS} turns, even when the player repeats an action`, () => {
    const seen = new Set<string>();
    for (let turn = 0; turn < UNIQUE_TURNS; turn += 1) {
      for (const paragraph of composeReply({
        storyId: 9,
        turn,
        attempt: 0,
        premise: PREMISE,
        action: turn % 2 ? 'look around' : 'wait',
      }).split('\n\n')) {
        expect(seen.has(paragraph)).toBe(false);
        seen.add(paragraph);
      }
    }
    expect(seen.size).toBe(UNIQUE_TURNS * 3);
  });

  it('never repeats a paragraph in a story far longer than that either, and stays within 80-180 words', () => {
    const seen = new Set<string>();
    const turns = UNIQUE_TURNS * 3 + 10;
    for (let turn = 0; turn < turns; turn += 1) {
      const reply = composeReply({ storyId: 9, turn, attempt: 0, premise: PREMISE, action: 'wait' });
      const words = reply.split(/\s+/).length;
      expect(words).toBeGreaterThanOrEqual(80);
      expect(words).toBeLessThanOrEqual(180);
      expect(reply.trim().endsWith('?')).toBe(true);
      for (const paragraph of reply.split('\n\n')) {
        expect(seen.has(paragraph)).toBe(false);
        seen.add(paragraph);
      }
    }
    expect(seen.size).toBe(turns * 3);
  });
});

describe('parseAction and detectGenre', () => {
  it('finds verb and object, skipping pronouns and a leading adverb', () => {
    expect(parseAction('I pick up the silver key and run')).toMatchObject({
      clause: 'you pick up the silver key and run',
      verb: 'pick',
      object: 'the silver key',
    });
    expect(parseAction('Quietly open my pack')).toMatchObject({ verb: 'open', object: 'your pack' });
    expect(parseAction('wait')).toMatchObject({ verb: 'wait', object: '' });
  });

  it('reads the genre from the mix first, then keywords, defaulting to fantasy', () => {
    expect(detectGenre('A quiet village.\n\nMix in the following genre preferences: 60% horror, 40% romance.')).toBe(
      'horror',
    );
    expect(detectGenre('The detective studies the murder scene for a clue')).toBe('mystery');
    expect(detectGenre('Something happens')).toBe('fantasy');
  });
});

describe('the builtin provider', () => {
  it('streams the reply word by word and reports no usage, so the ledger counts it', async () => {
    const provider = createBuiltinNarrator({ builtinWordDelayMs: 0 });
    const deltas: string[] = [];
    const request = composeRequest({ storyId: 5, turn: 1, attempt: 0, premise: PREMISE, action: 'I knock' });
    const result = await provider.generate(request, (t) => deltas.push(t));
    expect(deltas.join('')).toBe(result.text);
    expect(deltas.length).toBe(result.text.split(/\s+/).length);
    expect(result.usage).toEqual({ inputTokens: undefined, outputTokens: undefined });
    expect(provider).toMatchObject({ id: 'builtin', model: 'taleweaver-demo' });
  });

  it('paces the words by the configured delay', async () => {
    const provider = createBuiltinNarrator({ builtinWordDelayMs: 5 });
    const times: number[] = [];
    const started = performance.now();
    await provider.generate(
      composeRequest({ storyId: 5, turn: 1, attempt: 0, premise: PREMISE, action: 'I knock' }),
      () => times.push(performance.now() - started),
    );
    expect(times[0]).toBeLessThan(50);
    expect(times.at(-1)!).toBeGreaterThanOrEqual((times.length - 1) * 5 - 1);
  });
});
