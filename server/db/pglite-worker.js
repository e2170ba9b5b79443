// The embedded database's own thread. PGlite runs PostgreSQL compiled to WebAssembly synchronously
// on whichever thread calls it; on the server's event loop every statement stalled every stream in
// between. Here it runs beside the event loop and speaks PostgreSQL's wire protocol: the server's
// node-postgres pool (server/db/pglite-thread.ts) sends the bytes it would send to a PostgreSQL
// server, and gets PostgreSQL's answer bytes back, so both backends share one driver.
//
// PGlite has one session, but the pool has several connections, so that statements from many
// requests queue here, back to back, rather than each waiting for the one before to travel back to
// the server's busy event loop. What keeps them apart on one session:
// - a connection in a transaction (its last answer's ReadyForQuery said so) has the session to
//   itself: the others' messages wait until it ends;
// - prepared statements are renamed per connection ("c3_<name>"), since each connection prepares
//   its own;
// - a connection that goes away has its transaction rolled back and its statements deallocated.
// Plain JavaScript on purpose: a worker is started from a file, and this file must load the same way
// under tsx, Vitest and the compiled server.
import { closeSync, fdatasyncSync, fsyncSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { renameStatements } from './pglite-wire.js';

/** @type {{ dataDir?: string, loadDataDir?: ArrayBuffer, startParams: string[], baselineCompiler: boolean }} */
const options = workerData;
// Set before PGlite compiles its module (in PGlite.create, not at import). V8 compiles a module with
// Liftoff, then recompiles the functions that run often with TurboFan in the background; the
// recompiling is most of a start's CPU, and pays back only over a long life.
if (options.baselineCompiler) setFlagsFromString('--liftoff-only');

/** A PostgreSQL error's fields (code, detail, ...) survive the trip; an Error's own would not. */
function describeError(error) {
  const fields = { message: error instanceof Error ? error.message : String(error) };
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (value !== undefined && typeof value !== 'function' && typeof value !== 'object') fields[key] = value;
    }
  }
  return fields;
}

let db;
try {
  db = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir ? new Blob([options.loadDataDir]) : undefined,
    // Trigram indexes make the admin's search by part of a name an index lookup (migration 0006).
    extensions: { pg_trgm },
    startParams: options.startParams,
  });
} catch (error) {
  // Message 0 answers the start; the thread then ends with nothing left to do.
  parentPort.postMessage({ id: 0, ok: false, error: describeError(error) });
}

/** Prepared statement names (as renamed) per open connection. */
const statements = new Map();
/** The connection whose transaction is open, or null. */
let owner = null;
/** Whether anything ran since the WAL was last made durable. */
let unsynced = false;
/**
 * The newest WAL segment at the last sync. The WAL is written in order, segment after segment, so
 * an older segment was complete and synced then and is never written again: only this one and any
 * newer need a sync. (PGlite never checkpoints while it runs, so old segments pile up; syncing every
 * one of them made each flush slower as the server ran: 0.6 ms after a minute at 200 players, 1.1
 * ms after four.)
 */
let syncedSegment = '';
const SEGMENT_NAME = /^[0-9A-F]{24}$/;

const READY_FOR_QUERY = 0x5a;
const IDLE = 0x49;

/**
 * Makes everything PGlite has written to its WAL durable: PGlite never calls fsync itself. Run
 * here, between statements, it needs no locking and costs the syscalls alone; flushes that queue
 * up behind each other are served by one.
 */
function syncWal() {
  if (!options.dataDir || !unsynced) return false;
  const walDir = join(options.dataDir, 'pg_wal');
  let newest = syncedSegment;
  for (const entry of readdirSync(walDir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const segment = SEGMENT_NAME.test(entry.name);
    if (segment && entry.name < syncedSegment) continue;
    if (segment && entry.name > newest) newest = entry.name;
    const fd = openSync(join(walDir, entry.name), 'r');
    try {
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  const dirFd = openSync(walDir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
  // Only now: a failed fsync leaves the WAL unsynced, so the next flush tries again. (No statement
  // can run in between: these calls hold the thread.)
  unsynced = false;
  syncedSegment = newest;
  return true;
}

/**
 * Checkpoints once `walBytes` of WAL have been written since the last checkpoint; answers whether it
 * did. PGlite runs as a single backend, which never checkpoints on its own while it runs (only a
 * server's checkpointer does): its WAL grew by about 4 KB a story turn until the process stopped,
 * and a restart after a crash had all of it to replay. Run here, like any message, it waits until no
 * transaction is open. A checkpoint makes the WAL before it unneeded: the caller then syncs the data
 * files it wrote (PGlite does not) before anything else.
 */
async function checkpointIfDue(walBytes) {
  const { rows } = await db.query(
    'select pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::float8 as written from pg_control_checkpoint()',
  );
  if (!(rows[0]?.written >= walBytes)) return false;
  await db.exec('CHECKPOINT');
  return true;
}

/**
 * Runs a batch and answers its raw output. Through execProtocolRawStream, not execProtocolRaw: the
 * latter also parses every answer into a list that nothing ever empties, so the thread's heap
 * grew by about 22 KB a story turn (4 MB/s at 200 players) until the process died.
 */
async function execute(bytes) {
  const pieces = [];
  let length = 0;
  await db.execProtocolRawStream(bytes, {
    // Each piece is a view into PGlite's own buffer, reused for the next: copied as it comes.
    onRawData: (piece) => {
      pieces.push(piece.slice());
      length += piece.length;
    },
  });
  if (pieces.length === 1) return pieces[0];
  const answer = new Uint8Array(length);
  let offset = 0;
  for (const piece of pieces) {
    answer.set(piece, offset);
    offset += piece.length;
  }
  return answer;
}

async function runWire(connection, bytes) {
  let known = statements.get(connection);
  if (!known) statements.set(connection, (known = new Set()));
  const answer = await execute(renameStatements(bytes, `c${connection}_`, known));
  unsynced = true;
  // The answer ends with ReadyForQuery, whose status says whether a transaction is still open.
  if (answer.length >= 6 && answer[answer.length - 6] === READY_FOR_QUERY)
    owner = answer[answer.length - 1] === IDLE ? null : connection;
  return answer;
}

async function disconnect(connection) {
  if (owner === connection) {
    await db.exec('ROLLBACK');
    owner = null;
  }
  for (const name of statements.get(connection) ?? []) {
    // A Parse that failed left no statement behind: nothing to deallocate then.
    await db.exec(`DEALLOCATE "${name.replaceAll('"', '""')}"`).catch(() => {});
  }
  statements.delete(connection);
  return null;
}

async function handle(message) {
  switch (message.op) {
    case 'wire':
      return runWire(message.connection, message.bytes);
    case 'disconnect':
      return disconnect(message.connection);
    case 'flush':
      return syncWal();
    case 'checkpoint':
      return checkpointIfDue(message.walBytes);
    case 'dump':
      return new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error(`Unknown operation ${message.op}`);
  }
}

const queue = [];
let draining = false;

/** The next message that may run: any while no transaction is open, else the owner's (or a flush). */
function nextRunnable() {
  const index =
    owner === null ? 0 : queue.findIndex((message) => message.connection === owner || message.op === 'flush');
  return index === -1 ? null : queue.splice(index, 1)[0];
}

async function drain() {
  draining = true;
  for (let message = nextRunnable(); message; message = nextRunnable()) {
    try {
      const value = await handle(message);
      parentPort.postMessage({ id: message.id, ok: true, value }, value instanceof Uint8Array ? [value.buffer] : []);
    } catch (error) {
      parentPort.postMessage({ id: message.id, ok: false, error: describeError(error) });
      // PostgreSQL inside PGlite stopped (it exits on a fatal error): nothing more can be answered,
      // so the thread ends and the server hears of it.
      if (error?.name === 'ExitStatus') process.exit(1);
    }
  }
  draining = false;
}

if (db) {
  parentPort.on('message', (message) => {
    queue.push(message);
    if (!draining) void drain();
  });
  parentPort.postMessage({ id: 0, ok: true, value: 'ready' });
}
