// The load generator of `npm run bench:reads`: closed-loop HTTP/1.1 keep-alive connections on raw
// sockets, one request in flight on each, as wrk and autocannon do. It builds each request once,
// parses only what it must (status, Content-Length or the end of a chunked body) and records
// latencies in a microsecond histogram, so one process on one core drives far more requests a
// second than a Fastify server answers: the figures are the server's, not the generator's.
// (node:http's client costs several times more per request and would be the bottleneck here.)
import { connect, type Socket } from 'node:net';
import { nearestRank } from './lib/stats';

export interface LoadOptions {
  host: string;
  port: number;
  path: string;
  headers?: Record<string, string>;
  connections: number;
  durationMs: number;
  /** Statuses that count as answered; anything else is an error. */
  expect: number[];
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** Answers by status code. */
  statuses: Record<number, number>;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Body bytes of the last answer (to check what was measured). */
  bodyBytes: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n');
const US_BUCKETS = 1_000_000; // 1 µs resolution up to 1 s; slower answers are kept one by one

class Histogram {
  private readonly counts = new Uint32Array(US_BUCKETS);
  private readonly slow: number[] = [];
  total = 0;
  max = 0;

  record(ms: number): void {
    const us = Math.round(ms * 1000);
    if (us < US_BUCKETS) this.counts[us] += 1;
    else this.slow.push(us);
    this.total += 1;
    if (ms > this.max) this.max = ms;
  }

  percentile(p: number): number {
    if (this.total === 0) return NaN;
    const rank = nearestRank(p, this.total);
    let seen = 0;
    for (let us = 0; us < US_BUCKETS; us += 1) {
      seen += this.counts[us];
      if (seen >= rank) return us / 1000;
    }
    const sorted = [...this.slow].sort((a, b) => a - b);
    return sorted[rank - seen - 1] / 1000;
  }
}

/** Runs the load for `durationMs` and reports throughput and latency of the answers completed in it. */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const headerLines = Object.entries({
    host: `${options.host}:${options.port}`,
    accept: 'application/json',
    ...options.headers,
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const request = Buffer.from(`GET ${options.path} HTTP/1.1\r\n${headerLines}\r\n`, 'latin1');
  const histogram = new Histogram();
  const statuses: Record<number, number> = {};
  const expected = new Set(options.expect);
  let errors = 0;
  let bodyBytes = 0;
  let running = true;
  let open = 0;
  const startedAt = performance.now();

  return new Promise((resolve) => {
    const finish = () => {
      const seconds = (performance.now() - startedAt) / 1000;
      resolve({
        requests: histogram.total,
        errors,
        statuses,
        requestsPerSecond: histogram.total / seconds,
        p50Ms: histogram.percentile(50),
        p99Ms: histogram.percentile(99),
        maxMs: histogram.max,
        bodyBytes,
      });
    };

    const sockets = new Set<Socket>();
    const start = () => {
      const socket: Socket = connect({ host: options.host, port: options.port, noDelay: true });
      sockets.add(socket);
      open += 1;
      let pending: Buffer | null = null;
      let sentAt = 0;
      // Set once the head is read: how many bytes the whole answer takes (-1: chunked, ends at CHUNKED_END).
      let answerLength = 0;
      let bodyStart = 0;
      let status = 0;

      const send = () => {
        sentAt = performance.now();
        socket.write(request);
      };

      const complete = () => {
        histogram.record(performance.now() - sentAt);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (!expected.has(status)) errors += 1;
        answerLength = 0;
        if (running) send();
        else socket.end();
      };

      socket.on('connect', send);
      socket.on('data', (chunk: Buffer) => {
        let data = pending ? Buffer.concat([pending, chunk]) : chunk;
        pending = null;
        for (;;) {
          if (answerLength === 0) {
            const headEnd = data.indexOf(HEADER_END);
            if (headEnd < 0) break;
            status = (data[9] - 48) * 100 + (data[10] - 48) * 10 + (data[11] - 48);
            const head = data.toString('latin1', 0, headEnd).toLowerCase();
            bodyStart = headEnd + 4;
            const length = /\r\ncontent-length: *(\d+)/.exec(head);
            // A 304 or 204 never has a body, whatever its Content-Length says.
            if (status === 304 || status === 204) answerLength = bodyStart;
            else if (length) answerLength = bodyStart + Number(length[1]);
            else if (head.includes('\r\ntransfer-encoding: chunked')) answerLength = -1;
            else answerLength = bodyStart; // 304, 204: no body
          }
          let end: number;
          if (answerLength === -1) {
            const at = data.indexOf(CHUNKED_END, bodyStart - 2);
            if (at < 0) break;
            end = at + CHUNKED_END.length;
          } else {
            if (data.length < answerLength) break;
            end = answerLength;
          }
          bodyBytes = end - bodyStart;
          data = data.subarray(end);
          complete();
          if (data.length === 0) break;
        }
        if (data.length > 0) pending = data;
      });
      socket.on('error', () => {
        errors += 1;
      });
      socket.on('close', () => {
        sockets.delete(socket);
        open -= 1;
        if (running) start();
        else if (open === 0) finish();
      });
    };

    for (let i = 0; i < options.connections; i += 1) start();
    setTimeout(() => {
      running = false;
      // An answer still missing a second later is not coming (a hung server): stop waiting for it.
      setTimeout(() => {
        for (const socket of sockets) {
          errors += 1;
          socket.destroy();
        }
      }, 1000).unref();
    }, options.durationMs);
  });
}
