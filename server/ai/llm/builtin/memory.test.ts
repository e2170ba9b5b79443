// Extractive summaries and premise titles of the builtin narrator.
import { describe, expect, it } from 'vitest';
import { loadTokenCounter } from '../tokenizer';
import { clampTitle, fallbackTitle } from '../titles';
import { loadEnglish } from './action';
import { summarizeExtractive } from './memory';

describe('summarizeExtractive', () => {
  it('keeps sentences with names first (oldest first), then the newest actions, within the cap', async () => {
    const count = await loadTokenCounter();
    const turns = [
      { role: 'user' as const, content: 'I name my horse Bucephalus' },
      {
        role: 'assistant' as const,
        content: 'The wind howls. An old man called Tomas waves from the gate. Rain falls.',
      },
      ...Array.from({ length: 40 }, (_, i) => ({ role: 'user' as const, content: `I walk ${i} more miles` })),
    ];
    const memory = summarizeExtractive('You swore an oath to Queen Ilse.', turns, 80, count, await loadEnglish());
    expect(count(memory)).toBeLessThanOrEqual(80);
    expect(memory).toContain('Queen Ilse');
    expect(memory).toContain('You name your horse Bucephalus.');
    expect(memory).toContain('Tomas');
    expect(memory).not.toContain('The wind howls');
    expect(memory).toContain('You walk 39 more miles.');
    expect(memory).not.toContain('You walk 0 more miles.');
    expect(memory.indexOf('Queen Ilse')).toBeLessThan(memory.indexOf('Bucephalus'));
  });

  it('names what happened in the folded turns: the key picked up and Mara met', async () => {
    const count = await loadTokenCounter();
    const english = await loadEnglish();
    const filler = (i: number) => [
      { role: 'user' as const, content: i % 2 ? 'I look around carefully.' : 'I wait' },
      { role: 'assistant' as const, content: 'The wind rises. Somewhere a door bangs. The light is thin and grey.' },
    ];
    const turns = [
      ...filler(0),
      { role: 'user' as const, content: 'I quietly pick up the rusty key from the altar.' },
      { role: 'assistant' as const, content: 'The key is cold and heavier than it looks. Dust rises from the altar.' },
      ...Array.from({ length: 12 }, (_, i) => filler(i + 1)).flat(),
      { role: 'user' as const, content: 'I walk over to the woman by the well and say "Good evening"' },
      { role: 'assistant' as const, content: 'She turns. "I am Mara," she says, and studies you. The bucket creaks.' },
      ...filler(20),
    ];
    const memory = summarizeExtractive('', turns, 70, count, english);
    expect(count(memory)).toBeLessThanOrEqual(70);
    expect(memory).toContain('You quietly pick up the rusty key from the altar.');
    expect(memory).toContain('Mara');
    expect(memory).toContain('You walk over to the woman by the well and say "Good evening".');
    expect(memory).not.toMatch(/\bI (quietly|walk)\b/);
    expect(memory).not.toContain('The wind rises');
  });
});

describe('titles', () => {
  it('uses the first words of the premise, title-cased, without the genre mix', () => {
    expect(
      fallbackTitle(
        'a thief in the clock tower steals time itself\n\nMix in the following genre preferences: 50% fantasy.',
      ),
    ).toBe('A Thief in the Clock Tower Steals');
    expect(fallbackTitle("I'm a courier lost in a desert city")).toBe('A Courier Lost in a Desert City');
  });

  it('names a random-prompt story from its genre', () => {
    expect(
      fallbackTitle('Create a story that combines 80% scifi, 20% horror. Surprise me with an unexpected twist!'),
    ).toMatch(/^The (Orbit|Signal|Drift|Horizon|Station|Void) and the \w+$/);
  });

  it('never exceeds 60 characters and cuts at a word', () => {
    const title = clampTitle('Supercalifragilistic '.repeat(5));
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title.endsWith('Supercalifragilistic')).toBe(true);
  });
});
