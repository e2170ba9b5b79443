// The import's worker thread as the service uses it: files checked in turn, each answer matched to
// its file (the story and its messages put back together from parts), a refusal with its sentence,
// and pending files failed, not forgotten, when the reader closes; and the worker's side: a file's
// messages are answered one part per request, never all at once.
import { afterEach, describe, expect, it } from 'vitest';
import { STORY_FILE_FORMAT } from '@shared/schemas/story-export';
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { createStoryFileReader, startStoryFileWorker, type StoryFileReader } from './story-file-reader';
import type { WorkerAnswer } from './story-file-worker';

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

let reader: StoryFileReader;
afterEach(() => reader.close());

describe('createStoryFileReader', () => {
  it('answers each file with its own story, its messages whole and in order, dates as dates', async () => {
    reader = createStoryFileReader();
    const [long, short, broken, wrong] = await Promise.all([
      reader.read(bytes(file('Long', 40))),
      reader.read(bytes(file('Short', 1))),
      reader.read(bytes('{"format":')),
      reader.read(bytes({ format: 'something else' })),
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
    reader = createStoryFileReader();
    const failed = expect(reader.read(bytes(file('Never read', 5)))).rejects.toThrow('the app is closing');
    await reader.close();
    await failed;
    reader = createStoryFileReader();
    expect((await reader.read(bytes(file('Read', 1)))).ok).toBe(true);
  });
});

describe('the story file worker', () => {
  let worker: Worker | undefined;
  afterEach(async () => {
    await worker?.terminate();
    worker = undefined;
  });

  it('answers the story, then one part of messages per request, then done', async () => {
    worker = startStoryFileWorker();
    const answers: WorkerAnswer[] = [];
    worker.on('message', (answer: WorkerAnswer) => answers.push(answer));
    const nextAnswer = async () => ((await once(worker!, 'message')) as [WorkerAnswer])[0];
    worker.postMessage({ id: 7, bytes: bytes(file('Parts', 40)) });
    expect(await nextAnswer()).toMatchObject({ id: 7, part: 'story', story: { title: 'Parts' } });
    // Unasked, nothing more comes: a round trip through the worker proves its queue is empty.
    worker.postMessage({ id: 8, bytes: bytes('{"format":') });
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
});
