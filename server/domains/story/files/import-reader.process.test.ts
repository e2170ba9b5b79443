// The import worker as the services use it: files read in turn, each answer matched to its file
// (a story and its messages put back together from parts; a cards file's cards and the entries set
// aside), a refusal with its sentence, and pending files failed, not forgotten, when the reader
// closes; and the worker's side: a story file's messages are answered one part per request, never
// all at once, and a fault reading one file answers that file alone.
import { afterEach, describe, expect, it } from 'vitest';
import { STORY_FILE_FORMAT } from '@shared/schemas/story-export';
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { readCardsFile } from '../cards/formats';
import { fixture, fixtureJson, pngCard } from '../cards/formats/testing';
import { createImportReader, startImportWorker, type ImportReader } from './import-reader';
import type { WorkerAnswer } from './import-worker';

const at = '2026-01-01T00:00:00.000Z';
const file = (title: string, replies: number) => ({
  format: STORY_FILE_FORMAT,
  version: 2,
  exportedAt: at,
  story: { title, premise: 'A premise', memory: '', memoryCovers: 0, notes: '', createdAt: at },
  messages: [
    { role: 'user', content: 'A premise', turn: 0, isInitial: true, createdAt: at },
    ...Array.from({ length: replies }, (_, i) => ({
      role: 'assistant',
      content: `Reply ${i}`,
      turn: 0,
      isInitial: false,
      createdAt: at,
      versions: Array.from({ length: 150 }, (_, v) => ({
        kind: v ? 'edit' : 'original',
        content: `Reply ${i}`,
        createdAt: at,
      })),
      version: 1,
    })),
  ],
});
const bytes = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

let reader: ImportReader;
afterEach(() => reader.close());

describe('createImportReader', () => {
  it('answers each file with its own story, its messages whole and in order, dates as dates', async () => {
    reader = createImportReader();
    const [long, short, broken, wrong] = await Promise.all([
      reader.readStory(bytes(file('Long', 40))),
      reader.readStory(bytes(file('Short', 1))),
      reader.readStory(bytes('{"format":')),
      reader.readStory(bytes({ format: 'something else' })),
    ]);
    expect(long.ok && long.story.title).toBe('Long');
    expect(long.ok && long.messages.map((m) => m.content)).toEqual([
      'A premise',
      ...Array.from({ length: 40 }, (_, i) => `Reply ${i}`),
    ]);
    expect(long.ok && long.messages[1].versions?.[149].createdAt).toEqual(new Date(at));
    expect(long.ok && long.story.createdAt).toEqual(new Date(at));
    expect(short.ok && short.messages).toHaveLength(2);
    expect(broken).toEqual({ ok: false, notJson: true, message: '' });
    expect(wrong).toEqual({
      ok: false,
      notJson: false,
      message:
        'This file is not a story exported from Taleweaver, or it is damaged (Invalid input: expected "taleweaver.story" at format).',
    });
  });

  it('fails the files it still holds when it closes, and a new reader works', async () => {
    reader = createImportReader();
    const failed = expect(reader.readStory(bytes(file('Never read', 5)))).rejects.toThrow('the app is closing');
    await reader.close();
    await failed;
    reader = createImportReader();
    expect((await reader.readStory(bytes(file('Read', 1)))).ok).toBe(true);
  });
});

describe('createImportReader, for story cards files', () => {
  it('reads cards files beside story files, each answered as its own, as the formats read them', async () => {
    reader = createImportReader();
    const card = fixtureJson('chara-card-v3.json');
    const [lorebook, story, picture, refused, bound] = await Promise.all([
      reader.readCards(fixture('sillytavern-modern.json'), 1000),
      reader.readStory(bytes(file('Beside', 2))),
      reader.readCards(pngCard(card, 'ccv3'), 1000),
      reader.readCards(bytes('Once upon a time'), 1000),
      reader.readCards(bytes({ entries: [1, 2, 3].map((i) => ({ key: [`k${i}`], content: 'Lore.' })) }), 1),
    ]);
    // Each card's tokens come with it, counted as the narrator's tokenizer counts its content.
    const count = await loadTokenCounter();
    const read = (file: Uint8Array) => {
      const cards = readCardsFile(file);
      return { ok: true, read: cards, tokens: cards.cards.map((c) => count(c.content)) };
    };
    expect(lorebook).toEqual(read(fixture('sillytavern-modern.json')));
    expect(story.ok && story.story.title).toBe('Beside');
    expect(picture).toEqual(read(pngCard(card, 'ccv3')));
    expect(refused).toEqual({ ok: false, message: 'This file is neither a JSON lorebook nor a PNG character card.' });
    expect(bound).toEqual({
      ok: false,
      message:
        'This file has 3 entries: Taleweaver reads at most 2 from one file, twice the 1 cards a story may hold. Split it into smaller files.',
    });
  });
});

describe('the import worker', () => {
  let worker: Worker | undefined;
  afterEach(async () => {
    await worker?.terminate();
    worker = undefined;
  });

  it('answers the story, then one part of messages per request, then done', async () => {
    worker = startImportWorker();
    const answers: WorkerAnswer[] = [];
    worker.on('message', (answer: WorkerAnswer) => answers.push(answer));
    const nextAnswer = async () => ((await once(worker!, 'message')) as [WorkerAnswer])[0];
    worker.postMessage({ id: 7, kind: 'story', bytes: bytes(file('Parts', 40)) });
    expect(await nextAnswer()).toMatchObject({ id: 7, part: 'story', story: { title: 'Parts' } });
    // Unasked, nothing more comes: a round trip through the worker proves its queue is empty.
    worker.postMessage({ id: 8, kind: 'story', bytes: bytes('{"format":') });
    expect(await nextAnswer()).toEqual({ id: 8, part: 'refused', notJson: true, message: '' });
    const contents: string[] = [];
    let parts = 0;
    for (;;) {
      worker.postMessage({ id: 7, next: true });
      const answer = await nextAnswer();
      if (answer.part === 'done') break;
      expect(answer.part).toBe('messages');
      if (answer.part === 'messages') contents.push(...answer.messages.map((m) => m.content));
      parts += 1;
    }
    // 40 replies of 150 versions each; a part closes once it holds 2,000 messages and versions (14 replies).
    expect(parts).toBe(3);
    expect(contents).toEqual(['A premise', ...Array.from({ length: 40 }, (_, i) => `Reply ${i}`)]);
    expect(answers.map((a) => a.part)).toEqual(['story', 'refused', 'messages', 'messages', 'messages', 'done']);
  });

  it('answers a fault reading one file for that file alone, and reads the next', async () => {
    worker = startImportWorker();
    const nextAnswer = async () => ((await once(worker!, 'message')) as [WorkerAnswer])[0];
    // Not bytes at all: no reader expects it, so the read fails as a fault, not as a refusal.
    worker.postMessage({ id: 3, kind: 'cards', bytes: null, maxCards: 10 });
    expect(await nextAnswer()).toEqual({ id: 3, part: 'failed', message: expect.any(String) });
    worker.postMessage({ id: 4, kind: 'cards', bytes: fixture('novelai.lorebook'), maxCards: 10 });
    expect(await nextAnswer()).toMatchObject({ id: 4, part: 'cards', read: { format: 'novelai' } });
  });
});
