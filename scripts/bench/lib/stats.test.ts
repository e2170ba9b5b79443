// The benchmarks' one percentile: the nearest rank, on samples whose answer is known by hand.
import { describe, expect, it } from 'vitest';
import { maxOf, median, nearestRank, percentile } from './stats';

describe('benchmark statistics', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted on purpose

  it('takes the value at rank ceil(p/100 · n) of the sorted samples', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99); // not the slowest sample
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile([3, 1, 2], 90)).toBe(3);
  });

  it('gives the lower middle value as the median of an even count, and leaves its input as it was', () => {
    const values = [4, 1, 3, 2];
    expect(median(values)).toBe(2);
    expect(values).toEqual([4, 1, 3, 2]);
  });

  it('says NaN for an empty list, and ranks within 1..n', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(maxOf([])).toBeNaN();
    expect(maxOf([2, 7, 3])).toBe(7);
    expect(nearestRank(0, 10)).toBe(1);
    expect(nearestRank(99.9, 10)).toBe(10);
    expect(nearestRank(50, 7)).toBe(4);
  });
});
