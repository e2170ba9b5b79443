// The premise's anchors: where the story is and whom the player meets, never the player themself
// ("I am Captain Imani Reyes") and never a place they have left ("three years out from Earth").
import { beforeAll, describe, expect, it } from 'vitest';
import { STORY_PRESETS } from '@shared/constants';
import { loadEnglish, type English } from '../action';
import { premiseAnchors, threadsOf } from './continuity';

let english: English;
beforeAll(async () => {
  english = await loadEnglish();
});

const preset = (id: string) => STORY_PRESETS.find((p) => p.id === id)!.scenario;

describe('premiseAnchors', () => {
  it('finds the city, the setting and the person met', () => {
    expect(premiseAnchors(english, 'I open a bakery in Paris and fall for the florist next door')).toEqual({
      city: 'Paris',
      setting: 'the bakery',
      people: ['the florist'],
      things: [],
    });
    expect(
      premiseAnchors(english, 'In 1815 I serve as a courier for the Duke of Wellington before Waterloo'),
    ).toMatchObject({ city: 'Waterloo', people: ['the Duke of Wellington'] });
  });

  it("never takes the player's own name or role for someone they meet", () => {
    expect(premiseAnchors(english, preset('space-explorer')).people).toEqual([]);
    expect(premiseAnchors(english, preset('fantasy-quest'))).toMatchObject({ people: [] });
    expect(premiseAnchors(english, 'My name is Ada Quill and I hunt a thief through London').people).toEqual([]);
  });

  it('never takes a place the player has left for where the story is, and gives a common-noun place its article', () => {
    expect(premiseAnchors(english, preset('space-explorer')).city).toBe('');
    expect(premiseAnchors(english, preset('fantasy-quest')).city).toBe('the kingdom of Eldmoor');
    expect(
      premiseAnchors(
        english,
        'Lady Oriane Vex, heir of House Vex, must reach the Glass Citadel before the winter solstice.',
      ),
    ).toMatchObject({ city: '', setting: 'the Glass Citadel' });
  });

  it('stands in the place a role belongs to when the premise names no setting, and keeps the thing it names', () => {
    expect(premiseAnchors(english, 'A lighthouse keeper finds a letter sealed with green wax')).toMatchObject({
      setting: 'the lighthouse',
      things: ['the letter', 'the green wax'],
    });
    expect(premiseAnchors(english, 'A museum night guard notices a painting has changed')).toMatchObject({
      setting: 'the museum',
      things: ['the painting'],
    });
    // A thing's place is no setting: the log is what the detective finds, not where.
    expect(premiseAnchors(english, "A detective finds a ship's log in the rain").setting).toBe('');
    // A setting the premise names wins over the role's.
    expect(premiseAnchors(english, 'A lighthouse keeper wakes in a village with no name').setting).toBe('the village');
  });

  it('reads only the start of a hostile premise, once, and lists each thing once', () => {
    const long = Array.from({ length: 600 }, (_, i) => `the lantern number ${i} and`).join(' ');
    const anchors = premiseAnchors(english, `${long} in Paris`);
    expect(anchors.city).toBe('');
    expect(anchors.things).toEqual(['the lantern number']);
  });

  it('brings back what the player took, never a pronoun standing in for it', () => {
    const recent = [
      { role: 'user' as const, content: 'I pick up the brass key and hide it in my boot' },
      { role: 'assistant' as const, content: 'The corridor is quiet.' },
      { role: 'user' as const, content: 'I look at that and shrug' },
    ];
    expect(threadsOf(english, 'A quiet village', recent)).toEqual({ held: ['the brass key'], names: [], touched: [] });
  });

  it('forgets a thing the player gave away since taking it', () => {
    const recent = [
      { role: 'user' as const, content: 'I pick up the brass key' },
      { role: 'assistant' as const, content: 'The corridor is quiet.' },
      { role: 'user' as const, content: 'I give the key to the ferryman' },
    ];
    expect(threadsOf(english, 'A quiet village', recent).held).toEqual([]);
    expect(threadsOf(english, 'A quiet village', recent.slice(0, 2), 'I hand the brass key to Mara').held).toEqual([]);
    expect(threadsOf(english, 'A quiet village', recent.slice(0, 2), 'I look around').held).toEqual(['the brass key']);
  });
});
