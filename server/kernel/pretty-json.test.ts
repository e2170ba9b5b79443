// JSON written in pieces must be byte for byte what JSON.stringify(value, null, 2) makes of the
// whole: downloads keep their format while they stream.
import { describe, expect, it } from 'vitest';
import { chunked, compactObjectWithArray, prettyJson, prettyObjectWithArray } from './pretty-json';

async function text(pieces: AsyncIterable<string>): Promise<string> {
  let all = '';
  for await (const piece of pieces) all += piece;
  return all;
}

const samples: Array<[Record<string, unknown>, unknown[]]> = [
  [{}, []],
  [{}, [1]],
  [{ a: 1 }, []],
  [
    { a: 'line one\nline two "quoted" \u2028 é', b: null, c: [], d: {}, e: undefined, f: new Date(0) },
    [{ x: [1, { y: 'z\n' }] }, 'two', [], {}],
  ],
  [{ nested: { deeper: { deepest: [1, 2, 3] } } }, [{ nested: { list: [{ k: 'v' }] } }]],
];

describe('prettyObjectWithArray', () => {
  it('writes what JSON.stringify(…, null, 2) writes, at the top and nested deeper', async () => {
    for (const [fields, items] of samples) {
      const whole = { ...fields, list: items };
      expect(
        await text(
          prettyObjectWithArray(
            fields,
            'list',
            items.map((item) => [prettyJson(item, 2)]),
          ),
        ),
      ).toBe(JSON.stringify(whole, null, 2));
      // The same object as an item of an outer document's array, two levels down.
      const inner = prettyObjectWithArray(
        fields,
        'list',
        items.map((item) => [prettyJson(item, 4)]),
        2,
      );
      expect(await text(prettyObjectWithArray({ outer: true }, 'items', [inner]))).toBe(
        JSON.stringify({ outer: true, items: [whole] }, null, 2),
      );
    }
  });

  it('writes commas for the items given, so a source may leave some out', async () => {
    async function* some() {
      for (const n of [1, 2, 3, 4]) if (n % 2 === 0) yield [prettyJson({ n }, 2)];
    }
    expect(await text(prettyObjectWithArray({ a: 1 }, 'list', some()))).toBe(
      JSON.stringify({ a: 1, list: [{ n: 2 }, { n: 4 }] }, null, 2),
    );
  });
});

describe('chunked', () => {
  it('gathers pieces into chunks of about the size asked, losing nothing', async () => {
    const pieces = Array.from({ length: 100 }, (_, i) => `piece ${i};`);
    const chunks: string[] = [];
    for await (const chunk of chunked(pieces, 50)) chunks.push(chunk);
    expect(chunks.join('')).toBe(pieces.join(''));
    expect(chunks.slice(0, -1).every((chunk) => chunk.length >= 50 && chunk.length < 60)).toBe(true);
  });
});

describe('compactObjectWithArray', () => {
  it('makes the bytes of JSON.stringify of the whole, however the items fall into runs', async () => {
    for (const [fields, items] of samples) {
      for (const size of [1, 7, 1_000_000]) {
        const bytes = await compactObjectWithArray(
          fields,
          'list',
          items.map((item) => JSON.stringify(item)),
          size,
        );
        expect(bytes.toString()).toBe(JSON.stringify({ ...fields, list: items }));
      }
    }
  });
});
