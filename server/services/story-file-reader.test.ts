// The import's worker thread as the service uses it: files checked in turn, each answer matched to
// its file (the story and its messages put back together from parts), a refusal with its sentence,
// and pending files failed, not forgotten, when the reader closes.
import { afterEach, describe, expect, it } from 'vitest';
import { STORY_FILE_FORMAT } from '@shared/schemas/story-export';
import { createStoryFileReader, type StoryFileReader } from './story-file-reader';

const at = '2026-01-01T00:00:00.000Z';
const file = (title: string, replies: number) => ({
  format: STORY_FILE_FORMAT,
  version: 2,
  exportedAt: at,
  story: { title, premise: 'A premise', memory: '', memoryCovers: 0, notes: '', createdAt: at },
  messages: [
    { role: 'user', content: 'A premise', turn: 0, isInitial: true, createdAt: at },
    ...Array.from({ length: replies }, (_, i) => ({ role: 'assistant', content: `Reply ${i}`, turn: 0, isInitial: false, createdAt: at, versions: Array.from({ length: 150 }, (_, v) => ({ kind: v ? 'edit' : 'original', content: `Reply ${i}`, createdAt: at })), version: 1 })),
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
    expect(long.ok && long.messages.map((m) => m.content)).toEqual(['A premise', ...Array.from({ length: 40 }, (_, i) => `Reply ${i}`)]);
    expect(long.ok && long.messages[1].versions?.[149].createdAt).toEqual(new Date(at));
    expect(long.ok && long.story.createdAt).toEqual(new Date(at));
    expect(short.ok && short.messages).toHaveLength(2);
    expect(broken).toEqual({ ok: false, notJson: true, message: '' });
    expect(wrong).toEqual({ ok: false, notJson: false, message: 'This file is not a story exported from Taleweaver, or it is damaged (Invalid input: expected "taleweaver.story" at format).' });
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
