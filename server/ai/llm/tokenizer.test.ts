// The remembering token counter: same counts as the tokenizer, each long text counted once while it
// is remembered, and the remembered texts held to their character budget, least recently used out;
// and the ranks the compiled server reads as JSON count what the package counts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ranksJson } from '../../../scripts/build/build-server.mjs';
import { boundedRuns, BPE_RUN_MAX, countTokensFromRanksFile, loadTokenCounter, rememberingCounter } from './tokenizer';

const text = (label: string, length = 100) =>
  `${label} `.repeat(Math.ceil(length / (label.length + 1))).slice(0, length);

describe('rememberingCounter', () => {
  it('counts a long text once while it is remembered, and short texts every time', () => {
    const count = vi.fn((t: string) => t.split(' ').length);
    const remembering = rememberingCounter(count, 1000);
    const long = text('lantern');
    expect(remembering(long)).toBe(count(long));
    count.mockClear();
    expect(remembering(`${long}`)).toBe(long.split(' ').length);
    expect(count).not.toHaveBeenCalled();
    remembering('a short one');
    remembering('a short one');
    expect(count).toHaveBeenCalledTimes(2);
    expect(remembering('')).toBe(0);
  });

  it('forgets the least recently used texts past its character budget', () => {
    const count = vi.fn((t: string) => t.length);
    const remembering = rememberingCounter(count, 600);
    const [a, b, c] = [text('a', 240), text('b', 240), text('c', 240)];
    remembering(a);
    remembering(b);
    remembering(a); // a is now the most recently used
    remembering(c); // 720 characters: b, the least recently used, goes
    count.mockClear();
    remembering(a);
    remembering(c);
    expect(count).not.toHaveBeenCalled();
    remembering(b);
    expect(count).toHaveBeenCalledWith(b);
  });

  it('counts what the tokenizer counts', async () => {
    const { countTokens } = await import('gpt-tokenizer');
    const counter = await loadTokenCounter();
    const prose = 'The ferryman raises his lantern and the fog parts around the bow of the little boat. '.repeat(3);
    expect(counter(prose)).toBe(countTokens(prose));
    expect(counter(prose)).toBe(countTokens(prose));
  });

  it('counts from the JSON ranks of the compiled server exactly as the package does', async () => {
    const { countTokens } = await import('gpt-tokenizer');
    const dir = await mkdtemp(join(tmpdir(), 'tw-ranks-'));
    try {
      await writeFile(join(dir, 'ranks.json'), await ranksJson());
      const fromJson = await countTokensFromRanksFile(join(dir, 'ranks.json'));
      const samples = [
        'The ferryman raises his lantern.',
        'Ünïcödé façade, naïve café — «quotes» and 日本語のテキスト, emoji 🐉🔥, tabs\tand\nnewlines',
        '   leading spaces, 12345 numbers, 3.14159, https://example.com/path?q=1&x=2 <|endoftext|> literal',
        'x'.repeat(500),
      ];
      const plain = { disallowedSpecial: new Set<string>() };
      for (const sample of samples) expect(fromJson(sample, plain)).toBe(countTokens(sample, plain));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('boundedRuns', () => {
  /** The longest run of characters without whitespace in a text. */
  const longestRun = (t: string) => Math.max(0, ...t.split(/[ \t\n\v\f\r]/).map((run) => run.length));

  it('hands BPE no run longer than BPE_RUN_MAX, never halving a surrogate pair, and counts prose whole', () => {
    const seen: string[] = [];
    const counting = boundedRuns((t) => {
      seen.push(t);
      return t.length;
    });
    const prose = text('lantern harbour gull', 5000);
    expect(counting(prose)).toBe(prose.length);
    expect(seen).toEqual([prose]);
    seen.length = 0;
    for (const hostile of [
      '.'.repeat(8000),
      '漢'.repeat(3000),
      '😀'.repeat(500),
      `Lore: ${'a'.repeat(1000)} and more.`,
    ]) {
      expect(counting(hostile)).toBe(hostile.length);
      expect(seen.join('')).toBe(hostile);
      expect(Math.max(...seen.map(longestRun))).toBeLessThanOrEqual(BPE_RUN_MAX);
      expect(seen.filter((piece) => /^[\udc00-\udfff]/.test(piece))).toEqual([]);
      seen.length = 0;
    }
  });

  it('counts a long run within one token a cut of BPE over it whole', async () => {
    const { countTokens } = await import('gpt-tokenizer');
    const count = await loadTokenCounter();
    for (const run of ['.'.repeat(4000), '漢字'.repeat(1000), 'x'.repeat(4000)]) {
      const whole = countTokens(run);
      const cuts = Math.ceil(run.length / BPE_RUN_MAX);
      expect(count(run)).toBeGreaterThanOrEqual(whole);
      expect(count(run)).toBeLessThanOrEqual(whole + cuts);
    }
  });
});
