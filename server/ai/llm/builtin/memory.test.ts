// Extractive summaries and premise titles of the builtin narrator.
import { describe, expect, it } from 'vitest';
import { loadTokenCounter } from '../tokenizer';
import { clampTitle, fallbackTitle } from '../titles';
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
    const memory = summarizeExtractive('You swore an oath to Queen Ilse.', turns, 80, count);
    expect(count(memory)).toBeLessThanOrEqual(80);
    expect(memory).toContain('Queen Ilse');
    expect(memory).toContain('You name your horse Bucephalus.');
    expect(memory).toContain('Tomas');
    expect(memory).not.toContain('The wind howls');
    expect(memory).toContain('You walk 39 more miles.');
    expect(memory).not.toContain('You walk 0 more miles.');
    expect(memory.indexOf('Queen Ilse')).toBeLessThan(memory.indexOf('Bucephalus'));
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
