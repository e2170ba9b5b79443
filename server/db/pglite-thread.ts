// The server's side of the embedded database thread (pglite-worker.js). PGlite runs there and
// answers PostgreSQL's wire protocol; here each connection is a stream that node-postgres writes
// to as it would to a PostgreSQL socket, so the embedded database is reached through the same
// driver, Drizzle dialect and migrator as PostgreSQL. A query's protocol messages (parse, bind,
// execute, sync) are written in one tick and cross to the thread as one batch. The thread also
// makes the WAL durable (flush), between statements, where it costs only the syscalls.
import { Duplex } from 'node:stream';
import { Worker } from 'node:worker_threads';

export interface PGliteThreadOptions {
  dataDir?: string;
  /** A dumped data dir to start from (tests clone a migrated database this way). */
  loadDataDir?: Uint8Array;
  startParams: string[];
  /**
   * V8's baseline compiler (Liftoff) alone for the WebAssembly: about 40 % less CPU to start, warm
   * queries about a fifth slower (docs/benchmarks.md). V8's flags are the process's, so this holds
   * for all WebAssembly the process compiles later (the embedded databases are its only).
   */
  baselineCompiler?: boolean;
  /** Called once if the thread dies while the server still needs it. */
  onExit?: (error: Error) => void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

type Reply = { id: number; ok: boolean; value?: unknown; error?: { message: string } };
type Request =
  | { op: 'wire'; connection: number; bytes: Uint8Array }
  | { op: 'disconnect'; connection: number }
  | { op: 'checkpoint'; walBytes: number }
  | { op: 'flush' | 'dump' | 'close' };

/** The protocol's Terminate message: a client closing its connection. PGlite's one session must live on. */
const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4]);

export class PGliteThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private nextConnection = 1;
  private failure: Error | null = null;
  private closing = false;
  private readonly exitListeners: Array<(error: Error) => void> = [];

  private constructor(private readonly worker: Worker) {}

  static async start(options: PGliteThreadOptions): Promise<PGliteThread> {
    const loadDataDir = options.loadDataDir ? options.loadDataDir.slice().buffer : undefined;
    const worker = new Worker(new URL('./pglite-worker.js', import.meta.url), {
      workerData: {
        dataDir: options.dataDir,
        loadDataDir,
        startParams: options.startParams,
        baselineCompiler: options.baselineCompiler ?? false,
      },
      transferList: loadDataDir ? [loadDataDir] : [],
      // Plain Node in the thread, whatever loader the server runs under (tsx, Vitest): it loads one
      // JavaScript file. PGlite's JavaScript allocates little; its memory is the WebAssembly heap.
      execArgv: [],
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    const thread = new PGliteThread(worker);
    const ready = new Promise<unknown>((resolve, reject) => thread.pending.set(0, { resolve, reject }));
    worker.on('message', (reply: Reply) => thread.settle(reply));
    worker.on('error', (error) => thread.fail(error));
    worker.on('exit', (code) => thread.fail(new Error(`The embedded database thread stopped (exit code ${code})`)));
    await ready;
    if (options.onExit) thread.exitListeners.push(options.onExit);
    return thread;
  }

  private settle(reply: Reply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(Object.assign(new Error(reply.error!.message), reply.error));
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    if (!this.closing) for (const listener of this.exitListeners) listener(error);
  }

  private call<T>(request: Request): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    // Referenced while a request is out, so a script awaiting one does not exit under it.
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, ...request }, request.op === 'wire' ? [request.bytes.buffer as ArrayBuffer] : []);
    });
  }

  /** A new client connection (node-postgres's `stream` option). */
  connection(): Duplex {
    const connection = this.nextConnection++;
    return new WireConnection(
      (bytes) => this.call({ op: 'wire', connection, bytes }),
      () => this.call({ op: 'disconnect', connection }),
    );
  }

  /**
   * Resolves once every statement answered before the call is durable: the thread fsyncs the WAL
   * (PGlite never does) unless nothing ran since its last fsync. On-disk databases only.
   */
  flush(): Promise<boolean> {
    return this.call({ op: 'flush' });
  }

  /**
   * Checkpoints if `walBytes` of WAL or more were written since the last checkpoint (PGlite never
   * checkpoints on its own while it runs); answers whether it did. Sync the data files afterwards.
   */
  checkpointIfDue(walBytes: number): Promise<boolean> {
    return this.call({ op: 'checkpoint', walBytes });
  }

  /** The whole data dir as a tarball. */
  dumpDataDir(): Promise<Uint8Array> {
    return this.call({ op: 'dump' });
  }

  async close(): Promise<void> {
    if (this.failure) return;
    this.closing = true;
    await this.call({ op: 'close' });
    // A terminating thread no longer keeps the event loop alive, referenced or not: with nothing
    // else to do, the process would exit (code 0) before terminate() resolves, and whoever awaited
    // close() would never resume (Vitest's global setup did, and ran no test). A timer holds it.
    const keepAlive = setInterval(() => {}, 1000);
    try {
      await this.worker.terminate();
    } finally {
      clearInterval(keepAlive);
    }
  }
}

/** What node-postgres sees as its socket: writes gathered per tick go to the thread as one batch. */
class WireConnection extends Duplex {
  private batch: Buffer[] = [];
  private scheduled = false;
  private ended = false;

  constructor(
    private readonly send: (bytes: Uint8Array) => Promise<Uint8Array>,
    private readonly disconnect: () => Promise<unknown>,
  ) {
    super();
  }

  connect(): this {
    queueMicrotask(() => this.emit('connect'));
    return this;
  }

  // Socket methods node-postgres calls; there is no socket to tune.
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }

  _read(): void {}

  _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!chunk.equals(TERMINATE)) this.batch.push(chunk);
    if (!this.scheduled && this.batch.length > 0) {
      this.scheduled = true;
      queueMicrotask(() => this.flushBatch());
    }
    callback();
  }

  private flushBatch(): void {
    this.scheduled = false;
    const bytes = Buffer.concat(this.batch);
    this.batch = [];
    // A new buffer of its own (Buffer.concat may hand out a slice of a shared pool) to transfer.
    const owned = new Uint8Array(bytes.length);
    owned.set(bytes);
    this.send(owned).then(
      (answer) => {
        if (answer.length > 0) this.push(Buffer.from(answer.buffer, answer.byteOffset, answer.length));
      },
      (error: Error) => this.destroy(error),
    );
  }

  /** The client is gone (ended, or dropped after an error): the thread undoes what it left open. */
  private leave(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.batch.length > 0) this.flushBatch();
    this.disconnect().catch(() => {});
  }

  _final(callback: () => void): void {
    this.leave();
    this.push(null);
    callback();
  }

  _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.leave();
    callback(error);
  }
}
