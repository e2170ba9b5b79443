// The app's Prometheus metrics: one prom-client Registry per app instance (never the
// global default register, so tests can build many apps in one process) holding every family the
// operator scrapes at GET /metrics (http/plugins/metrics.ts), all named taleweaver_*. Callers use
// the small methods below rather than prom-client: domains report what happened (a turn finished, a
// limit refused) and the composition root hands over readers that are looked at only when scraped
// (the database pool, the picture queue). Every label value comes from a fixed set (provider ids,
// the catalogue's narrator ids, ledger kinds, limit names, route templates): no ids of rows, no raw
// URLs, nothing a player wrote.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { NARRATOR_CALL_KINDS } from '@shared/schemas/narrators';

/** How a narrator turn ended: saved, refused before the narrator was asked, or failed (by the narrator's failure kind). */
export type TurnOutcome = 'done' | 'refused' | 'timeout' | 'unavailable' | 'misconfigured' | 'failed';

/** A ledger row's token figures as the metrics count them (speech and transcription rows carry characters, not tokens). */
export interface LedgerTokens {
  kind?: string;
  /** The catalogue narrator that made the call; unset: `default`. */
  narrator?: string;
  inputTokens?: number;
  cachedInputTokens?: number;
  outputTokens?: number;
  imageTokens?: number;
}

/** Who wrote a turn, as its labels name it: the provider's kind and the catalogue narrator (unset: `default`). */
export interface TurnWriter {
  id: string;
  narrator?: string;
}

/** The narrator label of calls no narrator makes (pictures, voices, embeddings). */
export const NO_NARRATOR = 'none';
/** The narrator label of an id outside the catalogue the metrics were made with. */
export const OTHER_NARRATOR = 'other';

/** The database pool's connections right now (node-postgres Pool: totalCount, idleCount, waitingCount). */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

const PREFIX = 'taleweaver_';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The route label of a request no route matched (404s, the SPA fallback): one value, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';
/** The ledger's kinds (db/repositories/usage/ledger.ts); anything else would be counted as `other`. */
const LEDGER_KINDS = new Set([
  'turn',
  'retry-loop',
  'summary',
  'title',
  'style',
  'image',
  'speech',
  'transcription',
  'embedding',
]);

/** `narrators`: the catalogue's ids, the only values the narrator label takes (with `none` and `other`). */
export function createMetrics({ narrators = ['default'] }: { narrators?: readonly string[] } = {}) {
  const registry = new Registry();
  const known = new Set(narrators);
  const narratorLabel = (id: string | undefined) => {
    const narrator = id ?? 'default';
    return known.has(narrator) ? narrator : OTHER_NARRATOR;
  };
  collectDefaultMetrics({ register: registry, prefix: PREFIX });

  const http = createRequestHistogram(
    `${PREFIX}http_request_duration_seconds`,
    'HTTP requests by method, route template (unmatched for none) and status, from arrival to the last byte (a story stream: its whole length).',
  );
  registry.registerMetric(http.metric);
  const turns = new Counter({
    name: `${PREFIX}narrator_turns_total`,
    help: 'Story turns by narrator provider, catalogue narrator and outcome: done (reply saved), refused (hour, month, quota or story busy, before the narrator was asked), timeout, unavailable, misconfigured (the narrator failed), failed (anything else).',
    labelNames: ['provider', 'narrator', 'outcome'] as const,
    registers: [registry],
  });
  const firstWord = new Histogram({
    name: `${PREFIX}narrator_first_word_seconds`,
    help: "Streamed turns: from the turn's call (admission, lease, saved action, prompt) to the narrator's first piece of text.",
    labelNames: ['provider', 'narrator'] as const,
    buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 7.5, 10, 15, 20, 30],
    registers: [registry],
  });
  const tokens = new Counter({
    name: `${PREFIX}tokens_total`,
    help: "Tokens written to the usage ledger by this instance, by the ledger's kind of call, the catalogue narrator that made it (none for pictures and embeddings) and direction (input, of it cached_input, output, image).",
    labelNames: ['kind', 'narrator', 'direction'] as const,
    registers: [registry],
  });
  const openStreams = new Gauge({
    name: `${PREFIX}open_streams`,
    help: 'Server-sent event streams (story turns) open on this instance.',
    registers: [registry],
  });
  const refusals = new Counter({
    name: `${PREFIX}limit_refusals_total`,
    help: "Requests refused by a limit, by the limit's name (request limits, sign-in limits, monthly-allowance).",
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  const picturesRunning = new Gauge({
    name: `${PREFIX}picture_jobs_running`,
    help: 'Picture jobs this instance is painting now.',
    registers: [registry],
  });
  const picturesFailed = new Counter({
    name: `${PREFIX}picture_jobs_failed_total`,
    help: 'Pictures this instance marked failed (the player reads why); a run retried once is not counted.',
    registers: [registry],
  });
  let queueDepth: (() => Promise<number>) | null = null;
  new Gauge({
    name: `${PREFIX}picture_jobs_waiting`,
    help: "Picture jobs waiting in the queue (pg-boss's created and retry states), for every instance, read when scraped.",
    registers: [registry],
    async collect() {
      if (!queueDepth) return this.set(0);
      // A failed read leaves the last value: the scrape still answers the other families.
      await queueDepth().then(
        (n) => this.set(n),
        () => {},
      );
    },
  });
  let pool: { kind: string; read: () => PoolUse | null } | null = null;
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: "The database pool's connections by state (busy, idle), read when scraped. On PGlite the pool's connections share its one session: busy ones are statements running or queued there.",
    labelNames: ['database', 'state'] as const,
    registers: [registry],
    collect() {
      const use = pool?.read();
      if (!pool || !use) return;
      this.set({ database: pool.kind, state: 'busy' }, use.total - use.idle);
      this.set({ database: pool.kind, state: 'idle' }, use.idle);
    },
  });
  new Gauge({
    name: `${PREFIX}db_pool_waiting`,
    help: 'Queries waiting for a free connection of the database pool, read when scraped.',
    labelNames: ['database'] as const,
    registers: [registry],
    collect() {
      const use = pool?.read();
      if (pool && use) this.set({ database: pool.kind }, use.waiting);
    },
  });

  const kindOf = (kind: string | undefined) => (kind === undefined ? 'turn' : LEDGER_KINDS.has(kind) ? kind : 'other');

  return {
    registry,
    contentType: registry.contentType,
    /** The text a scrape answers. */
    text: () => registry.metrics(),

    httpRequest(method: string, route: string | undefined, status: number, seconds: number): void {
      http.observe(METHODS.has(method) ? method : 'OTHER', route ?? UNMATCHED_ROUTE, status, seconds);
    },

    turnFinished(writer: TurnWriter, outcome: TurnOutcome): void {
      turns.inc({ provider: writer.id, narrator: narratorLabel(writer.narrator), outcome });
    },
    firstWord(writer: TurnWriter, seconds: number): void {
      firstWord.observe({ provider: writer.id, narrator: narratorLabel(writer.narrator) }, seconds);
    },
    /** One ledger row written (after its statement committed). */
    ledgerRow(row: LedgerTokens): void {
      const kind = kindOf(row.kind);
      const narrator = NARRATOR_CALL_KINDS.includes(kind) ? narratorLabel(row.narrator) : NO_NARRATOR;
      if (row.inputTokens) tokens.inc({ kind, narrator, direction: 'input' }, row.inputTokens);
      if (row.cachedInputTokens) tokens.inc({ kind, narrator, direction: 'cached_input' }, row.cachedInputTokens);
      if (row.outputTokens) tokens.inc({ kind, narrator, direction: 'output' }, row.outputTokens);
      if (row.imageTokens) tokens.inc({ kind, narrator, direction: 'image' }, row.imageTokens);
    },
    streamOpened(): void {
      openStreams.inc();
    },
    streamClosed(): void {
      openStreams.dec();
    },
    /** `limit` is the limit's fixed name (its bucket), never a key. */
    limitRefused(limit: string): void {
      refusals.inc({ limit });
    },
    pictureJobStarted(): void {
      picturesRunning.inc();
    },
    pictureJobEnded(): void {
      picturesRunning.dec();
    },
    pictureFailed(): void {
      picturesFailed.inc();
    },
    /** How many picture jobs wait, asked of the queue's tables at scrape time. */
    watchPictureQueue(read: () => Promise<number>): void {
      queueDepth = read;
    },
    /** The database pool's use, read at scrape time. */
    watchDatabasePool(kind: string, read: () => PoolUse | null): void {
      pool = { kind, read };
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

interface RequestSeries {
  labels: { method: string; route: string; status_code: string };
  /** Observations per bucket (not cumulative), the last one past every bound. */
  counts: number[];
  sum: number;
}

/**
 * The request histogram, kept by hand: every request observes it, a public shared read thousands
 * of times a second, and prom-client's Histogram hashes and validates the labels on each
 * observation (2-3 % of a shared read's CPU in a profile of bench:reads). Here an observation is a
 * Map lookup and two additions; prom-client only reads the series at scrape time, in the
 * exposition format its own histograms have.
 */
function createRequestHistogram(name: string, help: string) {
  const series = new Map<string, RequestSeries>();
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      values: [...series.values()].flatMap(({ labels, counts, sum }) => {
        let cumulative = 0;
        const buckets = HTTP_BUCKETS.map((le, i) => {
          cumulative += counts[i];
          return { labels: { ...labels, le }, value: cumulative, metricName: `${name}_bucket` };
        });
        const count = cumulative + counts[HTTP_BUCKETS.length];
        return [
          ...buckets,
          { labels: { ...labels, le: '+Inf' }, value: count, metricName: `${name}_bucket` },
          { labels, value: sum, metricName: `${name}_sum` },
          { labels, value: count, metricName: `${name}_count` },
        ];
      }),
    }),
    reset: () => series.clear(),
  };
  return {
    // prom-client's Registry asks a metric only for name, get() and reset(); its Metric type is a class.
    metric: metric as unknown as Metric,
    observe(method: string, route: string, status: number, seconds: number): void {
      const key = `${method} ${status} ${route}`;
      let one = series.get(key);
      if (!one) {
        one = {
          labels: { method, route, status_code: String(status) },
          counts: Array(HTTP_BUCKETS.length + 1).fill(0),
          sum: 0,
        };
        series.set(key, one);
      }
      let i = 0;
      while (i < HTTP_BUCKETS.length && seconds > HTTP_BUCKETS[i]) i += 1;
      one.counts[i] += 1;
      one.sum += seconds;
    },
  };
}
