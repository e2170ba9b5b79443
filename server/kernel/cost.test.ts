import { describe, expect, it } from 'vitest';
import { costUsd } from './cost';

const prices = { inputPerMillion: 2.5, cachedInputPerMillion: 1.25, outputPerMillion: 10, imagePerMillion: 20 };

describe('costUsd', () => {
  it('prices uncached input, cached input, output and image tokens each at its rate', () => {
    // 600 fresh × 2.5 + 400 cached × 1.25 + 200 out × 10 + 1,000 image × 20, per million.
    expect(costUsd({ input: 1000, cachedInput: 400, output: 200, image: 1000 }, prices)).toBe(0.024);
  });

  it('counts no cache as all input at the input price, and never more cached than input', () => {
    expect(costUsd({ input: 1000, output: 0 }, prices)).toBe(0.0025);
    expect(costUsd({ input: 100, cachedInput: 500, output: 0 }, prices)).toBe(0.000125);
  });

  it('keeps dollars to a millionth', () => {
    expect(costUsd({ input: 1, output: 1 }, prices)).toBe(0.000013);
    expect(costUsd({ input: 0, output: 0 }, prices)).toBe(0);
  });
});
