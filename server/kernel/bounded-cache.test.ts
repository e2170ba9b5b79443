import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache';

describe('BoundedCache', () => {
  it('holds at most its capacity, forgetting the entry used longest ago', () => {
    const cache = new BoundedCache<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1); // a is now the most recently used: b is the oldest
    cache.set('d', 4);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4]);
  });

  it('counts a set of a kept key as a use, not a new entry', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 10);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(10);
    expect(cache.get('b')).toBeUndefined();
  });

  it('peeks without counting a use, so peeked entries go in the order they came', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.peek('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('b')).toBe(2);
  });

  it('computes a missing value once and keeps it', () => {
    const cache = new BoundedCache<string, string>(10);
    let computed = 0;
    const upper = (key: string) => {
      computed += 1;
      return key.toUpperCase();
    };
    expect(cache.getOrSet('x', upper)).toBe('X');
    expect(cache.getOrSet('x', upper)).toBe('X');
    expect(computed).toBe(1);
  });

  it('forgets what deleteWhere matches and nothing else', () => {
    const cache = new BoundedCache<string, { userId: number }>(10);
    cache.set('t1', { userId: 1 });
    cache.set('t2', { userId: 2 });
    cache.set('t3', { userId: 1 });
    cache.deleteWhere((entry) => entry.userId === 1);
    expect(cache.size).toBe(1);
    expect(cache.get('t2')).toEqual({ userId: 2 });
    expect(cache.delete('t2')).toBe(true);
    expect(cache.size).toBe(0);
  });
});
