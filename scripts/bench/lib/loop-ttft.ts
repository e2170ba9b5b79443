// bench:loop's served part: what the loop guard adds to a turn as a player meets it. Two real
// servers (server/main.ts on PGlite), LOOP_GUARD=on and LOOP_GUARD=off, narrated by one in-process
// OpenAI-compatible fake that streams varied prose at a model's pace, play one story each, turn
// for turn, alternating (these machines are noisy: side by side in one run). Measured at the
// player's end over HTTP and SSE: the time to the first word and to `done`. Then a story whose
// narrator is stuck in a loop on the guarded server: the time to `done` with the guard's one extra
// call, and the time to the first word, which the guard never delays.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import { startFakeLlmServer, type RecordedRequest } from '../../../server/test/fake-llm-server';
import { askedAgain, lastUserText } from '../../../server/test/repeating-narrator';
import { registerOverHttp, stopServer } from '../../../server/test/spawn-server';
import { proseWriter } from '../../../server/test/varied-prose';
import { memoryMb } from './abuse-harness';
import { startNarratedServer, type NarratedServer } from './narrated-server';
import { formatAdded, formatMs } from './report';
import { median, percentile } from './stats';

/** What the marker in a premise asks of the fake: a narrator stuck on one paragraph. */
const STUCK_MARKER = 'a tide that keeps time';

interface TurnTiming {
  firstWordMs: number;
  doneMs: number;
  rewritten: boolean;
}

/** Posts a turn asking for an event stream; times the first `delta` and `done` from the request. */
async function timedTurn(
  base: string,
  cookie: string,
  url: string,
  json: unknown,
): Promise<TurnTiming & { storyId: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie },
    body: JSON.stringify(json),
  });
  if (res.status !== 200 || !res.body) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let firstWordMs = Number.NaN;
  let doneMs = Number.NaN;
  let rewritten = false;
  let storyId = 0;
  const parser = createParser({
    onEvent(event) {
      if (event.event === 'delta' && Number.isNaN(firstWordMs)) firstWordMs = performance.now() - started;
      if (event.event === 'rewriting') rewritten = true;
      if (event.event === 'error') throw new Error(`${url}: ${event.data}`);
      if (event.event === 'done') {
        doneMs = performance.now() - started;
        storyId = (JSON.parse(event.data) as { storyId: number }).storyId;
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  if (Number.isNaN(doneMs)) throw new Error(`${url}: the stream ended without done`);
  return { firstWordMs, doneMs, rewritten, storyId };
}

const figures = (values: number[]) => ({ p50: median(values), p99: percentile(values, 99) });

/** `measured` against `reference`, each named: p50 and p99, and what the first adds to the second. */
function line(label: string, [name, measured]: [string, number[]], [refName, reference]: [string, number[]]): string {
  const a = figures(measured);
  const b = figures(reference);
  return `  ${label}: ${name} p50 ${formatMs(a.p50)}, p99 ${formatMs(a.p99)}; ${refName} p50 ${formatMs(b.p50)}, p99 ${formatMs(b.p99)}; added p50 ${formatAdded(a.p50 - b.p50, 1)} ms, p99 ${formatAdded(a.p99 - b.p99, 1)} ms`;
}

export async function measureServedGuard(options: { turns: number; stuckTurns: number; log: (line: string) => void }) {
  const { log } = options;
  const writer = proseWriter(271);
  const stuck = writer.reply(7);
  const fake = await startFakeLlmServer({ apiKey: 'sk-bench', keepRequests: false });
  // A model's pace: the first words after 150 ms, then two words every 15 ms.
  const pace = { ttftMs: 150, chunkDelayMs: 15, chunkWords: 2 };
  // Both servers' stories get the same reply to the same action: their times to done compare.
  const replyTo = (request: RecordedRequest) => {
    const action = lastUserText(request);
    let seed = 0;
    for (let i = 0; i < action.length; i += 1) seed = (seed * 31 + action.charCodeAt(i)) >>> 0;
    return proseWriter(seed).reply();
  };
  fake.fallback = (request: RecordedRequest) => {
    const looping = JSON.stringify(request.body.messages).includes(STUCK_MARKER) && !askedAgain(request);
    return { kind: 'ok', text: looping ? stuck : replyTo(request), ...pace };
  };
  const dirs = await Promise.all([0, 1].map(() => mkdtemp(join(tmpdir(), 'bench-loop-'))));
  const servers: NarratedServer[] = [];
  try {
    servers.push(await startNarratedServer(fake.baseUrl, dirs[0], { LOOP_GUARD: 'on' }));
    servers.push(await startNarratedServer(fake.baseUrl, dirs[1], { LOOP_GUARD: 'off' }));
    const players = await Promise.all(
      servers.map((s, i) => registerOverHttp(s.base, `loop_bench_${i}`, 'bench-password-1')),
    );
    const premise = 'A courier crosses the salt flats with a sealed letter for the queen';
    const stories = await Promise.all(
      servers.map(
        async (s, i) => (await timedTurn(s.base, players[i], '/api/story/start', { prompt: premise })).storyId,
      ),
    );
    const timings: TurnTiming[][] = [[], []];
    for (let turn = 0; turn < options.turns; turn += 1)
      for (const i of turn % 2 === 0 ? [0, 1] : [1, 0]) {
        const action = `I go on, step ${turn + 1}, and look about me.`;
        timings[i].push(
          await timedTurn(servers[i].base, players[i], `/api/story/${stories[i]}/continue`, { message: action }),
        );
      }
    const [on, off] = timings;
    const first = (list: TurnTiming[]) => list.map((t) => t.firstWordMs);
    const done = (list: TurnTiming[]) => list.map((t) => t.doneMs);
    log(`\nthe guard as a player meets it: ${options.turns} turns a server, varied prose, side by side`);
    log(line('time to the first word', ['guard on', first(on)], ['off', first(off)]));
    log(line('time to done', ['guard on', done(on)], ['off', done(off)]));
    log(`  varied replies the guard rewrote: ${on.filter((t) => t.rewritten).length} of ${on.length}`);
    const memory = await Promise.all(servers.map((s) => memoryMb(s.server.child.pid)));
    const mb = (m: { now: number; peak: number }) => `${m.now.toFixed(0)} / ${m.peak.toFixed(0)} MB`;
    log(`  server memory (RSS now / peak): guard on ${mb(memory[0])}, off ${mb(memory[1])}`);

    if (options.stuckTurns === 0) return;
    const stuckStory = (
      await timedTurn(servers[0].base, players[0], '/api/story/start', { prompt: `A lighthouse on ${STUCK_MARKER}` })
    ).storyId;
    const looping: TurnTiming[] = [];
    for (let turn = 0; turn < options.stuckTurns; turn += 1) {
      const message = `I wait, ${turn}.`;
      looping.push(await timedTurn(servers[0].base, players[0], `/api/story/${stuckStory}/continue`, { message }));
    }
    const rewrote = looping.filter((t) => t.rewritten);
    // Once five rewritten replies follow the stuck paragraph's last showing, it repeats none of them.
    log(`\na narrator stuck in a loop, guard on: ${rewrote.length} of ${looping.length} replies rewritten`);
    log(line('time to the first word', ['stuck', first(looping)], ['varied', first(on)]));
    log(line('time to done, one extra call', ['rewritten', done(rewrote)], ['varied', done(on)]));
  } finally {
    await Promise.all(servers.map((s) => stopServer(s.server.child)));
    await fake.close();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}
