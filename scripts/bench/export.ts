// `npm run bench:export`: the server's memory while a player downloads 'Your Data' (GET
// /api/user/export) holding about 1 GB of stories. The server runs as `npm start` runs it (the
// compiled bundle with its node flags, a 512 MB heap, in its own process). One player's stories
// are written straight into its database while it is stopped, through the repositories: a story
// of BENCH_TURNS turns (default 1,000) by the builtin narrator, then branches of it (each a copy of
// every turn, as 'Branch from here' makes) until the stories' texts reach BENCH_EXPORT_MB (default
// 1,024 MB). The download is then read over real HTTP as a browser asks for it (brotli), unpacked
// and checked as it arrives (complete, every story in it) without being kept, while the server's
// RSS is sampled every 100 ms and GET /healthz is timed every 100 ms beside it (how long the event
// loop was held). On embedded PGlite (a temporary data dir) and, with TEST_DATABASE_URL or
// BENCH_DATABASE_URL, on PostgreSQL (database tw_bench_export, created and dropped here).
// `--server-dir DIR[,DIR…]` measures those checkouts' servers (before / after) one after the other
// on the same data; `--identity` downloads uncompressed. Prints figures; asserts nothing.
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { createBrotliDecompress } from 'node:zlib';
import { createRepositories } from '../../server/db/repositories';
import { registerOverHttp } from '../../server/test/spawn-server';
import { writeLongStory } from './lib/long-story';
import {
  openStore,
  openStoreDatabase,
  pgAdminUrl,
  rssMb,
  startApp,
  stopProcess,
  type AppStore,
  type Backend,
} from './lib/processes';
import { percentile } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    'server-dir': { type: 'string', default: '.' },
    backends: { type: 'string' },
    identity: { type: 'boolean', default: false },
  },
});
const TURNS = Number(process.env.BENCH_TURNS ?? 1000);
const TARGET_MB = Number(process.env.BENCH_EXPORT_MB ?? 1024);
const PG_NAME = 'tw_bench_export';
const MB = 1024 * 1024;

/** The app's environment: the offline narrator, the store, pictures off (none would be painted). */
function benchEnv(store: AppStore): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: store.dataDir,
    DATABASE_URL: store.databaseUrl,
    SERVE_CLIENT: 'false',
    LOG_LEVEL: 'warn',
    LLM_PROVIDER: 'builtin',
    IMAGE_PROVIDER: 'none',
  };
}

/** One long story through the repositories, then branches of it until the texts reach TARGET_MB. */
async function seedStories(store: AppStore, userId: number): Promise<{ stories: number; textBytes: number }> {
  const database = await openStoreDatabase(store);
  try {
    const repos = createRepositories(database.db);
    const { storyId, lastReplyId } = await writeLongStory(repos, userId, TURNS);
    const textOf = async () =>
      Number(
        (
          (await database.executeSql('select coalesce(sum(octet_length(content)), 0)::bigint as n from story_messages'))
            .rows[0] as { n: string }
        ).n,
      );
    const perStory = await textOf();
    let stories = 1;
    const started = performance.now();
    // Seeded as the database would hold them, past USER_MAX_STORIES: the repositories check no quota given none.
    while (stories * perStory < TARGET_MB * MB) {
      const branch = await repos.storyBranches.branch({
        storyId,
        userId,
        messageId: lastReplyId,
        title: `Branch ${stories}`,
        now: new Date(),
        quotas: {},
      });
      if (typeof branch !== 'number') throw new Error(`branch failed: ${branch}`);
      stories += 1;
      if (stories % 100 === 0)
        console.log(
          `  ${stories} stories, ${((stories * perStory) / MB).toFixed(0)} MB of text, ${((performance.now() - started) / 1000).toFixed(0)} s`,
        );
    }
    return { stories, textBytes: await textOf() };
  } finally {
    await database.close();
  }
}

interface Download {
  status: number;
  /** Bytes on the wire (compressed) and of the file (unpacked). */
  wireBytes: number;
  fileBytes: number;
  stories: number;
  complete: boolean;
  ms: number;
  error?: string;
}

/** Reads the download as a browser would, unpacking and checking it as it arrives, keeping none of it. */
function download(base: string, cookie: string, identity: boolean): Promise<Download> {
  const started = performance.now();
  return new Promise((resolve) => {
    const result: Download = { status: 0, wireBytes: 0, fileBytes: 0, stories: 0, complete: false, ms: 0 };
    const done = (error?: string) => {
      result.ms = performance.now() - started;
      if (error) result.error = error;
      resolve(result);
    };
    const req = request(
      `${base}/api/user/export`,
      { headers: { cookie, 'accept-encoding': identity ? 'identity' : 'gzip, deflate, br, zstd' } },
      (res) => {
        result.status = res.statusCode ?? 0;
        const unpacked = res.headers['content-encoding'] === 'br' ? res.pipe(createBrotliDecompress()) : res;
        res.on('data', (chunk: Buffer) => (result.wireBytes += chunk.length));
        // A story starts with its storyId, four spaces in (the file's pretty-printing); counted across chunk edges.
        const marker = '\n    {\n      "storyId": ';
        let tail = '';
        unpacked.on('data', (chunk: Buffer) => {
          result.fileBytes += chunk.length;
          const text = tail + chunk.toString('latin1');
          for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) result.stories += 1;
          tail = text.slice(-Math.max(marker.length - 1, 8));
        });
        unpacked.on('end', () => {
          result.complete = res.complete && tail.endsWith('\n  ]\n}\n');
          done();
        });
        unpacked.on('error', (error) => done(String(error)));
        res.on('aborted', () => done('connection aborted'));
      },
    );
    req.on('error', (error) => done(String(error)));
    req.end();
  });
}

/** Starts `serverDir`'s server on the seeded store, downloads the export beside the probes, prints a row. */
async function measureServer(
  label: string,
  serverDir: string,
  store: AppStore,
  cookie: string,
  seeded: { stories: number; textBytes: number },
): Promise<void> {
  const app = await startApp(serverDir, benchEnv(store));
  const pid = app.child.pid;
  let exited: string | null = null;
  app.child.on('exit', (code, signal) => (exited = `exited (${signal ?? code})`));
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idleRss = await rssMb(pid);
  const samples: number[] = [];
  const sampler = setInterval(() => void rssMb(pid).then((mb) => mb > 0 && samples.push(mb)), 100);
  // The event loop's availability: a probe every 100 ms on its own connection.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const probes: number[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const sent = performance.now();
      await new Promise<void>((resolve) => {
        const req = request(`${app.base}/healthz`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        });
        req.on('error', () => resolve());
        req.end();
      });
      probes.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const result = await download(app.base, cookie, args.identity);
  probing = false;
  await probe;
  clearInterval(sampler);
  agent.destroy();
  const peak = Math.max(idleRss, ...samples);
  const outcome = result.complete
    ? 'complete'
    : `INCOMPLETE (status ${result.status}${result.error ? `, ${result.error}` : ''}${exited ? `, server ${exited}` : ''})`;
  console.log(
    `\n${label}, server ${serverDir}, ${seeded.stories} stories (${(seeded.textBytes / MB).toFixed(0)} MB of text), ${args.identity ? 'identity' : 'brotli'}: ${outcome}`,
  );
  console.log(
    '| idle RSS MB | peak RSS MB | peak - idle MB | file MB | on the wire MB | stories in it | seconds | /healthz p50 / p99 / max ms | probes |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  console.log(
    `| ${idleRss.toFixed(0)} | ${peak.toFixed(0)} | ${(peak - idleRss).toFixed(0)} | ${(result.fileBytes / MB).toFixed(0)} | ${(result.wireBytes / MB).toFixed(1)} | ${result.stories} | ${(result.ms / 1000).toFixed(1)} | ${[50, 99].map((p) => percentile(probes, p).toFixed(1)).join(' / ')} / ${Math.max(...probes).toFixed(1)} | ${probes.length} |`,
  );
  await stopProcess(app.child);
}

async function measureBackend(backend: Backend): Promise<void> {
  const label = backend === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const serverDirs = args['server-dir'].split(',');
  const { store, cleanUp } = await openStore(backend, PG_NAME);
  try {
    const app = await startApp(serverDirs[0], benchEnv(store));
    const cookie = await registerOverHttp(app.base, `bench${Date.now()}`, 'benchmark-password');
    const userId = (await (await fetch(`${app.base}/api/user`, { headers: { cookie } })).json()).id as number;
    await stopProcess(app.child);
    const seeding = performance.now();
    const seeded = await seedStories(store, userId);
    console.log(
      `${label}: seeded ${seeded.stories} stories of ${TURNS} turns, ${(seeded.textBytes / MB).toFixed(0)} MB of text, in ${((performance.now() - seeding) / 1000).toFixed(0)} s`,
    );
    for (const serverDir of serverDirs) await measureServer(label, serverDir, store, cookie, seeded);
  } finally {
    await cleanUp();
  }
}

const backends = (args.backends ?? (pgAdminUrl() ? 'pglite,postgres' : 'pglite')).split(',') as Backend[];
for (const backend of backends) await measureBackend(backend);
if (!pgAdminUrl())
  console.log('\nPostgreSQL skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).');
