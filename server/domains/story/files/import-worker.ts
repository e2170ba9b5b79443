// The import worker thread: reads the files players import, off the event loop. A story file
// (POST /api/story/import): its bytes checked (story-file-check.ts), the story answered, or why the
// file is not one; then its messages one part per request of the reader's. Parts, and only when
// asked, so that the event loop takes the answer in small pieces: a 5 MB file of many short
// versions took 30-80 ms to copy back in one message, and 25 parts posted at once were all taken in
// one turn of the loop (89 ms). A story cards' file (POST /api/story/{id}/cards/import): the whole
// read (PNG chunks unpacked, base64, JSON.parse, the format's reader: cards/formats/) answers its
// cards with their contents' tokens (counted here too: a 5 MB file is a few hundred ms of BPE) and
// the entries set aside, or the sentence refusing it. A fault reading one file answers that file
// alone. Built as its own file (scripts/build/build-server.mjs).
import { parentPort } from 'node:worker_threads';
import type { ImportedMessage } from '@server/db/repositories/story-files';
import type { StoryFileMessage } from '@shared/schemas/story-export';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { CardFileError, readCardsFile, type ReadCards } from '../cards/formats';
import { checkStoryFile, importedMessage, type ImportedStory } from './story-file-check';

/** Messages plus versions per part: a few hundred KB at most. */
const PART_WEIGHT = 2000;

export type WorkerRequest =
  | { id: number; kind: 'story'; bytes: Uint8Array }
  | { id: number; kind: 'cards'; bytes: Uint8Array; maxCards: number }
  | { id: number; next: true };

export type WorkerAnswer =
  | { id: number; part: 'story'; story: ImportedStory }
  | { id: number; part: 'messages'; messages: ImportedMessage[] }
  | { id: number; part: 'done' }
  /** `tokens[i]` is the tokens of `read.cards[i]`'s content. */
  | { id: number; part: 'cards'; read: ReadCards; tokens: number[] }
  | { id: number; part: 'refused'; notJson: boolean; message: string }
  | { id: number; part: 'failed'; message: string };

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
/** Each story file's parts still to be asked for. */
const files = new Map<number, Generator<ImportedMessage[]>>();

const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

async function answer(request: WorkerRequest): Promise<WorkerAnswer> {
  const { id } = request;
  if ('next' in request) {
    const part = files.get(id)?.next();
    if (!part || part.done) {
      files.delete(id);
      return { id, part: 'done' };
    }
    return { id, part: 'messages', messages: part.value };
  }
  if (request.kind === 'cards') {
    try {
      const read = readCardsFile(request.bytes, { maxCards: request.maxCards });
      const count = await loadTokenCounter();
      return { id, part: 'cards', read, tokens: read.cards.map((card) => count(card.content)) };
    } catch (error) {
      if (error instanceof CardFileError) return { id, part: 'refused', notJson: false, message: error.message };
      throw error;
    }
  }
  const checked = checkStoryFile(bufferOf(request.bytes).toString('utf8'));
  if (!checked.ok)
    return { id, part: 'refused', notJson: checked.notJson === true, message: checked.notJson ? '' : checked.message };
  files.set(id, partsOf(checked.messages));
  return { id, part: 'story', story: checked.story };
}

port.on('message', async (request: WorkerRequest) => {
  let reply: WorkerAnswer;
  try {
    reply = await answer(request);
  } catch (error) {
    files.delete(request.id);
    reply = { id: request.id, part: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
