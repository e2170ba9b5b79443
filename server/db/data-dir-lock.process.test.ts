// The DATA_DIR lock against real processes: a live holder blocks, a killed one (even a zombie not
// yet reaped) is taken over on the first try, a reused pid or another pid namespace is told apart,
// what cannot be checked waits for staleness, and two starters never both win.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';
import { describeSelf, STALE_MS, type LockRecord } from './lock-owner';

let root: string;
let holderScript: string;
let dataDir: string;
const children: ChildProcess[] = [];
const releases: Array<() => Promise<void>> = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tw-lock-'));
  holderScript = join(root, 'holder.mjs');
  const lockModule = pathToFileURL(fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url))).href;
  await writeFile(
    holderScript,
    `import { lockDataDir } from ${JSON.stringify(lockModule)};\n` +
      `await lockDataDir(process.argv[2], () => {});\n` +
      `console.log('locked ' + process.pid);\n` +
      `setInterval(() => {}, 1000);\n`,
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));
beforeEach(async () => {
  dataDir = join(root, randomUUID());
  await mkdir(dataDir);
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const release of releases.splice(0)) await release();
});

const lockPath = () => join(dataDir, 'taleweaver.lock');
const noop = () => {};

async function take(
  options?: { refreshMs?: number },
  onLost: (error: Error) => void = noop,
): Promise<() => Promise<void>> {
  const release = await lockDataDir(dataDir, onLost, options);
  releases.push(release);
  return release;
}

/** A process holding the lock; `zombie` leaves it unreaped once killed (its parent execs into sleep). */
async function holder(zombie = false): Promise<{ pid: number; exited: Promise<unknown> }> {
  const child = zombie
    ? spawn('sh', ['-c', '"$0" --import tsx "$1" "$2" & exec sleep 60', process.execPath, holderScript, dataDir], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
    : spawn(process.execPath, ['--import', 'tsx', holderScript, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const pid = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = /locked (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
  return { pid, exited };
}

async function writeRecord(changes: Partial<LockRecord>, mtime?: Date): Promise<void> {
  const record: LockRecord = {
    ...(await describeSelf()),
    socket: null,
    nonce: randomUUID(),
    since: new Date().toISOString(),
    ...changes,
  };
  await writeFile(lockPath(), JSON.stringify(record));
  if (mtime) await utimes(lockPath(), mtime, mtime);
}

const staleTime = () => new Date(Date.now() - STALE_MS - 5_000);

async function processState(pid: number): Promise<string | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat ? stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] : null;
}

describe('lockDataDir', () => {
  it('refuses while another process holds the lock and takes it on the first try once that process is killed', async () => {
    const other = await holder();
    const error = await take().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toMatch(/Another Taleweaver process is using the data directory/);
    expect((error as Error).message).toContain(`process ${other.pid}`);

    process.kill(other.pid, 'SIGKILL');
    await other.exited;
    await take();
    const record = JSON.parse(await readFile(lockPath(), 'utf8'));
    expect(record.pid).toBe(process.pid);
    // The killed holder's socket is tidied away; ours remains.
    expect((await readdir(dataDir)).filter((name) => name.endsWith('.sock'))).toEqual([record.socket]);
  }, 30_000);

  it.runIf(process.platform === 'linux')(
    'takes over from a killed holder its parent has not reaped yet (a zombie)',
    async () => {
      const other = await holder(true);
      process.kill(other.pid, 'SIGKILL');
      for (let i = 0; (await processState(other.pid)) !== 'Z'; i += 1) {
        if (i > 200) throw new Error('the holder never became a zombie');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await take();
      expect(JSON.parse(await readFile(lockPath(), 'utf8')).pid).toBe(process.pid);
    },
    30_000,
  );

  it('refuses a second lock in the same process, and the released lock can be taken again', async () => {
    const release = await take();
    await expect(take()).rejects.toBeInstanceOf(DataDirLockedError);
    await release();
    expect(await readdir(dataDir)).toEqual([]);
    await take();
  });

  it.runIf(process.platform === 'linux')(
    'takes over a lock whose pid now belongs to another process (another start time)',
    async () => {
      await writeRecord({ startTime: '1' });
      await take();
      expect(JSON.parse(await readFile(lockPath(), 'utf8')).startTime).not.toBe('1');
    },
  );

  it('waits for staleness when the owner is on another machine', async () => {
    await writeRecord({ hostname: 'elsewhere', bootId: 'another-boot', pid: 1 });
    await expect(take()).rejects.toThrow(/process 1 on elsewhere/);
    await utimes(lockPath(), staleTime(), staleTime());
    await take();
  });

  it.each([
    ['garbage', 'not a lock'],
    ['an empty file', ''],
    [
      'a pid that would name a process group',
      JSON.stringify({
        pid: 0,
        hostname: 'vm',
        nonce: 'x',
        bootId: null,
        pidNamespace: null,
        startTime: null,
        socket: null,
      }),
    ],
  ])('treats %s as a lock it cannot check: refused while fresh, taken once stale', async (_name, text) => {
    await writeFile(lockPath(), text);
    await expect(take()).rejects.toBeInstanceOf(DataDirLockedError);
    await utimes(lockPath(), staleTime(), staleTime());
    await take();
    expect(JSON.parse(await readFile(lockPath(), 'utf8')).pid).toBe(process.pid);
  });

  it("treats an older version's lock directory the same way", async () => {
    await mkdir(lockPath());
    await expect(take()).rejects.toBeInstanceOf(DataDirLockedError);
    await utimes(lockPath(), staleTime(), staleTime());
    await take();
    expect(JSON.parse(await readFile(lockPath(), 'utf8')).pid).toBe(process.pid);
  });

  it.runIf(process.platform === 'linux')(
    'asks the socket when the owner runs in another pid namespace',
    async () => {
      const other = await holder();
      // As a restarted container sees it: the same kernel, a pid from another namespace, a fresh file.
      const record = JSON.parse(await readFile(lockPath(), 'utf8'));
      await writeFile(lockPath(), JSON.stringify({ ...record, pidNamespace: 'pid:[1]', pid: 999_999 }));
      await expect(take()).rejects.toBeInstanceOf(DataDirLockedError);

      process.kill(other.pid, 'SIGKILL');
      await other.exited;
      await take();
    },
    30_000,
  );

  it('lets exactly one of several starters take over a dead lock', async () => {
    await writeRecord({ pid: 1, hostname: 'elsewhere', bootId: 'another-boot' }, staleTime());
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map(() => lockDataDir(dataDir, noop)));
    const won = results.filter((r): r is PromiseFulfilledResult<() => Promise<void>> => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    releases.push(won[0].value);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DataDirLockedError);
    expect((await readdir(dataDir)).filter((name) => name.includes('.claim-') || name.endsWith('.tmp'))).toEqual([]);
  });

  it('reports the lock lost when another process replaced the file', async () => {
    const lost = new Promise<Error>((resolve) => void take({ refreshMs: 20 }, resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await writeRecord({ pid: 1 });
    expect((await lost).message).toMatch(/names another process/);
  });
});
