// The streaming benchmarks' load generator: closed-loop clients over node:http with keep-alive
// agents, and a cheap SSE reader. The reader never decodes or parses the stream: it counts bytes,
// notes when a marker first appears (the first content delta) and whether the end marker came,
// with Buffer.indexOf on each chunk plus the seam with the previous chunk. Parsing 30,000 events a
// second here would take CPU from the app being measured on the same 2 cores.
import { Agent, request } from 'node:http';
import { percentile } from './stats';

export interface TurnResult {
  /** performance.now() when the request was sent. */
  startedAt: number;
  /** Request start to the first content delta, in ms (-1 if none came). */
  ttftMs: number;
  /** Request start to the end of the response, in ms. */
  totalMs: number;
  /** The chunk before the end marker's to the end marker, in ms: the provider's last words to the app's done. */
  tailMs: number;
  ok: boolean;
  error?: string;
  bytes: number;
}

export interface StreamTarget {
  agent: Agent;
  url: URL;
  headers: Record<string, string>;
  /** Bytes that mark the first content delta. */
  first: Buffer;
  /** Bytes that mark a successful end (the app's done event, the provider's [DONE]). */
  end: Buffer;
  /** Bytes that mark a failed turn in a 200 stream (the app's error event). */
  failure?: Buffer;
  timeoutMs?: number;
}

/** One keep-alive pool per target: a closed loop reuses its connection turn after turn. */
export const keepAliveAgent = () => new Agent({ keepAlive: true, maxSockets: Infinity, keepAliveMsecs: 10_000 });

/** Longer than every marker: a marker split between two chunks is whole in their seam. */
const SEAM = 32;

/** POSTs `body` and reads the SSE answer cheaply; never rejects (failures come back as ok: false). */
export function streamTurn(target: StreamTarget, body: string): Promise<TurnResult> {
  return new Promise((resolve) => {
    const startedAt = performance.now();
    let ttftMs = -1;
    let bytes = 0;
    let sawEnd = false;
    let failure = false;
    let seam: Buffer | null = null;
    let last: Buffer | null = null;
    let lastChunkAt = 0;
    let tailMs = -1;
    let settled = false;
    const settle = (ok: boolean, error?: string) => {
      if (settled) return;
      settled = true;
      resolve({ startedAt, ttftMs, totalMs: performance.now() - startedAt, tailMs, ok, error, bytes });
    };
    const req = request(
      target.url,
      {
        method: 'POST',
        agent: target.agent,
        headers: { ...target.headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        if (res.statusCode !== 200) {
          const parts: Buffer[] = [];
          res.on('data', (chunk: Buffer) => parts.push(chunk));
          res.on('end', () =>
            settle(false, `HTTP ${res.statusCode}: ${Buffer.concat(parts).toString('utf8').slice(0, 200)}`),
          );
          res.on('error', (error) => settle(false, error.message));
          return;
        }
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          const joint = seam ? Buffer.concat([seam, chunk.subarray(0, SEAM)]) : null;
          const has = (marker: Buffer) => chunk.indexOf(marker) >= 0 || (joint !== null && joint.indexOf(marker) >= 0);
          if (ttftMs < 0 && has(target.first)) ttftMs = performance.now() - startedAt;
          const now = performance.now();
          if (!sawEnd && has(target.end)) {
            sawEnd = true;
            tailMs = lastChunkAt > 0 ? now - lastChunkAt : 0;
          }
          lastChunkAt = now;
          if (target.failure && !failure && has(target.failure)) failure = true;
          seam = chunk.subarray(Math.max(0, chunk.length - SEAM));
          last = chunk;
        });
        res.on('end', () => {
          if (failure) settle(false, `error event: ${(last ?? Buffer.alloc(0)).toString('utf8').slice(-300)}`);
          else if (!sawEnd) settle(false, `stream ended without its end marker after ${bytes} bytes`);
          else settle(true);
        });
        res.on('error', (error) => settle(false, error.message));
        res.on('close', () => settle(false, 'connection closed mid-stream'));
      },
    );
    req.setTimeout(target.timeoutMs ?? 120_000, () => req.destroy(new Error('no answer in time')));
    req.on('error', (error) => settle(false, error.message));
    req.end(body);
  });
}

export interface LoopResult {
  results: TurnResult[];
  /** When the last client had started (closed loop in its steady state from here). */
  rampEndAt: number;
  deadlineAt: number;
}

/**
 * `clients` closed-loop clients: each plays turns back to back until `seconds` have passed, then
 * finishes its turn in flight. Client starts are spread over `rampMs` (about one turn) so they do
 * not all ask in the same millisecond, which a steady closed loop never does either.
 */
export async function closedLoop(
  clients: number,
  seconds: number,
  rampMs: number,
  turn: (client: number) => Promise<TurnResult>,
  /** Filled as turns finish, for callers that report progress during a long run. */
  results: TurnResult[] = [],
): Promise<LoopResult> {
  const t0 = performance.now();
  const deadlineAt = t0 + seconds * 1000;
  const ramp = Math.min(rampMs, (seconds * 1000) / 4);
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      await sleep((client * ramp) / clients);
      while (performance.now() < deadlineAt) {
        const result = await turn(client);
        results.push(result);
        // A refused turn (e.g. a 409 while a reply is still being saved) must not spin the CPU.
        if (!result.ok) await sleep(200);
      }
    }),
  );
  return { results, rampEndAt: t0 + ramp, deadlineAt };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface LoopSummary {
  turns: number;
  errors: number;
  firstErrors: string[];
  ttftP50: number;
  ttftP99: number;
  totalP50: number;
  /** Median time from the chunk before the end marker to the end marker (see TurnResult.tailMs). */
  tailP50: number;
  /** Turns per second in the steady window (after the ramp, before the deadline), edge turns pro rata. */
  turnsPerSecond: number;
}

export function summarise(loop: LoopResult): LoopSummary {
  const ok = loop.results.filter((r) => r.ok);
  const failed = loop.results.filter((r) => !r.ok);
  const ttft = ok.map((r) => r.ttftMs);
  // Each turn counts for the share of its duration inside the steady window, so a short window is
  // not off by a whole turn per client at each edge (1 client for 4 s would read 1.0 or 1.25 turns/s).
  const steady = ok.reduce((sum, r) => {
    const overlap = Math.min(r.startedAt + r.totalMs, loop.deadlineAt) - Math.max(r.startedAt, loop.rampEndAt);
    return sum + Math.max(0, overlap) / r.totalMs;
  }, 0);
  return {
    turns: ok.length,
    errors: failed.length,
    firstErrors: [...new Set(failed.map((r) => r.error ?? 'unknown'))].slice(0, 3),
    ttftP50: percentile(ttft, 50),
    ttftP99: percentile(ttft, 99),
    totalP50: percentile(
      ok.map((r) => r.totalMs),
      50,
    ),
    tailP50: percentile(
      ok.map((r) => r.tailMs),
      50,
    ),
    turnsPerSecond: steady / ((loop.deadlineAt - loop.rampEndAt) / 1000),
  };
}

/** The provider's own streaming endpoint, asked the way the app asks it (streamed, usage included). */
export function directTarget(baseUrl: string, apiKey: string, agent: Agent): StreamTarget {
  return {
    agent,
    url: new URL(`${baseUrl}/chat/completions`),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' },
    // The role chunk carries `"delta":{"role":…`; only content chunks start with this.
    first: Buffer.from('"delta":{"content":"'),
    end: Buffer.from('data: [DONE]'),
  };
}

export function directBody(model: string, turn: number): string {
  return JSON.stringify({
    model,
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: 500,
    temperature: 0.8,
    messages: [
      { role: 'system', content: 'You are the narrator of an interactive story.' },
      { role: 'user', content: `I steer the boat to mark ${turn}.` },
    ],
  });
}

/** Taleweaver's continue endpoint for one player's story, with SSE. */
export function appTarget(base: string, storyId: number, cookie: string, agent: Agent): StreamTarget {
  return {
    agent,
    url: new URL(`${base}/api/story/${storyId}/continue`),
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie },
    first: Buffer.from('event: delta'),
    end: Buffer.from('event: done'),
    failure: Buffer.from('event: error'),
  };
}

export const actionBody = (turn: number) =>
  JSON.stringify({ message: `I steer the boat towards the lantern at mark ${turn}.` });
