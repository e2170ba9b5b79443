// The import's worker thread: takes a file's bytes, checks them (story-file-check.ts) and answers
// the story, or why the file is not one; then its messages one part per request of the reader's.
// Parts, and only when asked, so that the event loop takes the answer in small pieces: a 5 MB file
// of many short versions took 30-80 ms to copy back in one message, and 25 parts posted at once were
// all taken in one turn of the loop (89 ms). Built as its own file (scripts/build/build-server.mjs).
import { parentPort } from 'node:worker_threads';
import type { ImportedMessage } from '@server/db/repositories/story-files';
import type { StoryFileMessage } from '@shared/schemas/story-export';
import { checkStoryFile, importedMessage, type ImportedStory } from './story-file-check';

/** Messages plus versions per part: a few hundred KB at most. */
const PART_WEIGHT = 2000;

export type WorkerRequest = { id: number; bytes: Uint8Array } | { id: number; next: true };

export type WorkerAnswer =
  | { id: number; part: 'story'; story: ImportedStory }
  | { id: number; part: 'messages'; messages: ImportedMessage[] }
  | { id: number; part: 'done' }
  | { id: number; part: 'refused'; notJson: boolean; message: string };

/** The checked file's messages, a part at a time. */
function* partsOf(messages: StoryFileMessage[]): Generator<ImportedMessage[]> {
  let part: ImportedMessage[] = [];
  let weight = 0;
  for (const message of messages) {
    part.push(importedMessage(message));
    weight += 1 + (message.versions?.length ?? 0);
    if (weight >= PART_WEIGHT) {
      yield part;
      part = [];
      weight = 0;
    }
  }
  if (part.length > 0) yield part;
}

const port = parentPort!;
/** Each file's parts still to be asked for. */
const files = new Map<number, Generator<ImportedMessage[]>>();

port.on('message', (request: WorkerRequest) => {
  const post = (answer: WorkerAnswer) => port.postMessage(answer);
  const { id } = request;
  if ('next' in request) {
    const parts = files.get(id);
    const part = parts?.next();
    if (!part || part.done) {
      files.delete(id);
      post({ id, part: 'done' });
    } else post({ id, part: 'messages', messages: part.value });
    return;
  }
  const { bytes } = request;
  const checked = checkStoryFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  if (!checked.ok) {
    post({ id, part: 'refused', notJson: checked.notJson === true, message: checked.notJson ? '' : checked.message });
    return;
  }
  files.set(id, partsOf(checked.messages));
  post({ id, part: 'story', story: checked.story });
});
