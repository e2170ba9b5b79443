// Choosing the encoding of a shared story from Accept-Encoding: brotli or gzip by their q values
// (brotli on a tie, as @fastify/compress chooses), `*`, refusals with q=0, and the plain bytes.
import { describe, expect, it } from 'vitest';
import { preferredEncoding } from './index';

describe('preferredEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['GZIP, Deflate', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['*', 'br'],
    ['gzip;q=0.2, *;q=0.1', 'gzip'],
    ['br;q=0, *', 'gzip'],
  ])('%s: %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
    // Asked again (remembered): the same answer.
    expect(preferredEncoding(header)).toBe(expected);
  });

  it.each([undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0', '*;q=0', 'br;q=abc'])(
    '%s: the plain bytes',
    (header) => {
      expect(preferredEncoding(header)).toBeNull();
    },
  );
});
