// The story memory's chunks: stored, split, appended and compacted (pure functions).
import { describe, expect, it } from 'vitest';
import {
  appendChunk,
  CHUNK_SEPARATOR,
  chunkTokens,
  cleanChunk,
  compactTokens,
  memoryText,
  planCompaction,
  splitChunks,
  storedMemory,
} from './memory-chunks';

/** One token a word. */
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const chunkOf = (n: number, word = 'w') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('stored chunks', () => {
  it('round-trips chunks through the stored text, blank lines and all', () => {
    const chunks = ['You met Ysolde.\n\nShe owes you a favour.', 'You crossed the river.'];
    const stored = storedMemory(chunks);
    expect(stored).toBe(`You met Ysolde.\n\nShe owes you a favour.${CHUNK_SEPARATOR}You crossed the river.`);
    expect(splitChunks(stored)).toEqual(chunks);
    expect(memoryText(stored)).toBe('You met Ysolde.\n\nShe owes you a favour.\n\nYou crossed the river.');
  });

  it('reads a memory written before chunks as one chunk, and an empty one as none', () => {
    expect(splitChunks('You met Ysolde.\n\nYou crossed the river.')).toEqual([
      'You met Ysolde.\n\nYou crossed the river.',
    ]);
    expect(splitChunks('')).toEqual([]);
    expect(memoryText('')).toBe('');
  });

  it('cleans the separator out of a chunk, so a chunk never splits in two', () => {
    expect(cleanChunk(`  a${CHUNK_SEPARATOR}b \n`)).toBe('a b');
    expect(splitChunks(storedMemory([`a${CHUNK_SEPARATOR}b`, 'c']))).toEqual(['a b', 'c']);
    expect(storedMemory(['', '  ', 'c'])).toBe('c');
  });

  it('appending a chunk only extends the memory text the prompt shows', () => {
    const before = storedMemory(['one', 'two']);
    const after = storedMemory(appendChunk(splitChunks(before), 'three'));
    expect(memoryText(after).startsWith(memoryText(before))).toBe(true);
    expect(splitChunks(after)).toEqual(['one', 'two', 'three']);
  });
});

describe('planCompaction', () => {
  it('merges nothing while the memory with the new chunk fits its budget', () => {
    expect(planCompaction([], chunkOf(50), 100, words)).toBe(0);
    expect(planCompaction([chunkOf(40), chunkOf(40)], chunkOf(20), 100, words)).toBe(0);
  });

  it('merges the fewest oldest chunks holding two thirds of the memory when the new chunk would not fit', () => {
    const chunks = [chunkOf(30), chunkOf(10), chunkOf(20), chunkOf(20), chunkOf(20)];
    // 100 tokens held: the oldest three hold 60, the oldest four 80 (at least two thirds).
    expect(planCompaction(chunks, chunkOf(10), 100, words)).toBe(4);
    expect(planCompaction([chunkOf(70), chunkOf(30)], chunkOf(20), 100, words)).toBe(1);
  });

  it('summarises a single oversized chunk (a player edit) down', () => {
    expect(planCompaction([chunkOf(500)], chunkOf(10), 100, words)).toBe(1);
  });

  it('keeps the memory within its budget over many folds, compacting only now and then', () => {
    const budget = 1000;
    const chunkCap = chunkTokens(budget);
    const compactCap = compactTokens(budget);
    let chunks: string[] = [];
    let compactions = 0;
    const folds = 200;
    for (let fold = 0; fold < folds; fold += 1) {
      const next = chunkOf(chunkCap, `f${fold}x`);
      const merged = planCompaction(chunks, next, budget, words);
      if (merged > 0) compactions += 1;
      chunks = appendChunk(
        chunks,
        next,
        merged > 0 ? { merged, compacted: chunkOf(compactCap, `c${fold}x`) } : undefined,
      );
      expect(words(chunks.join(' '))).toBeLessThanOrEqual(budget);
      expect(chunks.at(-1)).toBe(next);
    }
    // Full-size chunks are the worst case: the first compaction waits for the memory to fill, then one in every few folds.
    expect(compactions).toBeLessThanOrEqual(folds / 4);
  });

  it('replaces only the merged chunks and keeps the newer ones as they were', () => {
    expect(appendChunk(['a', 'b', 'c'], 'd', { merged: 2, compacted: 'ab' })).toEqual(['ab', 'c', 'd']);
    expect(appendChunk(['a'], 'b', { merged: 0, compacted: 'unused' })).toEqual(['a', 'b']);
  });
});
