// An exclusive lock on DATA_DIR. Two processes opening one PGlite data dir silently lose committed
// rows (stack notes), so the second one must refuse to start; but a supervisor restarting us after
// a crash must not be refused. The lock is the file DATA_DIR/taleweaver.lock naming its owner
// (lock-owner.ts). It is created whole and atomically (a synced temporary file hard-linked into
// place: link fails if the name exists), so a reader never sees half a record. A lock whose owner
// is provably dead on this machine is taken over at once; a live owner always blocks, even one
// whose event loop is stuck in a long query; a lock from another machine, or one we cannot read,
// is taken over only once its owner stopped refreshing it for STALE_MS.
//
// Taking over is a compare-and-swap made of exclusive creates: to remove a dead lock whose text
// is T, a starter must first create `taleweaver.lock.claim-<hash of T>`. Only one starter can;
// it removes the lock only if the text is still T, so two starters never both take it over, and a
// lock written meanwhile by a third is never removed. A claimer that dies holding its claim leaves
// a claim file that is itself a dead lock, taken over the same way.
import { createHash, randomUUID } from 'node:crypto';
import { link, lstat, mkdir, open, readdir, readFile, rm, rmdir, unlink, utimes } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import {
  describeSelf,
  ownerState,
  parseLockRecord,
  probeSocket,
  STALE_MS,
  type LockRecord,
  type OwnerState,
} from './lock-owner';

const LOCK_NAME = 'taleweaver.lock';
const REFRESH_MS = STALE_MS / 3;
/** Longest socket path the kernel takes (sun_path is 108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

export class DataDirLockedError extends Error {
  constructor(dataDir: string, owner?: LockRecord | null) {
    const who = owner ? ` (process ${owner.pid} on ${owner.hostname}, since ${owner.since})` : '';
    super(
      `Another Taleweaver process is using the data directory ${dataDir}${who}. ` +
        'Stop it first, point DATA_DIR at another directory, or use DATABASE_URL for a shared PostgreSQL. ' +
        'A lock left by a process that stopped or crashed on this machine is taken over at once; ' +
        `one from another machine is taken over once it has gone ${STALE_MS / 1000} seconds without a refresh.`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface LockOptions {
  /** How often the owner refreshes the lock file's mtime and checks it still owns it (tests shorten it). */
  refreshMs?: number;
}

interface Holder {
  /** The file's text (a directory, left by an older version's lock, stands as its inode and mtime). */
  raw: string;
  record: LockRecord | null;
  mtimeMs: number;
  isDirectory: boolean;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readHolder(path: string): Promise<Holder | null> {
  try {
    const stats = await lstat(path);
    if (stats.isDirectory())
      return {
        raw: `directory ${stats.ino} ${stats.mtimeMs}`,
        record: null,
        mtimeMs: stats.mtimeMs,
        isDirectory: true,
      };
    const raw = await readFile(path, 'utf8');
    return { raw, record: parseLockRecord(raw), mtimeMs: stats.mtimeMs, isDirectory: false };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Creates `path` with the content of `source`, or answers false when `path` exists. */
async function linkExclusive(source: string, path: string): Promise<boolean> {
  try {
    await link(source, path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

async function writeSynced(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Listens on a socket in DATA_DIR for checks from other pid namespaces; null where that cannot be done. */
function listenOnSocket(path: string): Promise<Server | null> {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH || process.platform === 'win32') return Promise.resolve(null);
  return new Promise((resolve) => {
    const server = createServer((connection) => connection.destroy());
    // Before listening an error means no socket (a file system without them); after, a failed
    // accept must not crash the server: the socket only answers "still running".
    server.on('error', () => {
      if (!server.listening) resolve(null);
    });
    server.listen(path, () => {
      server.unref();
      resolve(server);
    });
  });
}

export async function lockDataDir(
  dataDir: string,
  onLost: (error: Error) => void,
  options: LockOptions = {},
): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const lockPath = join(dataDir, LOCK_NAME);
  const inDir = (name: string) => join(dataDir, name);
  const nonce = randomUUID();
  const tag = nonce.slice(0, 8);
  const socketName = `${LOCK_NAME}.${tag}.sock`;
  const server = await listenOnSocket(inDir(socketName));
  const record: LockRecord = {
    ...(await describeSelf()),
    socket: server ? socketName : null,
    nonce,
    since: new Date().toISOString(),
  };
  const content = JSON.stringify(record);
  const draft = inDir(`${LOCK_NAME}.${tag}.tmp`);

  const stateOf = async (holder: Holder): Promise<OwnerState> =>
    holder.record
      ? ownerState(holder.record, holder.mtimeMs, inDir)
      : Date.now() - holder.mtimeMs < STALE_MS
        ? 'alive'
        : 'dead';

  /** Removes the dead lock `holder` at `path` unless another starter is already doing it. */
  async function removeDead(path: string, holder: Holder, depth: number): Promise<void> {
    const claim = `${path}.claim-${createHash('sha256').update(holder.raw).digest('hex').slice(0, 16)}`;
    if (await linkExclusive(draft, claim)) {
      try {
        const now = await readHolder(path);
        if (now?.raw === holder.raw) await (holder.isDirectory ? rmdir(path) : unlink(path));
      } finally {
        await rm(claim, { force: true });
      }
      return;
    }
    const claimer = await readHolder(claim);
    if (!claimer) return;
    if (depth < 3 && (await stateOf(claimer)) === 'dead') return removeDead(claim, claimer, depth + 1);
    // A live starter is taking it over this very moment: look again once it is done.
    await sleep(20);
  }

  async function acquire(): Promise<void> {
    let holder: Holder | null = null;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      if (await linkExclusive(draft, lockPath)) return;
      holder = await readHolder(lockPath);
      if (!holder) continue;
      if ((await stateOf(holder)) === 'alive') break;
      await removeDead(lockPath, holder, 0);
    }
    throw new DataDirLockedError(dataDir, holder?.record);
  }

  /** Claims and drafts left by starters that died mid-way, and sockets nobody listens on. */
  async function sweepLeftovers(): Promise<void> {
    for (const name of await readdir(dataDir)) {
      if (!name.startsWith(`${LOCK_NAME}.`) || name.includes(tag)) continue;
      const path = inDir(name);
      if (name.endsWith('.sock')) {
        if ((await probeSocket(path)) === 'dead') await rm(path, { force: true });
        continue;
      }
      const leftover = await readHolder(path).catch(() => null);
      if (leftover && !leftover.isDirectory && (await stateOf(leftover)) === 'dead') await rm(path, { force: true });
    }
  }

  const closeSocket = async () => {
    if (!server) return;
    await new Promise((resolve) => server.close(resolve));
    await rm(inDir(socketName), { force: true });
  };

  try {
    await writeSynced(draft, content);
    await acquire();
  } catch (error) {
    await closeSocket();
    throw error;
  } finally {
    await rm(draft, { force: true });
  }
  // Tidying up is best effort: a failure here must not stop a start that holds the lock.
  await sweepLeftovers().catch(() => {});

  let lastRefresh = Date.now();
  let lost = false;
  const lose = (error: Error) => {
    if (lost) return;
    lost = true;
    clearInterval(timer);
    onLost(error);
  };
  const refresh = async () => {
    try {
      if ((await readFile(lockPath, 'utf8')) !== content)
        return lose(new Error(`${lockPath} now names another process`));
      const now = new Date();
      await utimes(lockPath, now, now);
      lastRefresh = Date.now();
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return lose(new Error(`${lockPath} was removed`));
      // A passing I/O error is retried; one that lasts until others may call us stale is fatal.
      if (Date.now() - lastRefresh >= STALE_MS) lose(error as Error);
    }
  };
  const timer = setInterval(() => void refresh(), options.refreshMs ?? REFRESH_MS);
  timer.unref();

  let released = false;
  return async () => {
    if (released) return;
    released = true;
    clearInterval(timer);
    if (!lost && (await readFile(lockPath, 'utf8').catch(() => null)) === content)
      await unlink(lockPath).catch(() => {});
    await closeSocket();
  };
}
