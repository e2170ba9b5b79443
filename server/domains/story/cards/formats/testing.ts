// Test helpers for the formats' tests: the fixtures' bytes, and many cards of every shape the card
// form allows (a seeded generator, so a failing round trip names a card that can be made again).
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import {
  CARD_CONTENT_MAX_LENGTH,
  CARD_KEY_MAX_LENGTH,
  CARD_KEYS_MAX,
  CARD_NAME_MAX_LENGTH,
  CARD_SCAN_DEPTH_MAX,
  CARD_SECONDARY_LOGIC,
  type StoryCardFields,
} from '@shared/schemas/story-cards';

export const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
export const fixtureJson = (name: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(fixture(name)).toString('utf8'));
export const bytesOf = (value: unknown) =>
  new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 1×1 RGB picture with `chunks` between its header and its pixels, as card editors place them. */
export function png(...chunks: Buffer[]): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  const pixels = deflateSync(Buffer.from([0, 200, 120, 40])); // filter byte, one pixel
  return new Uint8Array(
    Buffer.concat([SIGNATURE, chunk('IHDR', header), ...chunks, chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]),
  );
}

/** A PNG character card: a real picture with the card's JSON, base64, in a tEXt chunk named `keyword` (chara or ccv3). */
export const pngCard = (card: unknown, keyword = 'chara') =>
  png(
    chunk(
      'tEXt',
      Buffer.concat([
        Buffer.from(`${keyword}\0`, 'latin1'),
        Buffer.from(Buffer.from(JSON.stringify(card)).toString('base64'), 'latin1'),
      ]),
    ),
  );

/** mulberry32: small, seeded, good enough to vary test data. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'Mara',
  'Saltmere',
  'the "old" keep',
  'Åsa',
  '東京',
  'naïve',
  'rock & roll',
  'back\\slash',
  'emoji 🐉',
  'tab\tin',
];
const PATTERNS = ['/\\bMara( Voss)?\\b/i', '/dragon(s|kin)/', '/^The (North|South)$/ms', '/a\\/b/i'];

/** `count` valid cards: names, keys and content at their limits among them, regex keys, every logic. */
export function randomCards(count: number, seed = 25): StoryCardFields[] {
  const next = random(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]) => items[int(0, items.length - 1)];
  const text = (maxWords: number) => Array.from({ length: int(1, maxWords) }, () => pick(WORDS)).join(' ');
  const keys = (max: number) =>
    Array.from({ length: int(0, max) }, () =>
      next() < 0.2 ? pick(PATTERNS) : text(3).slice(0, CARD_KEY_MAX_LENGTH).trim(),
    );
  return Array.from({ length: count }, (_, index) => {
    const primary = index % 7 === 3 ? [] : keys(index % 5 === 0 ? CARD_KEYS_MAX : 4);
    return {
      name: index % 11 === 0 ? 'N'.repeat(CARD_NAME_MAX_LENGTH) : `${text(3).slice(0, 90).trim()} ${index}`,
      keys: primary,
      secondaryKeys: keys(index % 9 === 0 ? CARD_KEYS_MAX : 2),
      secondaryLogic: pick(CARD_SECONDARY_LOGIC),
      content: index % 13 === 0 ? 'x'.repeat(CARD_CONTENT_MAX_LENGTH) : `${text(40)}\n\n${text(10)}`,
      alwaysOn: primary.length === 0 || next() < 0.2,
      enabled: next() < 0.8,
      priority: int(-1000, 1000),
      caseSensitive: next() < 0.3,
      wholeWords: next() < 0.7,
      scanDepth: int(0, CARD_SCAN_DEPTH_MAX),
      recursive: next() < 0.3,
      sticky: int(0, 1000),
      cooldown: int(0, 1000),
      delay: int(0, 1000),
    };
  });
}
