// Reads imported files off the event loop: one worker thread (import-worker.ts), started on the
// first import and kept, takes each file's bytes in turn. A story file answers its story, then its
// messages a part at a time, each asked for on a later turn of the event loop than the last; a
// story cards' file answers its cards, their tokens and the entries set aside. If the thread dies, the files it
// held fail (a 500, logged) and the next import starts a new one; a fault reading one file fails
// that file alone. Under tsx (tests, `npm run dev`) the worker runs from its TypeScript source
// through tsx's loader; the compiled server starts the bundled import-worker.js beside main.js.
import { Worker } from 'node:worker_threads';
import type { ImportedMessage } from '@server/db/repositories/story-files';
import type { ReadCards } from '../cards/formats';
import type { ImportedStory } from './story-file-check';
import type { WorkerAnswer, WorkerRequest } from './import-worker';

export type ReadStoryFile =
  { ok: true; story: ImportedStory; messages: ImportedMessage[] } | { ok: false; notJson: boolean; message: string };

/** A cards file read: its cards, each content's tokens (`tokens[i]` of `read.cards[i]`), and what was set aside. */
export type ReadCardsFile = { ok: true; read: ReadCards; tokens: number[] } | { ok: false; message: string };

type Pending =
  | {
      kind: 'story';
      resolve: (result: ReadStoryFile) => void;
      reject: (error: Error) => void;
      story?: ImportedStory;
      messages: ImportedMessage[];
    }
  | { kind: 'cards'; resolve: (result: ReadCardsFile) => void; reject: (error: Error) => void };

/** The worker thread itself (exported for its protocol's test). */
export function startImportWorker(): Worker {
  if (import.meta.url.endsWith('.ts')) {
    const source = new URL('./import-worker.ts', import.meta.url).href;
    return new Worker(
      `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`,
      { eval: true },
    );
  }
  return new Worker(new URL('./import-worker.js', import.meta.url));
}

export function createImportReader() {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  function failAll(error: Error): void {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
    worker = null;
  }

  function running(): Worker {
    if (worker) return worker;
    const started = startImportWorker();
    // Not a reason for the process to stay alive; closed with the app.
    started.unref();
    const askForNext = (id: number) =>
      setImmediate(
        () => pending.has(id) && worker === started && started.postMessage({ id, next: true } satisfies WorkerRequest),
      );
    started.on('message', (answer: WorkerAnswer) => {
      const job = pending.get(answer.id);
      if (!job) return;
      if (job.kind === 'story' && answer.part === 'story') {
        job.story = answer.story;
        askForNext(answer.id);
        return;
      }
      if (job.kind === 'story' && answer.part === 'messages') {
        for (const message of answer.messages) job.messages.push(message);
        askForNext(answer.id);
        return;
      }
      pending.delete(answer.id);
      if (job.kind === 'story' && answer.part === 'done')
        job.resolve({ ok: true, story: job.story!, messages: job.messages });
      else if (job.kind === 'story' && answer.part === 'refused')
        job.resolve({ ok: false, notJson: answer.notJson, message: answer.message });
      else if (job.kind === 'cards' && answer.part === 'cards')
        job.resolve({ ok: true, read: answer.read, tokens: answer.tokens });
      else if (job.kind === 'cards' && answer.part === 'refused') job.resolve({ ok: false, message: answer.message });
      else if (answer.part === 'failed')
        job.reject(new Error(`the import worker could not read a file: ${answer.message}`));
      else job.reject(new Error(`the import worker answered '${answer.part}' to a ${job.kind} file`));
    });
    started.on('error', (error) => failAll(error));
    started.on('exit', (code) => {
      if (worker === started) failAll(new Error(`the import worker stopped (exit code ${code})`));
    });
    worker = started;
    return started;
  }

  /** Hands the worker a copy of exactly the body (the request's buffer may be shared), moved rather than copied again. */
  function send(job: Pending, request: (id: number, bytes: Uint8Array) => WorkerRequest, body: Uint8Array): void {
    const id = nextId++;
    const bytes = new Uint8Array(body);
    pending.set(id, job);
    running().postMessage(request(id, bytes), [bytes.buffer]);
  }

  return {
    /** Checks a story file's bytes (UTF-8 JSON) in the worker: its story and messages, or why it is not one. */
    readStory(body: Uint8Array): Promise<ReadStoryFile> {
      return new Promise((resolve, reject) =>
        send({ kind: 'story', resolve, reject, messages: [] }, (id, bytes) => ({ id, kind: 'story', bytes }), body),
      );
    },

    /** Reads a story cards' file (a lorebook or a character card, JSON or PNG) in the worker, for a story of at most `maxCards` cards. */
    readCards(body: Uint8Array, maxCards: number): Promise<ReadCardsFile> {
      return new Promise((resolve, reject) =>
        send({ kind: 'cards', resolve, reject }, (id, bytes) => ({ id, kind: 'cards', bytes, maxCards }), body),
      );
    },

    async close(): Promise<void> {
      const current = worker;
      worker = null;
      failAll(new Error('the app is closing'));
      await current?.terminate();
    },
  };
}
export type ImportReader = ReturnType<typeof createImportReader>;
