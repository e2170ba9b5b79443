// Who holds the DATA_DIR lock, and is that process still running? The lock file records its
// owner (pid, the process's start time, the kernel's boot id, the pid namespace, the host name)
// so a starter can tell at once that the owner died (kill -9, OOM, power cut in a container)
// instead of waiting for the lock to go stale. Only facts the kernel answers for certain decide
// "dead"; whatever cannot be checked from here (another machine sharing the directory, another
// container without the socket) falls back to staleness: the owner refreshes the file's mtime.
import { readFile, readlink } from 'node:fs/promises';
import { connect } from 'node:net';
import { hostname } from 'node:os';

/** What the lock file holds (JSON). */
export interface LockRecord {
  pid: number;
  hostname: string;
  /** /proc/sys/kernel/random/boot_id: equal only on the same running kernel (null off Linux). */
  bootId: string | null;
  /** /proc/self/ns/pid: pids are only comparable inside one pid namespace (null off Linux). */
  pidNamespace: string | null;
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot): tells a reused pid from the owner. */
  startTime: string | null;
  /** A socket the owner listens on in DATA_DIR (a name in it), for checks across pid namespaces. */
  socket: string | null;
  /** Makes every lock generation's content unique (takeover claims are named after it). */
  nonce: string;
  since: string;
}

export type OwnerState = 'alive' | 'dead';

/** An owner whose file was not refreshed for this long is presumed gone when nothing better is known. */
export const STALE_MS = 15_000;

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/** A process's state letter and start time from /proc, null where they cannot be read (no /proc, or it is gone). */
async function processStat(pid: number): Promise<{ state: string; startTime: string } | null> {
  const stat = await readOrNull(`/proc/${pid}/stat`);
  if (!stat) return null;
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ? { state: fields[0], startTime: fields[19] } : null;
}

let self: Promise<Omit<LockRecord, 'socket' | 'nonce' | 'since'>> | null = null;

export function describeSelf(): Promise<Omit<LockRecord, 'socket' | 'nonce' | 'since'>> {
  self ??= (async () => ({
    pid: process.pid,
    hostname: hostname(),
    bootId: (await readOrNull('/proc/sys/kernel/random/boot_id'))?.trim() || null,
    pidNamespace: await readlink('/proc/self/ns/pid').catch(() => null),
    startTime: (await processStat(process.pid))?.startTime ?? null,
  }))();
  return self;
}

const nullableString = (v: unknown) => v === null || typeof v === 'string';

/** The record in a lock file's text, or null for anything else (garbage, a truncated write). */
export function parseLockRecord(text: string): LockRecord | null {
  let value: Partial<LockRecord>;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  // A pid of 0 or below would address a process group in kill(): never act on one.
  if (!Number.isSafeInteger(value.pid) || (value.pid as number) <= 0) return null;
  if (typeof value.hostname !== 'string' || typeof value.nonce !== 'string') return null;
  if (![value.bootId, value.pidNamespace, value.startTime, value.socket].every(nullableString)) return null;
  return value as LockRecord;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** 'alive' when something accepts on the socket, 'dead' when nobody listens there any more. */
export function probeSocket(path: string, timeoutMs = 1000): Promise<OwnerState | 'unknown'> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (state: OwnerState | 'unknown') => {
      socket.destroy();
      resolve(state);
    };
    socket.setTimeout(timeoutMs, () => done('unknown'));
    socket.once('connect', () => done('alive'));
    // ECONNREFUSED: the file is there and nobody listens (its owner died). ENOENT proves nothing:
    // someone may have deleted the file under a live owner.
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED' ? 'dead' : 'unknown'));
  });
}

/**
 * Decides whether a lock's owner is still running. `mtimeMs` is the lock file's last refresh;
 * `socketPath` resolves the record's socket name inside this data directory.
 */
export async function ownerState(
  record: LockRecord,
  mtimeMs: number,
  socketPath: (name: string) => string,
  now = Date.now(),
): Promise<OwnerState> {
  const fresh: OwnerState = now - mtimeMs < STALE_MS ? 'alive' : 'dead';
  const me = await describeSelf();
  const sameKernel =
    me.bootId !== null ? record.bootId === me.bootId : record.bootId === null && record.hostname === me.hostname;
  if (!sameKernel) return fresh;
  if (record.pidNamespace === me.pidNamespace) {
    if (!pidExists(record.pid)) return 'dead';
    const stat = await processStat(record.pid);
    // A killed process stays a zombie until its parent reaps it (slowly, or never under a pid 1
    // that does not reap): it still answers kill(pid, 0), but it has let go of everything.
    if (stat && (stat.state === 'Z' || stat.state === 'X')) return 'dead';
    if (record.startTime !== null && stat !== null) return stat.startTime === record.startTime ? 'alive' : 'dead';
    // No start time to compare (not Linux): the pid may have been reused; the refreshes tell.
    return fresh;
  }
  // Another pid namespace on this kernel (the container restarted): its pid means nothing here,
  // but its socket in the shared directory still answers while it runs.
  if (record.socket) {
    const probed = await probeSocket(socketPath(record.socket));
    if (probed !== 'unknown') return probed;
  }
  return fresh;
}
