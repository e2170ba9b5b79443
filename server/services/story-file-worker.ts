// The import's worker thread: takes a file's bytes, checks them (story-file-check.ts) and answers
// the story, then its messages in parts, then done; or why the file is not a story. Parts, so that
// the event loop takes the answer in small pieces too: a 5 MB file of many short versions took
// 30-80 ms to copy back in one message. Built as its own file (scripts/build-server.mjs).
import { parentPort } from 'node:worker_threads';
import type { ImportedMessage } from '@server/db/repositories/story-files';
import { checkStoryFile, importedMessage, type ImportedStory } from './story-file-check';

/** Messages plus versions per part: a few hundred KB at most. */
const PART_WEIGHT = 2000;

export type WorkerAnswer =
  | { id: number; part: 'story'; story: ImportedStory }
  | { id: number; part: 'messages'; messages: ImportedMessage[] }
  | { id: number; part: 'done' }
  | { id: number; part: 'refused'; notJson: boolean; message: string };

const port = parentPort!;
port.on('message', ({ id, bytes }: { id: number; bytes: Uint8Array }) => {
  const post = (answer: WorkerAnswer) => port.postMessage(answer);
  const checked = checkStoryFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  if (!checked.ok) {
    post({ id, part: 'refused', notJson: checked.notJson === true, message: checked.notJson ? '' : checked.message });
    return;
  }
  post({ id, part: 'story', story: checked.story });
  let part: ImportedMessage[] = [];
  let weight = 0;
  for (const message of checked.messages) {
    part.push(importedMessage(message));
    weight += 1 + (message.versions?.length ?? 0);
    if (weight >= PART_WEIGHT) {
      post({ id, part: 'messages', messages: part });
      part = [];
      weight = 0;
    }
  }
  if (part.length > 0) post({ id, part: 'messages', messages: part });
  post({ id, part: 'done' });
});
