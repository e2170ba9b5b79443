// Checks imported files off the event loop: one worker thread (story-file-worker.ts), started on
// the first import and kept, takes each file's bytes in turn and answers its story, then its
// messages a part at a time, each asked for on a later turn of the event loop than the last. If the
// thread dies, the files it held fail (a 500, logged) and the next import starts a new one. Under
// tsx (tests, `npm run dev`) the worker runs from its TypeScript source through tsx's loader; the
// compiled server starts the bundled story-file-worker.js beside main.js.
import { Worker } from 'node:worker_threads';
import type { ImportedMessage } from '@server/db/repositories/story-files';
import type { ImportedStory } from './story-file-check';
import type { WorkerAnswer, WorkerRequest } from './story-file-worker';

export type ReadStoryFile =
  { ok: true; story: ImportedStory; messages: ImportedMessage[] } | { ok: false; notJson: boolean; message: string };

interface Pending {
  resolve: (result: ReadStoryFile) => void;
  reject: (error: Error) => void;
  story?: ImportedStory;
  messages: ImportedMessage[];
}

/** The worker thread itself (exported for its protocol's test). */
export function startStoryFileWorker(): Worker {
  if (import.meta.url.endsWith('.ts')) {
    const source = new URL('./story-file-worker.ts', import.meta.url).href;
    return new Worker(
      `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`,
      { eval: true },
    );
  }
  return new Worker(new URL('./story-file-worker.js', import.meta.url));
}

export function createStoryFileReader() {
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
    const started = startStoryFileWorker();
    // Not a reason for the process to stay alive; closed with the app.
    started.unref();
    const askForNext = (id: number) =>
      setImmediate(
        () => pending.has(id) && worker === started && started.postMessage({ id, next: true } satisfies WorkerRequest),
      );
    started.on('message', (answer: WorkerAnswer) => {
      const job = pending.get(answer.id);
      if (!job) return;
      if (answer.part === 'story') {
        job.story = answer.story;
        askForNext(answer.id);
      } else if (answer.part === 'messages') {
        for (const message of answer.messages) job.messages.push(message);
        askForNext(answer.id);
      } else {
        pending.delete(answer.id);
        job.resolve(
          answer.part === 'done'
            ? { ok: true, story: job.story!, messages: job.messages }
            : { ok: false, notJson: answer.notJson, message: answer.message },
        );
      }
    });
    started.on('error', (error) => failAll(error));
    started.on('exit', (code) => {
      if (worker === started) failAll(new Error(`the story file worker stopped (exit code ${code})`));
    });
    worker = started;
    return started;
  }

  return {
    /** Checks a file's bytes (UTF-8 JSON) in the worker: its story and messages, or why it is not one. */
    read(body: Uint8Array): Promise<ReadStoryFile> {
      const id = nextId++;
      // A copy of exactly the body, handed over rather than copied again (the request's buffer may be shared).
      const bytes = new Uint8Array(body);
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, messages: [] });
        running().postMessage({ id, bytes } satisfies WorkerRequest, [bytes.buffer]);
      });
    },

    async close(): Promise<void> {
      const current = worker;
      worker = null;
      failAll(new Error('the app is closing'));
      await current?.terminate();
    },
  };
}
export type StoryFileReader = ReturnType<typeof createStoryFileReader>;
