// bench:stream --embeddings: what the turn's query embedding adds to the time to the first word.
// With embeddings on, a turn of a story with folded memory and stored vectors embeds its action
// (one POST /embeddings, vector-recall.ts) before the narrator is asked. Each level is run twice,
// each run on grown stories of its own (a story played without embeddings gathers passages the next
// run with them would first embed), the app restarted between, first without the EMBEDDINGS_*
// settings (full text recall alone) and then with them against the fake provider's embeddings server
// (fake-openai.ts). Before each timed run every player plays one untimed turn, in both runs: a
// process just started reads each story's vectors whole on its first query (vector-cache.ts), a
// one-off a serving process has long paid, which the per-turn figures must not mix in; those first
// turns' TTFT is printed apart. This module gives the app those settings, plays the warm-up, counts
// the embedding calls a run caused, and prints the two runs of each level side by side.
import { embeddingsSettings } from '../../../server/kernel/config/embeddings';
import { streamTurn, type StreamTarget, type TurnResult } from './load';
import { formatAdded, printMarkdownTable, type LevelRow } from './report';
import { BENCH_API_KEY, type EmbeddingCounts, type FakeProvider } from './processes';
import { percentile } from './stats';

/** EMBEDDINGS_MODEL: any name does for the fake; a stored vector is tied to its model's name. */
export const BENCH_EMBED_MODEL = 'bench-embed';

/** The app's settings for embeddings at the fake; `cacheMb` sets EMBEDDINGS_CACHE_MB (else the app's default). */
export function embeddingsEnv(fake: FakeProvider, cacheMb?: number): Record<string, string> {
  if (!fake.embeddingsUrl) throw new Error('the fake provider was started without embeddings');
  return {
    EMBEDDINGS_PROVIDER: 'openai',
    EMBEDDINGS_BASE_URL: fake.embeddingsUrl,
    EMBEDDINGS_API_KEY: BENCH_API_KEY,
    EMBEDDINGS_MODEL: BENCH_EMBED_MODEL,
    // A bench player plays hundreds of turns an hour, each embedding its action (the default allows 600).
    EMBEDDINGS_MAX_PER_HOUR: '1000000',
    ...(cacheMb ? { EMBEDDINGS_CACHE_MB: String(cacheMb) } : {}),
  };
}

/** The app's vector cache cap (EMBEDDINGS_CACHE_MB) when the bench sets none: its configured default. */
export const defaultCacheMb = (): number => embeddingsSettings.EMBEDDINGS_CACHE_MB.schema.parse(undefined);

/** A story's vectors in the app's cache (vector-cache.ts: their bytes, one a dimension, plus 96 bytes each of bookkeeping) against its cap. */
export function cacheLine(vectors: number, vectorBytes: number, cacheMb: number, players: number): string {
  const storyMb = (vectorBytes + vectors * 96) / (1024 * 1024);
  const fits = Math.floor(cacheMb / storyMb);
  return (
    `  vectors of a story: ${storyMb.toFixed(2)} MB in the app's cache; EMBEDDINGS_CACHE_MB ${cacheMb} holds ${fits} such stories` +
    (fits < players
      ? ` (fewer than the ${players} players: at levels above ${fits} stories leave the cache and are read again whole)`
      : '')
  );
}

/**
 * One untimed turn for each target, their starts spread over `rampMs` as the closed loop spreads
 * them: it fills the app's caches for these stories (the vectors above all) before the timing.
 */
export async function warmUp(targets: StreamTarget[], rampMs: number, body: () => string): Promise<TurnResult[]> {
  return Promise.all(
    targets.map(async (target, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i * rampMs) / targets.length));
      return streamTurn(target, body());
    }),
  );
}

/** TTFT p50/p99 of the warm-up turns that streamed (NaN when none did). */
export const warmTtft = (results: TurnResult[]): [number, number] => {
  const ttft = results.filter((r) => r.ok).map((r) => r.ttftMs);
  return [percentile(ttft, 50), percentile(ttft, 99)];
};

const NO_CALLS: EmbeddingCounts = { calls: 0, inputs: 0, single: 0, delayMs: 0 };

/** The fake's embedding counts now (zeros if it serves none). */
export async function embeddingCounts(fake: FakeProvider): Promise<EmbeddingCounts> {
  return (await fake.stats()).embeddings ?? NO_CALLS;
}

/** Calls between two counts. */
export const callsBetween = (before: EmbeddingCounts, after: EmbeddingCounts): EmbeddingCounts => ({
  calls: after.calls - before.calls,
  inputs: after.inputs - before.inputs,
  single: after.single - before.single,
  delayMs: after.delayMs,
});

/**
 * Waits until the fake has had no embedding call for `quietMs` (at most `maxMs`): the template's
 * last fold embeds its passages after the fold lands, and they must be stored before the app stops.
 */
export async function embeddingsSettled(fake: FakeProvider, quietMs = 1000, maxMs = 30_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let last = (await embeddingCounts(fake)).calls;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const now = (await embeddingCounts(fake)).calls;
    if (now === last) return;
    last = now;
  }
}

/** One level run without and with embeddings, the embedding calls of the timed run with them, and each run's warm-up TTFT p50/p99. */
export interface EmbeddingsPair {
  tree: string;
  off: LevelRow;
  on: LevelRow;
  calls: EmbeddingCounts;
  warm: { off: [number, number]; on: [number, number] };
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '-');
const diff = (on: number, off: number) => formatAdded(on - off);
/** Calls of one input are the turns' queries (a lone passage in a batch of one is rare: folds cut dozens). */
const queriesPerTurn = (p: EmbeddingsPair) => (p.on.app.turns > 0 ? p.calls.single / p.on.app.turns : Number.NaN);

/** One line per level as the run goes, after the two rows' own lines. */
export function pairLine(pair: EmbeddingsPair): string {
  const { off, on, calls } = pair;
  return (
    `  C=${on.clients} embeddings on - off: app TTFT p50/p99 ${diff(on.app.ttftP50, off.app.ttftP50)}/${diff(on.app.ttftP99, off.app.ttftP99)} ms ` +
    `(added ${diff(on.app.ttftP50 - on.direct.ttftP50, off.app.ttftP50 - off.direct.ttftP50)}/${diff(on.app.ttftP99 - on.direct.ttftP99, off.app.ttftP99 - off.direct.ttftP99)}); ` +
    `turns/s ${off.app.turnsPerSecond.toFixed(1)} -> ${on.app.turnsPerSecond.toFixed(1)}; RSS peak ${off.rss[1].toFixed(0)} -> ${on.rss[1].toFixed(0)} MB; ` +
    `app CPU ${off.cpuPerTurnMs.toFixed(1)} -> ${on.cpuPerTurnMs.toFixed(1)} ms/turn; embedding calls ${calls.calls} ` +
    `(${calls.single} of one input: ${queriesPerTurn(pair).toFixed(2)} a turn over ${on.app.turns} turns; ${calls.inputs} inputs in all); ` +
    `untimed first turns after the start TTFT p50/p99 off ${ms(pair.warm.off[0])}/${ms(pair.warm.off[1])} ms, on ${ms(pair.warm.on[0])}/${ms(pair.warm.on[1])} ms`
  );
}

export function printEmbeddingsTable(pairs: EmbeddingsPair[], log: (line: string) => void): void {
  const header = [
    'C',
    'tree',
    'app TTFT p50/p99 ms off',
    'on',
    'on - off p50/p99 ms',
    'added on - off p50/p99 ms',
    'turns/s off / on',
    'app RSS peak MB off / on',
    'app CPU ms/turn off / on',
    'queries a turn',
    'embedding calls / inputs',
    'first turn TTFT p50/p99 ms off / on',
  ];
  printMarkdownTable(
    header,
    pairs.map((pair) => {
      const { off, on, calls } = pair;
      return [
        String(on.clients),
        pair.tree,
        `${ms(off.app.ttftP50)} / ${ms(off.app.ttftP99)}`,
        `${ms(on.app.ttftP50)} / ${ms(on.app.ttftP99)}`,
        `${diff(on.app.ttftP50, off.app.ttftP50)} / ${diff(on.app.ttftP99, off.app.ttftP99)}`,
        `${diff(on.app.ttftP50 - on.direct.ttftP50, off.app.ttftP50 - off.direct.ttftP50)} / ${diff(on.app.ttftP99 - on.direct.ttftP99, off.app.ttftP99 - off.direct.ttftP99)}`,
        `${off.app.turnsPerSecond.toFixed(1)} / ${on.app.turnsPerSecond.toFixed(1)}`,
        `${off.rss[1].toFixed(0)} / ${on.rss[1].toFixed(0)}`,
        `${off.cpuPerTurnMs.toFixed(1)} / ${on.cpuPerTurnMs.toFixed(1)}`,
        queriesPerTurn(pair).toFixed(2),
        `${calls.calls} / ${calls.inputs}`,
        `${ms(pair.warm.off[0])}/${ms(pair.warm.off[1])} / ${ms(pair.warm.on[0])}/${ms(pair.warm.on[1])}`,
      ];
    }),
    log,
  );
}

export const EMBEDDINGS_NOTE =
  'Embeddings: each level ran twice, each run on grown stories of its own, the app restarted before each run: "off" without the EMBEDDINGS_* settings ' +
  '(full-text recall alone), "on" with them (the action embedded before the narrator is asked, its vector compared with the story\'s). ' +
  'Before each timed run every player played one untimed turn; its TTFT is the "first turn" column (the caches of a process just started: ' +
  'with embeddings the story\'s vectors read whole). "added on - off" = the difference of the two runs\' added TTFT (each against its own ' +
  'direct run); "queries a turn" = embedding calls of one input over the timed turns of the "on" run (about 1: every action text differs, ' +
  'so the query cache never answers). The fake embeddings server answers on loopback after --embed-ms: this is what our code costs. A real ' +
  'provider adds its own round trip (a hosted API tens to hundreds of ms; past EMBEDDINGS_QUERY_TIMEOUT_MS the turn recalls by full text ' +
  'alone), which no fake here stands for.';
