// What a picture is asked to show: the one reply (without its closing question), the style sheet
// first, and only the characters the scene names; the model's style-sheet JSON read leniently.
import { describe, expect, it } from 'vitest';
import { classifyGenre } from '@server/ai/genre';
import { artStyleFor, findNames, lookFor, negativePromptFor } from '@server/ai/image/style-heuristics';
import { altFromScene, buildScenePrompt, sceneFromReply } from './scene-prompt';
import { parseLooks } from './style-sheet';

const REPLY =
  'The tide pulls at the pier as Mara Venn lights the lamp. Far out, a ship lists in the swell, its sails torn. What do you do?';

describe('sceneFromReply', () => {
  it('keeps the scene and drops the closing question to the player', () => {
    expect(sceneFromReply(REPLY)).toBe(
      'The tide pulls at the pier as Mara Venn lights the lamp. Far out, a ship lists in the swell, its sails torn.',
    );
  });

  it('cuts a long reply at a sentence, never mid-word', () => {
    const long = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} describes the harbour.`).join(' ');
    const scene = sceneFromReply(long);
    expect(scene.length).toBeLessThanOrEqual(900);
    expect(scene.endsWith('harbour.')).toBe(true);
  });

  it('gives a short alt text', () => {
    expect(altFromScene('A short scene.')).toBe('A short scene.');
    const alt = altFromScene(`${'Waves crash against the rocks. '.repeat(12)}`);
    expect(alt.length).toBeLessThanOrEqual(221);
    expect(alt.endsWith('.') || alt.endsWith('…')).toBe(true);
  });
});

describe('buildScenePrompt', () => {
  const sheet = {
    artStyle: 'moody noir illustration',
    player: 'a tall ferryman in a yellow oilskin',
    characters: [
      { name: 'Mara Venn', face: 'a narrow weathered face', hair: 'short silver hair', clothes: 'a blue wool coat' },
      { name: 'Old Tom', face: 'a white beard', hair: 'bald', clothes: 'a fisherman jumper' },
    ],
  };

  it('puts the style sheet first and lists only the characters the scene names', () => {
    const prompt = buildScenePrompt(sheet, sceneFromReply(REPLY));
    expect(prompt.startsWith('Art style: moody noir illustration.')).toBe(true);
    expect(prompt).toContain('a tall ferryman in a yellow oilskin');
    expect(prompt).toContain('Mara Venn: a narrow weathered face, short silver hair, a blue wool coat');
    expect(prompt).not.toContain('Old Tom');
    expect(prompt).not.toContain('What do you do?');
    expect(prompt.indexOf('Scene')).toBeGreaterThan(prompt.indexOf('Mara Venn:'));
  });
});

describe('style heuristics', () => {
  it('takes the art style from the largest genre share, then the premise words, with the rating', () => {
    expect(classifyGenre('Mix in the following genre preferences: 20% fantasy, 60% scifi, 20% horror.').genre).toBe(
      'scifi',
    );
    expect(classifyGenre('A detective chases a murder suspect').genre).toBe('mystery');
    expect(artStyleFor('A haunted house full of ghosts', 'general')).toMatch(/gothic horror.*all ages/);
    // The painter and the narrator read one genre: three premises the two once decided apart.
    expect(artStyleFor('A night market on a floating city where lanterns whisper secrets', 'teen')).toMatch(
      /high-fantasy/,
    );
    expect(artStyleFor('I open a bakery in Paris and fall for the florist next door', 'teen')).toMatch(/romantic/);
    expect(artStyleFor('In 1815 I serve as a courier for the Duke of Wellington before Waterloo', 'teen')).toMatch(
      /historical/,
    );
    expect(negativePromptFor('general')).toContain('gore');
    expect(negativePromptFor('mature')).not.toContain('gore');
  });

  it('finds names inside sentences, not sentence openers or common words', () => {
    expect(findNames(REPLY)).toEqual(['Mara Venn']);
    expect(findNames('You meet Captain Ilsa Morrow and her friend Dov at the gate. Then you walk on.')).toEqual([
      'Ilsa Morrow',
      'Dov',
    ]);
  });

  it('gives the same name the same look every time', () => {
    expect(lookFor('Dov', 'fantasy')).toEqual(lookFor('dov'.replace('d', 'D'), 'fantasy'));
    expect(lookFor('Dov', 'fantasy').clothes).not.toBe('');
  });
});

describe('parseLooks', () => {
  it('reads the JSON a model answers, even wrapped in prose, and drops malformed characters', () => {
    const text =
      'Sure! {"player": "a scout in green", "characters": [{"name": "Ilsa", "face": "freckled", "hair": "red braid", "clothes": "leather"}, {"face": "no name"}, 7]} Hope that helps.';
    expect(parseLooks(text)).toEqual({
      player: 'a scout in green',
      characters: [{ name: 'Ilsa', face: 'freckled', hair: 'red braid', clothes: 'leather' }],
    });
  });

  it('answers null for an answer that is not JSON', () => {
    expect(parseLooks('I cannot help with that.')).toBeNull();
    expect(parseLooks('{not json}')).toBeNull();
  });
});
