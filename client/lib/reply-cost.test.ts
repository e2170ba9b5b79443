// A reply's cost and cache share as the story and the context viewer write them.
import { describe, expect, it } from 'vitest';
import { cachedPercent, formatSmallCost } from './reply-cost';

describe('formatSmallCost', () => {
  it('keeps 4 decimals under a cent, 2 from one up, and says $0.00 for nothing', () => {
    expect(formatSmallCost(0.0058)).toBe('$0.0058');
    expect(formatSmallCost(0.00004)).toBe('<$0.0001');
    expect(formatSmallCost(0.009996)).toBe('$0.01');
    expect(formatSmallCost(0.5)).toBe('$0.50');
    expect(formatSmallCost(1.234)).toBe('$1.23');
    expect(formatSmallCost(1234.5)).toBe('$1,234.50');
    expect(formatSmallCost(0)).toBe('$0.00');
  });
});

describe('cachedPercent', () => {
  it('rounds the cached share to whole percent, and is null when the provider did not report it', () => {
    expect(cachedPercent({ inputTokens: 1234, cachedInputTokens: 691 })).toBe(56);
    expect(cachedPercent({ inputTokens: 0, cachedInputTokens: 0 })).toBe(0);
    expect(cachedPercent({ inputTokens: 1234 })).toBeNull();
  });
});
