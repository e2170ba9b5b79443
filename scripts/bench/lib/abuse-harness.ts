// bench:abuse's instruments: the bystander process (bystander.ts) started and read over IPC, the
// server's peak resident memory for one case (VmHWM, reset through /proc/<pid>/clear_refs at the
// case's start), the fake provider's request log (its largest request counted in tokens), a stop
// that does not wait forever on a frozen server, the hostile player's HTTP calls (status, size and
// time of each answer, never parsed unless asked), the p50/p99/max of a list of times (percentile
// from stats.ts), and the few words a case answers them in (ms, size, said, many).
import { fork, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { loadTokenCounter } from '../../../server/ai/llm/tokenizer';
import type { BystanderCommand, BystanderWindow } from './bystander';
import { formatMs } from './report';
import { maxOf, percentile } from './stats';

const here = new URL('.', import.meta.url).pathname;

export interface Bystander {
  start(base: string, everyMs: number): void;
  stop(): Promise<BystanderWindow>;
  close(): void;
}

/** Forks the bystander; one window at a time (start, then stop answers what it saw). */
export function startBystander(): Bystander {
  const child: ChildProcess = fork(join(here, 'bystander.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const send = (command: BystanderCommand) => child.send(command);
  return {
    start: (base, everyMs) => send({ cmd: 'start', base, everyMs }),
    stop: () =>
      new Promise((resolve) => {
        child.once('message', (message: { window: BystanderWindow | null }) =>
          resolve(message.window ?? { latenciesMs: [], requests: 0, statuses: {}, errors: 0 }),
        );
        send({ cmd: 'stop' });
      }),
    close: () => child.disconnect(),
  };
}

/**
 * Starts the kernel's high-water mark of a process's resident set again from its current size
 * (Linux >= 4.0: writing 5 to clear_refs), so VmHWM read later is the peak since this call.
 * Answers false where that is refused; the caller then falls back to the peak since start.
 */
export async function resetPeakRss(pid: number | undefined): Promise<boolean> {
  try {
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** VmHWM (peak resident set) and VmRSS of a process in MB, or zeros once it is gone. */
export async function memoryMb(pid: number | undefined): Promise<{ peak: number; now: number }> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 };
  } catch {
    return { peak: 0, now: 0 };
  }
}

/** Stops a server with SIGTERM, then SIGKILL after `graceMs` (a server whose event loop is frozen never runs its SIGTERM handler). */
export async function stopOrKill(child: ChildProcess, graceMs = 10_000): Promise<'stopped' | 'killed' | 'gone'> {
  if (child.exitCode !== null || child.signalCode !== null) return 'gone';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = new Promise((resolve) => setTimeout(() => resolve('late'), graceMs));
  if ((await Promise.race([exited, timer])) !== 'late') return 'stopped';
  child.kill('SIGKILL');
  await exited;
  return 'killed';
}

export interface FakeLog {
  requests: number;
  streamed: number;
  requestBytes: number;
  largestBytes: number;
  largestBody: string;
}

/** The fake provider's request log since its last reset (fake-openai.ts). */
export async function readFakeLog(fakeBaseUrl: string): Promise<FakeLog> {
  return (await fetch(`${new URL(fakeBaseUrl).origin}/__bench/log`)).json() as Promise<FakeLog>;
}

/** The largest request's size and its messages' tokens as the app counts them (o200k), e.g. "571 KB, 115896 tokens". */
export async function largestRequest(log: FakeLog): Promise<string> {
  if (!log.largestBody) return '';
  const count = await loadTokenCounter();
  const body = JSON.parse(log.largestBody) as { messages?: Array<{ content?: unknown }> };
  const tokens = (body.messages ?? []).reduce(
    (sum, m) => sum + (typeof m.content === 'string' ? count(m.content) : 0),
    0,
  );
  return `${(log.largestBytes / 1024).toFixed(0)} KB, ${tokens} tokens`;
}

export async function resetFakeLog(fakeBaseUrl: string): Promise<void> {
  await fetch(`${new URL(fakeBaseUrl).origin}/__bench/log/reset`, { method: 'POST' });
}

export interface Answer {
  status: number;
  /** Bytes received (compressed as sent, when the server compressed). */
  bytes: number;
  ms: number;
  contentEncoding: string;
  /** The body as text: kept only when asked, or for an error status (its first 300 characters). */
  text: string;
  /** Set when the request failed without an answer (refused, reset, timed out). */
  error?: string;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  cookie?: string;
  /** A JSON body (an object is serialised; a string or Buffer is sent as it is). */
  json?: unknown;
  /** The body's type when it is not JSON (a PNG file). */
  contentType?: string;
  acceptEncoding?: string;
  accept?: string;
  keepBody?: boolean;
  timeoutMs?: number;
}

/** The hostile player's client: a keep-alive pool per server, like a browser's. */
export function httpClient(base: string, maxSockets = 64) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const call = (path: string, options: CallOptions = {}): Promise<Answer> =>
    new Promise((resolve) => {
      const body =
        options.json === undefined
          ? undefined
          : Buffer.isBuffer(options.json) || typeof options.json === 'string'
            ? options.json
            : JSON.stringify(options.json);
      const headers: Record<string, string> = {
        'accept-encoding': options.acceptEncoding ?? 'identity',
        accept: options.accept ?? 'application/json',
      };
      if (options.cookie) headers.cookie = options.cookie;
      if (body !== undefined) {
        headers['content-type'] = options.contentType ?? 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const startedAt = performance.now();
      let settled = false;
      const settle = (answer: Omit<Answer, 'ms'>) => {
        if (settled) return;
        settled = true;
        resolve({ ...answer, ms: performance.now() - startedAt });
      };
      const req = request(
        new URL(path, base),
        { method: options.method ?? (body === undefined ? 'GET' : 'POST'), agent, headers },
        (res) => {
          const status = res.statusCode ?? 0;
          const keep = options.keepBody || status >= 300;
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (keep) chunks.push(chunk);
          });
          res.on('end', () => {
            const text = keep ? Buffer.concat(chunks).toString('utf8') : '';
            settle({
              status,
              bytes,
              contentEncoding: String(res.headers['content-encoding'] ?? ''),
              text: status >= 300 && !options.keepBody ? text.slice(0, 300) : text,
            });
          });
          res.on('error', (error) => settle({ status, bytes, contentEncoding: '', text: '', error: error.message }));
        },
      );
      req.setTimeout(options.timeoutMs ?? 120_000, () =>
        req.destroy(new Error(`no answer in ${((options.timeoutMs ?? 120_000) / 1000).toFixed(0)} s`)),
      );
      req.on('error', (error) => settle({ status: 0, bytes: 0, contentEncoding: '', text: '', error: error.message }));
      req.end(body);
    });
  return { call, close: () => agent.destroy() };
}
export type HttpClient = ReturnType<typeof httpClient>;

/** How a list of answers went: "200 x48, 429 x2" (status 0 is a failed request). */
export function statusCounts(answers: Answer[]): string {
  const counts = new Map<number, number>();
  for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([status, n]) => `${status === 0 ? 'failed' : status} x${n}`)
    .join(', ');
}

export interface Spread {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** p50, p99 and max of a list of times (the benchmarks' one percentile, stats.ts). */
export function spread(values: number[]): Spread {
  return {
    n: values.length,
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max: maxOf(values),
  };
}

/** A time in whole ms, as every case writes it. */
export const ms = (v: number) => formatMs(v, 0);
export const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`;
/** One answer in a few words: "201 in 1234 ms" (with its size: ", 5.0 MB") or "failed after 60000 ms (…)". */
export const said = (answer: Answer, withSize = false) =>
  answer.status === 0
    ? `failed after ${ms(answer.ms)} (${answer.error})`
    : `${answer.status} in ${ms(answer.ms)}${withSize ? `, ${size(answer.bytes)}` : ''}`;
/** Several answers of one kind: their statuses and times. */
export const many = (answers: Answer[]) => {
  const s = spread(answers.map((a) => a.ms));
  return `${statusCounts(answers)}; p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}`;
};
