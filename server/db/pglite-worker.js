// The embedded database's own thread. PGlite runs PostgreSQL compiled to WebAssembly synchronously
// on whichever thread calls it; on the server's event loop every statement stalled every stream in
// between. Here it runs beside the event loop and speaks PostgreSQL's wire protocol: the server's
// node-postgres client (server/db/pglite-thread.ts) sends the bytes it would send to a PostgreSQL
// server, and gets PostgreSQL's answer bytes back, so both backends share one driver.
// Plain JavaScript on purpose: a worker is started from a file, and this file must load the same way
// under tsx, Vitest and the compiled server.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** @type {{ dataDir?: string, loadDataDir?: ArrayBuffer, startParams: string[] }} */
const options = workerData;

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

async function handle(message) {
  switch (message.op) {
    case 'wire': {
      // One batch of protocol messages in, every answer they produced out. The answer may be a view
      // into PGlite's own buffers, so it is copied into a buffer of its own to hand over.
      const answer = await db.execProtocolRaw(message.bytes);
      return answer.slice();
    }
    case 'connect':
      // A new client connection on the one PostgreSQL session PGlite has: whatever a previous
      // client left (an open transaction, prepared statements) must not leak into it.
      // (Two statements: DISCARD ALL refuses to run inside the implicit transaction of a script.)
      await db.exec('ROLLBACK');
      await db.exec('DISCARD ALL');
      return null;
    case 'dump':
      return new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error(`Unknown operation ${message.op}`);
  }
}

if (db) {
  // One message at a time, in the order sent: the wire protocol is a conversation.
  let previous = Promise.resolve();
  parentPort.on('message', (message) => {
    previous = previous.then(() =>
      handle(message).then(
        (value) => parentPort.postMessage({ id: message.id, ok: true, value }, value instanceof Uint8Array ? [value.buffer] : []),
        (error) => {
          parentPort.postMessage({ id: message.id, ok: false, error: describeError(error) });
          // PostgreSQL inside PGlite stopped (it exits on a fatal error): nothing more can be
          // answered, so the thread ends and the server hears of it.
          if (error?.name === 'ExitStatus') process.exit(1);
        },
      ),
    );
  });
  parentPort.postMessage({ id: 0, ok: true, value: 'ready' });
}
