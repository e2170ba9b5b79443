// `npm run bench:branch`: what a branch (and the memory-bank indexing of an import before it) costs
// by the story's size and by its words. Stories of 100, 1,000 and 10,000 messages, in ordinary prose
// (the builtin narrator's replies, as bench:versions writes them) and in random words (every reply
// 300 random tokens: a new term for every word, which a story file costs nothing to hold), are
// written into the database as an import writes them (repos.storyFiles.importStory, the app
// stopped), then indexed by the memory bank's catch-up as an import's is (timed here, in process).
// Then the server runs as `npm start` runs it and each story is branched from its last message over
// real HTTP, BENCH_BRANCH_ROUNDS times (default 5; 2 at 10,000 messages), each branch deleted after
// (timed too). Printed per story: the catch-up's time and the terms its statistics keep, the
// branch's round trip p50 / max, the server's CPU time per branch (on PostgreSQL the database's own
// processes are not in it), the deletion's, and the terms the last branch kept. On PGlite (a temporary
// data dir) and, with TEST_DATABASE_URL or BENCH_DATABASE_URL, on PostgreSQL (database
// tw_bench_branch, created and dropped here). Asserts nothing.
//
//   --server-dir DIR   the server of another checkout (run this script from that checkout to seed
//                      with its own repositories when its schema differs)
//   --backends a,b     pglite, postgres (default: both when PostgreSQL is configured)
//   --sizes a,b        message counts (default 100,1000,10000)
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadEnglish } from '../../server/ai/llm/builtin/action';
import { composeReply } from '../../server/ai/llm/builtin/narrator';
import { createRepositories } from '../../server/db/repositories';
import type { ImportedMessage } from '../../server/db/repositories/story-files';
import { createMemoryBank } from '../../server/domains/story/memory/memory-bank';
import type { Log } from '../../server/kernel/log';
import { registerOverHttp } from '../../server/test/spawn-server';
import { randomWords } from './lib/abuse-files';
import { httpClient } from './lib/abuse-harness';
import { LONG_STORY_PREMISE } from './lib/long-story';
import {
  cpuMs,
  openStore,
  openStoreDatabase,
  pgAdminUrl,
  startApp,
  stopProcess,
  withStoreSql,
  type AppStore,
  type Backend,
} from './lib/processes';
import { maxOf, percentile } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    'server-dir': { type: 'string', default: '.' },
    backends: { type: 'string' },
    sizes: { type: 'string', default: '100,1000,10000' },
  },
});
const SIZES = args.sizes.split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_BRANCH_ROUNDS ?? 5);
const KINDS = ['prose', 'random words'] as const;
type Kind = (typeof KINDS)[number];
const ACTIONS = ['I look around', 'I follow the path north', 'I ask the stranger who they are', 'I open the old chest'];

interface Seeded {
  kind: Kind;
  messages: number;
  storyId: number;
  lastId: number;
  catchUpMs: number;
  /** The terms the source's statistics keep, and whether one was left out. */
  terms: string;
}

/** The story's messages: the premise, then actions and replies in turn (`count` in all). */
async function messagesOf(kind: Kind, count: number): Promise<ImportedMessage[]> {
  const english = await loadEnglish();
  const start = Date.UTC(2026, 0, 1);
  const messages: ImportedMessage[] = [
    { role: 'user', content: LONG_STORY_PREMISE, turn: 0, isInitial: true, createdAt: new Date(start) },
  ];
  const recent: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (let i = 1; i < count; i += 1) {
    const turn = Math.floor(i / 2);
    const role = i % 2 === 1 ? 'assistant' : 'user';
    const action = turn === 0 ? LONG_STORY_PREMISE : ACTIONS[turn % ACTIONS.length];
    const content =
      role === 'user'
        ? action
        : kind === 'random words'
          ? randomWords(300, 1000 + i)
          : composeReply(
              { storyId: 1, turn, attempt: 0, premise: LONG_STORY_PREMISE, action, recent: recent.slice(-6) },
              english,
            );
    if (kind === 'prose') recent.push({ role, content });
    messages.push({ role, content, turn, isInitial: false, createdAt: new Date(start + i * 60_000) });
  }
  return messages;
}

const logged: Log['warn'] = (object, message) => console.warn(message, object);

const termsKept = async (store: AppStore, storyId: number) =>
  withStoreSql(store, async (query) => {
    const [row] = (await query(
      `select (select count(*) from memory_terms where story_id = $1)::int as terms,
        (select to_jsonb(t) ->> 'saturated' from memory_totals t where story_id = $1) as saturated`,
      [storyId],
    )) as Array<{ terms: number; saturated: string | null }>;
    return `${row.terms}${row.saturated === 'true' ? ' (saturated)' : ''}`;
  });

/** Writes the story as an import does and indexes it as the import's catch-ups do, until nothing is left. */
async function seed(store: AppStore, userId: number, kind: Kind, count: number): Promise<Seeded> {
  const database = await openStoreDatabase(store);
  try {
    const repos = createRepositories(database.db);
    const messages = await messagesOf(kind, count);
    const storyId = await repos.storyFiles.importStory({
      ...{ userId, now: new Date(), title: `${count} messages of ${kind}`, premise: LONG_STORY_PREMISE },
      ...{ memory: '', memoryCovers: 0, notes: '', createdAt: new Date(), cards: [], bible: [], messages, quotas: {} },
    });
    const bank = createMemoryBank({ repos, log: { info: () => undefined, warn: logged, error: logged } });
    const started = performance.now();
    do {
      bank.index(storyId, 'all');
      await bank.idle();
    } while ((await repos.memoryBank.unindexed(storyId, 1)).length > 0);
    const catchUpMs = performance.now() - started;
    const [last] = (
      await database.executeSql('select max(id)::int as id from story_messages where story_id = $1', [storyId])
    ).rows as Array<{ id: number }>;
    return { kind, messages: count, storyId, lastId: last.id, catchUpMs, terms: '' };
  } finally {
    await database.close();
  }
}

async function measureBackend(backend: Backend): Promise<void> {
  const label = backend === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const { store, cleanUp } = await openStore(backend, 'tw_bench_branch');
  const env = {
    ...process.env,
    ...{ HOST: '127.0.0.1', DATA_DIR: store.dataDir, DATABASE_URL: store.databaseUrl, SERVE_CLIENT: 'false' },
    ...{ LOG_LEVEL: 'warn', LLM_PROVIDER: 'builtin', BUILTIN_NARRATOR_WORD_DELAY_MS: '0' },
  };
  try {
    let app = await startApp(args['server-dir'], env);
    const cookie = await registerOverHttp(app.base, `bench${Date.now() % 1e8}`, 'benchmark-password');
    const userId = (await (await fetch(`${app.base}/api/user`, { headers: { cookie } })).json()).id as number;
    await stopProcess(app.child);
    const stories: Seeded[] = [];
    for (const count of SIZES)
      for (const kind of KINDS) {
        const seeded = await seed(store, userId, kind, count);
        seeded.terms = await termsKept(store, seeded.storyId);
        console.log(
          `${label}: ${count} messages of ${kind}: caught up in ${(seeded.catchUpMs / 1000).toFixed(1)} s, ${seeded.terms} terms kept`,
        );
        stories.push(seeded);
      }
    app = await startApp(args['server-dir'], env);
    const http = httpClient(app.base, 1);
    const rows: string[] = [];
    const lastBranches: number[] = [];
    for (const story of stories) {
      const times: number[] = [];
      const cpu: number[] = [];
      const deletes: number[] = [];
      let branchId = 0;
      const rounds = story.messages >= 10_000 ? Math.min(ROUNDS, 2) : ROUNDS;
      for (let round = 0; round < rounds; round += 1) {
        if (branchId) {
          const gone = await http.call(`/api/story/${branchId}`, { method: 'DELETE', cookie, json: {} });
          if (gone.status !== 200) throw new Error(`delete answered ${gone.status}: ${gone.text}`);
          deletes.push(gone.ms);
        }
        const before = await cpuMs(app.child.pid);
        const answer = await http.call(`/api/story/${story.storyId}/branch`, {
          cookie,
          json: { messageId: story.lastId },
          keepBody: true,
        });
        cpu.push((await cpuMs(app.child.pid)) - before);
        if (answer.status !== 201) throw new Error(`branch answered ${answer.status}: ${answer.text}`);
        times.push(answer.ms);
        branchId = (JSON.parse(answer.text) as { storyId: number }).storyId;
      }
      lastBranches.push(branchId);
      const cells = [percentile(times, 50), maxOf(times), percentile(cpu, 50), percentile(deletes, 50)];
      rows.push(
        `| ${story.messages.toLocaleString('en')} | ${story.kind} | ${(story.catchUpMs / 1000).toFixed(1)} s | ${story.terms} | ${rounds} | ` +
          `${cells.map((v) => (Number.isFinite(v) ? v.toFixed(0) : '-')).join(' | ')} |`,
      );
    }
    http.close();
    await stopProcess(app.child);
    const kept: string[] = [];
    for (const id of lastBranches) kept.push(await termsKept(store, id));
    console.log(
      `\n${label}, server ${args['server-dir']}, load average ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')}:`,
    );
    console.log(
      '| messages | words | catch-up | terms kept | branches | branch p50 ms | branch max ms | server CPU ms per branch (p50) | delete p50 ms | terms the branch kept |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    rows.forEach((row, i) => console.log(`${row} ${kept[i]} |`));
  } finally {
    await cleanUp();
  }
}

console.log(
  `bench:branch ${new Date().toISOString()}, load average ${loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')}`,
);
const backends = (args.backends ?? (pgAdminUrl() ? 'pglite,postgres' : 'pglite')).split(',') as Backend[];
for (const backend of backends) await measureBackend(backend);
if (!pgAdminUrl())
  console.log('\nPostgreSQL skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).');
