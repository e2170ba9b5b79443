// The offline narrator's promises: a short second-person reply that restates the action, ends on an
// open question, stays in the premise's genre, never repeats a paragraph within a story, and is a
// pure function of story, turn and attempt. Voices, preferences and continuity: voices.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { NarratorVoicePreferences } from '../types';
import { loadEnglish, type English } from './action';
import { composeRequest } from './test-helpers';
import { composeReply, UNIQUE_TURNS, WORD_BOUNDS, type TurnSeed } from './narrator';
import { createBuiltinNarrator } from '.';

const PREMISE = 'A haunted lighthouse on a cursed island';
const ACTIONS = [
  'I open the rusty door',
  'look around carefully',
  '"Is anyone there?"',
  'I carefully lift my lantern toward the stairs',
  'wait',
  'I run',
  'greet Mara',
  'walk towards the old church',
  'Where is the key?',
];
const STYLES = ['descriptive', 'concise', 'dramatic'] as const;

let english: English;
beforeAll(async () => {
  english = await loadEnglish();
});
const reply = (seed: TurnSeed) => composeReply(seed, english);
const withStyle = (narrativeStyle: NarratorVoicePreferences['narrativeStyle']): NarratorVoicePreferences => ({
  contentRating: 'general',
  narrativeStyle,
  languageStyle: 'modern',
});

describe('composeReply', () => {
  it("keeps to the style's word bounds, in the second person, ending on a question, for many turns and actions", () => {
    for (const style of STYLES) {
      const { min, max } = WORD_BOUNDS[style];
      for (let turn = 0; turn < 200; turn += 1) {
        const text = reply({
          storyId: 11,
          turn,
          attempt: turn % 3,
          premise: PREMISE,
          action: ACTIONS[turn % ACTIONS.length],
          preferences: { ...withStyle(style), contentRating: (['general', 'teen', 'mature'] as const)[turn % 3] },
        });
        const words = text.split(/\s+/).length;
        expect(words, text).toBeGreaterThanOrEqual(min);
        expect(words, text).toBeLessThanOrEqual(max);
        expect(text).toMatch(/\byou\b/i);
        expect(text.replace(/"[^"]*"/g, '')).not.toMatch(/\b(I|my|me)\b/);
        expect(text.trimEnd().endsWith('?')).toBe(true);
      }
    }
  });

  it('opens by restating the action in the second person', () => {
    const text = reply({
      storyId: 3,
      turn: 4,
      attempt: 0,
      premise: PREMISE,
      action: "I open my grandmother's iron chest.",
    });
    expect(text.startsWith("You open your grandmother's iron chest.")).toBe(true);
    const speech = reply({ storyId: 3, turn: 5, attempt: 0, premise: PREMISE, action: '"Who goes there?"' });
    expect(speech.startsWith('You say, "Who goes there?"')).toBe(true);
  });

  it("opens at the premise's place with the first thing it names in mind, whatever the story", () => {
    const premise = 'A lighthouse keeper finds a letter sealed with green wax';
    for (const storyId of [1, 2, 3, 4, 5, 6]) {
      const opening = reply({ storyId, turn: 0, attempt: 0, premise, action: premise });
      expect(opening, opening).toContain('the lighthouse');
      expect(opening, opening).toMatch(/\b[Tt]he letter\b/);
    }
    // A premise that names no thing gets no such line.
    const bakery = reply({ storyId: 1, turn: 0, attempt: 0, premise: 'I open a bakery in Paris', action: '' });
    expect(bakery).not.toMatch(/why you are here at all|keep returning to|it began with/);
  });

  it('is deterministic per story, turn and attempt, and a retry (next attempt) differs', () => {
    const seed = { storyId: 42, turn: 7, attempt: 0, premise: PREMISE, action: 'I climb the stairs' };
    expect(reply(seed)).toBe(reply({ ...seed }));
    const attempts = new Set([0, 1, 2, 3].map((attempt) => reply({ ...seed, attempt })));
    expect(attempts.size).toBe(4);
    expect(reply({ ...seed, storyId: 43 })).not.toBe(reply(seed));
  });

  it(`never repeats a paragraph within a story's first ${UNIQUE_TURNS} turns, in every style, even when the player repeats an action`, () => {
    for (const style of STYLES) {
      const seen = new Set<string>();
      for (let turn = 0; turn < UNIQUE_TURNS; turn += 1) {
        const recent = turn > 3 ? [{ role: 'user' as const, content: 'I pick up the brass key' }] : [];
        const text = reply({
          storyId: 9,
          turn,
          attempt: 0,
          premise: PREMISE,
          action: turn % 2 ? 'look around' : 'wait',
          recent,
          preferences: withStyle(style),
        });
        for (const paragraph of text.split('\n\n')) {
          expect(seen.has(paragraph), paragraph).toBe(false);
          seen.add(paragraph);
        }
      }
      expect(seen.size).toBe(UNIQUE_TURNS * 3);
    }
  });

  it('never repeats a paragraph in a story far longer than that either, and keeps its bounds', () => {
    for (const style of STYLES) {
      const { min, max } = WORD_BOUNDS[style];
      const seen = new Set<string>();
      const turns = style === 'descriptive' ? UNIQUE_TURNS * 3 + 10 : UNIQUE_TURNS + 10;
      for (let turn = 0; turn < turns; turn += 1) {
        const text = reply({
          storyId: 9,
          turn,
          attempt: 0,
          premise: PREMISE,
          action: 'wait',
          preferences: withStyle(style),
        });
        const words = text.split(/\s+/).length;
        expect(words).toBeGreaterThanOrEqual(min);
        expect(words).toBeLessThanOrEqual(max);
        expect(text.trim().endsWith('?')).toBe(true);
        for (const paragraph of text.split('\n\n')) {
          expect(seen.has(paragraph)).toBe(false);
          seen.add(paragraph);
        }
      }
      expect(seen.size).toBe(turns * 3);
    }
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

  it("writes the turn task's preferences and remembers its recent turns", async () => {
    const provider = createBuiltinNarrator({ builtinWordDelayMs: 0 });
    const seed = {
      storyId: 5,
      turn: 4,
      attempt: 0,
      premise: PREMISE,
      action: 'I knock',
      recent: [{ role: 'user' as const, content: 'I pick up the brass key' }],
      preferences: { contentRating: 'teen', narrativeStyle: 'concise', languageStyle: 'formal' } as const,
    };
    const result = await provider.generate(composeRequest(seed));
    expect(result.text).toBe(reply(seed));
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
