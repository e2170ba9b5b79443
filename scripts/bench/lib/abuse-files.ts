// The story files bench:abuse imports (format: shared/schemas/story-export.ts, docs/story-format.md),
// each checked against storyFileSchema and the 5 MB import limit before it is sent, so a refusal
// by the server is the server's answer and never a malformed file; and hostile story cards' files
// (a PNG of text chunks that unpack to gigabytes, a lorebook of tiny entries), under their 5 MB. Text is seeded pseudo-random
// prose over a small vocabulary: as compressible as a story, not as a repeated sentence (which
// brotli would shrink to nothing and make cheap).
import { deflateSync } from 'node:zlib';
import { chunk, fixtureJson, pngCard } from '../../../server/domains/story/cards/formats/testing';
import { CARD_IMPORT_MAX_BYTES } from '../../../shared/schemas/story-cards';
import {
  STORY_FILE_FORMAT,
  STORY_FILE_MAX_MESSAGES,
  STORY_FILE_MESSAGE_MAX_LENGTH,
  STORY_FILE_VERSION,
  STORY_IMPORT_MAX_BYTES,
  storyFileSchema,
  type StoryFile,
  type StoryFileMessage,
} from '../../../shared/schemas/story-export';

const WORDS = (
  'the a of and to in harbour lantern rain night ship crate captain quay watch smoke rope tide gull bell door stair tower chapel ledger ' +
  'salt tar wind storm lamp shadow voice stranger coin map key blade cloak boot step wall roof street market fish net oar sail mast ' +
  'deck hold cabin rat cat dog horse cart wheel stone bridge river fog moon star cloud thunder whisper shout laugh cry breath heart ' +
  'hand eye face hair scar smile frown old young tall thin broad quiet loud slow quick cold warm wet dry dark bright grey red green ' +
  'blue black white silver golden rusty broken hidden sealed open narrow wide steep long short heavy light sharp soft bitter sweet ' +
  'walks runs waits turns looks listens speaks answers opens closes climbs falls drifts burns glows trembles leans pulls pushes holds ' +
  'drops finds loses follows leads watches hides seeks carries'
).split(' ');

/** A small seeded generator (mulberry32): the same run, the same files. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** About `chars` characters of sentences (never more, at least one word). */
export function prose(chars: number, seed: number): string {
  const next = seeded(seed);
  let text = '';
  let sentence = 0;
  while (text.length < chars) {
    const word = WORDS[Math.floor(next() * WORDS.length)];
    const starts = sentence === 0;
    const piece = `${starts ? word[0].toUpperCase() + word.slice(1) : word}`;
    sentence += 1;
    const ends = sentence >= 8 + Math.floor(next() * 10);
    const added = `${text ? ' ' : ''}${piece}${ends ? '.' : ''}`;
    if (text.length + added.length > chars) break;
    text += added;
    if (ends) sentence = 0;
  }
  return text || 'Rain.';
}

const DAY = Date.UTC(2026, 0, 10);
const at = (minute: number) => new Date(DAY + minute * 60_000).toISOString();
export const PREMISE =
  'Captain Mirela Voss and her navigator Tobin Hale smuggle a sealed crate past the blockade of Port Kessrin.';

function file(title: string, messages: StoryFileMessage[], extra: Partial<StoryFile['story']> = {}): StoryFile {
  return {
    format: STORY_FILE_FORMAT,
    version: STORY_FILE_VERSION,
    exportedAt: at(100_000),
    story: { title, premise: PREMISE, memory: '', memoryCovers: 0, notes: '', createdAt: at(0), ...extra },
    messages,
  };
}

const premiseMessage = (): StoryFileMessage => ({
  role: 'user',
  content: PREMISE,
  turn: 0,
  isInitial: true,
  createdAt: at(0),
});

/** Serialises a file after checking it is one the import must accept (schema and size). */
export function serialise(story: StoryFile): string {
  const checked = storyFileSchema.safeParse(story);
  if (!checked.success)
    throw new Error(
      `bench file is not a valid story file: ${checked.error.issues[0]?.message} at ${checked.error.issues[0]?.path.join('.')}`,
    );
  const body = JSON.stringify(story);
  if (Buffer.byteLength(body) > STORY_IMPORT_MAX_BYTES)
    throw new Error(`bench file is ${Buffer.byteLength(body)} bytes, over the 5 MB import limit`);
  return body;
}

/** The premise, then `count` narrator messages in a row of about `chars` characters each (all turn 0). */
export function narratorFlood(count: number, chars: number): string {
  const messages = [premiseMessage()];
  for (let i = 0; i < count; i += 1)
    messages.push({
      role: 'assistant',
      content: prose(chars, 1000 + i),
      turn: 0,
      isInitial: false,
      createdAt: at(1 + i),
    });
  return serialise(file('A flood of narration', messages));
}

/** A story as play makes it: the premise, the opening reply, then `turns` actions each with its reply. */
export function playedStory(
  turns: number,
  actionChars: number,
  replyChars: number,
  extra: Partial<StoryFile['story']> = {},
  opening?: string,
): string {
  const messages = [
    premiseMessage(),
    {
      role: 'assistant' as const,
      content: opening ?? prose(replyChars, 7),
      turn: 0,
      isInitial: false,
      createdAt: at(1),
    },
  ];
  for (let turn = 1; turn <= turns; turn += 1) {
    messages.push({
      role: 'user',
      content: prose(actionChars, 20_000 + turn),
      turn,
      isInitial: false,
      createdAt: at(turn * 2),
    });
    messages.push({
      role: 'assistant',
      content: prose(replyChars, 40_000 + turn),
      turn,
      isInitial: false,
      createdAt: at(turn * 2 + 1),
    });
  }
  return serialise(file(`Played ${turns} turns`, messages, extra));
}

/** The fields a file allows at their longest (premise aside: it is the premise message too). */
const longStoryFields = (): Partial<StoryFile['story']> => ({ memory: prose(40_000, 3), notes: prose(2_000, 4) });

/**
 * The most rows a 5 MB file can make: 10,000 messages (the most a file may hold), every reply with
 * a picture reference (the import looks each hash up), and the rest of the 5 MB spent on versions
 * (short ones: each is one more row), spread evenly over the replies.
 */
export function mostRowsFile(): { body: string; messages: number; versions: number } {
  const hash = (i: number) => i.toString(16).padStart(64, 'a');
  const short = (seed: number) => prose(24, seed);
  const messages: StoryFileMessage[] = [premiseMessage()];
  for (let i = 1; i < STORY_FILE_MAX_MESSAGES; i += 1) {
    const turn = Math.ceil(i / 2);
    const role = i % 2 === 0 ? 'user' : 'assistant';
    messages.push({
      role,
      content: short(i),
      turn,
      isInitial: false,
      createdAt: at(i),
      ...(role === 'assistant' ? { image: { hash: hash(i), alt: 'A lantern on the quay' } } : {}),
    });
  }
  const replies = messages.filter((m) => m.role === 'assistant');
  const version = (n: number, seed: number) => ({
    kind: n === 0 ? ('original' as const) : ('edit' as const),
    content: short(seed),
    createdAt: at(20_000 + seed),
  });
  // Versions per reply: as many as fit, found by trying (the same count for every reply).
  const withVersions = (count: number) =>
    messages.map((m, i) => {
      if (m.role !== 'assistant' || count < 2) return m;
      const versions = Array.from({ length: count }, (_, n) => version(n, i * 1000 + n));
      return { ...m, content: versions[count - 1].content, versions, version: count };
    });
  let count = 2;
  while (
    Buffer.byteLength(JSON.stringify(file('Most rows', withVersions(count + 1), longStoryFields()))) <=
    STORY_IMPORT_MAX_BYTES - 1024
  )
    count += 1;
  const final = withVersions(count);
  return {
    body: serialise(file('Most rows', final, longStoryFields())),
    messages: final.length,
    versions: count * replies.length,
  };
}

/** The most text a 5 MB file can carry: messages of 20,000 characters (the most one may hold) until 5 MB. */
export function mostTextFile(): { body: string; messages: number } {
  const messages: StoryFileMessage[] = [premiseMessage()];
  // Counted as it grows (a message adds its JSON and a comma) rather than serialising 5 MB each time.
  let bytes = Buffer.byteLength(JSON.stringify(file('Most text', messages, longStoryFields())));
  for (let i = 1; ; i += 1) {
    const turn = Math.ceil(i / 2);
    const message: StoryFileMessage = {
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: prose(STORY_FILE_MESSAGE_MAX_LENGTH, 90_000 + i),
      turn,
      isInitial: false,
      createdAt: at(i),
    };
    bytes += Buffer.byteLength(JSON.stringify(message)) + 1;
    if (bytes > STORY_IMPORT_MAX_BYTES - 1024) break;
    messages.push(message);
  }
  return { body: serialise(file('Most text', messages, longStoryFields())), messages: messages.length };
}

// Story cards' files (POST /api/story/{id}/cards/import), each under the 5 MB import limit.

/** A PNG text chunk of `keyword` and its compressed text (zTXt: keyword, NUL, method 0, deflate). */
const zTXt = (keyword: string, compressed: Buffer) =>
  chunk('zTXt', Buffer.concat([Buffer.from(`${keyword}\0\0`, 'latin1'), compressed]));

/**
 * A real character card in a PNG (the default V2 card's lorebook, in its `chara` tEXt chunk) after
 * as many zTXt chunks as fit under 5 MB, each of its own keyword and unpacking to 16 MiB (the most
 * one chunk could before): about 16 KB each, some 300 of them, about 5 GB once unpacked.
 */
export function pngInflateBomb(): { body: Buffer; chunks: number; unpackedBytes: number } {
  const unpacked = 16 * 1024 * 1024;
  const packed = deflateSync(Buffer.alloc(unpacked, 0x41), { level: 9 });
  const card = pngCard(fixtureJson('chara-card-v2.json'));
  const room = CARD_IMPORT_MAX_BYTES - card.length - 1024;
  const chunks: Buffer[] = [];
  for (let size = 0; ;) {
    const next = zTXt(`Comment ${chunks.length}`, packed);
    if (size + next.length > room) break;
    chunks.push(next);
    size += next.length;
  }
  // The card's own chunks (IHDR, its tEXt, IDAT, IEND) after the signature, with the bomb before them.
  const body = Buffer.concat([card.subarray(0, 33), ...chunks, card.subarray(33)]);
  if (body.length > CARD_IMPORT_MAX_BYTES) throw new Error(`bench PNG is ${body.length} bytes, over the 5 MB limit`);
  return { body, chunks: chunks.length, unpackedBytes: chunks.length * unpacked };
}

/**
 * A SillyTavern World Info file (the array form) of one usable entry and as many tiny ones as fit
 * under 5 MB, each with a key and no content (so each is set aside with a reason): about 170,000.
 */
export function tinyEntriesLorebook(): { body: string; entries: number } {
  const entries: object[] = [{ key: ['lamp'], content: 'The lamplighter keeps the last lit street.' }];
  let bytes = JSON.stringify({ entries }).length;
  for (let i = 0; ; i += 1) {
    const entry = { key: [`k${i}`], content: '' };
    bytes += JSON.stringify(entry).length + 1;
    if (bytes > CARD_IMPORT_MAX_BYTES - 1024) break;
    entries.push(entry);
  }
  const body = JSON.stringify({ entries });
  if (Buffer.byteLength(body) > CARD_IMPORT_MAX_BYTES) throw new Error('bench lorebook is over the 5 MB limit');
  return { body, entries: entries.length };
}

/**
 * The most a story cards' file may still ask for: 2,000 entries (twice the 1,000 cards a story may
 * hold), the first 1,000 usable, with as much content each as 5 MB allows; the rest without content.
 */
export function fullLorebook(): { body: string; entries: number; cards: number } {
  const cards = 1000;
  const empty = Array.from({ length: cards }, (_, i) => ({ key: [`e${i}`], content: '' }));
  const room = CARD_IMPORT_MAX_BYTES - JSON.stringify({ entries: empty }).length - 64 * 1024;
  const chars = Math.min(8000, Math.floor(room / cards) - 40);
  const usable = Array.from({ length: cards }, (_, i) => ({ key: [`k${i}`], content: prose(chars, 300_000 + i) }));
  const body = JSON.stringify({ entries: [...usable, ...empty] });
  if (Buffer.byteLength(body) > CARD_IMPORT_MAX_BYTES) throw new Error('bench lorebook is over the 5 MB limit');
  return { body, entries: usable.length + empty.length, cards };
}

/**
 * `count` random tokens of five to nine letters, seeded: text whose every word is new, which costs a
 * file nothing to hold and the memory bank a term each (300 a reply: 120,000 words in 400 replies).
 */
export function randomWords(count: number, seed: number): string {
  const next = seeded(seed);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const words: string[] = [];
  for (let i = 0; i < count; i += 1) {
    let word = '';
    for (let n = 5 + Math.floor(next() * 5); n > 0; n -= 1) word += letters[Math.floor(next() * letters.length)];
    words.push(word);
  }
  return `${words.join(' ')}.`;
}

/** A story as play makes it (the premise, the opening, `turns` short actions with replies), every reply 300 random words. */
export function randomWordsStory(turns: number): string {
  const messages = [
    premiseMessage(),
    { role: 'assistant' as const, content: randomWords(300, 5), turn: 0, isInitial: false, createdAt: at(1) },
  ];
  for (let turn = 1; turn <= turns; turn += 1) {
    messages.push({ role: 'user', content: prose(40, 20_000 + turn), turn, isInitial: false, createdAt: at(turn * 2) });
    messages.push({
      role: 'assistant',
      content: randomWords(300, 40_000 + turn),
      turn,
      isInitial: false,
      createdAt: at(turn * 2 + 1),
    });
  }
  return serialise(file(`${turns} turns of random words`, messages));
}
