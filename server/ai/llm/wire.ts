// The HTTP side both remote narrators share (OpenAI-compatible chat completions, Anthropic
// messages): a keep-alive connection pool, one JSON POST under one deadline (LLM_TIMEOUT_MS, the
// whole answer included), answers read with a size cap, server-sent events parsed with
// eventsource-parser, and every failure mapped to a NarratorError kind with a key-free detail.
// This replaced the AI SDK on the hot path: it streams with node:http 'data' events and one
// JSON.parse per event, where the SDK's web-stream transforms and per-chunk schema checks cost
// about 85 µs of CPU a chunk (docs/benchmarks.md, "Streaming at scale").
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ERROR_TEXT_BYTES, providerMessage, shown } from '@server/ai/provider-http';
import { redact } from '@server/kernel/redact';
import { NarratorError, type NarratorFailure } from './types';

/**
 * Connections to the provider are reused: a new TLS handshake per turn would add a round trip or
 * two to every first word. 512 sockets carry 200 players streaming at once with room to spare; a
 * burst past that waits in the agent's queue rather than opening without bound.
 */
const POOL: http.AgentOptions = { keepAlive: true, maxSockets: 512, maxFreeSockets: 256, scheduling: 'lifo' };
const AGENTS = { 'http:': new http.Agent(POOL), 'https:': new https.Agent(POOL) } as const;

/** A whole (non-streamed) answer larger than this is not a story reply, title or summary. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** Same for a streamed answer, counted in characters received. */
export const MAX_STREAM_CHARS = 8 * 1024 * 1024;

/** Statuses that say our request or settings are wrong: retrying will not help, the operator must act. */
const MISCONFIGURED_STATUSES = new Set([400, 401, 403, 404, 422]);
/** Socket errors a reused keep-alive connection gives when the server closed it as we wrote. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);

export interface WireRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  /** Removed from every detail (the API key). */
  secrets: string[];
}

/** A narrator's fixed settings: where and how each of its calls goes (only the body differs per call). */
export type ProviderSettings = Omit<WireRequest, 'body'> & { model: string };

export interface WireCall {
  request: WireRequest;
  signal: AbortSignal;
  timedOut: () => boolean;
}

export function fail(call: WireCall, failure: NarratorFailure, detail: string, cause?: unknown): NarratorError {
  return new NarratorError(failure, redact(detail, call.request.secrets), cause === undefined ? undefined : { cause });
}

/**
 * Runs one call: POSTs the JSON body, turns a non-2xx answer into its NarratorError, and hands a
 * 2xx answer to `read`. Whatever fails, the caller gets a NarratorError and the connection is
 * closed if the answer was not read to its end.
 */
export async function callProvider<T>(
  request: WireRequest,
  read: (response: IncomingMessage, call: WireCall) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, request.timeoutMs);
  const call: WireCall = { request, signal: controller.signal, timedOut: () => timedOut };
  let response: IncomingMessage | undefined;
  try {
    response = await post(request, Buffer.from(JSON.stringify(request.body)), controller.signal, true);
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      const text = (await readText(response, ERROR_TEXT_BYTES, call, true)).trim();
      throw statusError(call, status, text || response.statusMessage || '');
    }
    return await read(response, call);
  } catch (error) {
    if (response && !response.complete) response.destroy();
    throw toNarratorError(call, error);
  } finally {
    clearTimeout(timer);
  }
}

function post(request: WireRequest, payload: Buffer, signal: AbortSignal, mayRetry: boolean): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const url = new URL(request.url);
    const lib = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? AGENTS['https:'] : AGENTS['http:'];
    const req = lib.request(
      url,
      {
        method: 'POST',
        agent,
        signal,
        headers: { ...request.headers, 'content-type': 'application/json', 'content-length': String(payload.length) },
      },
      resolve,
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      // The server closed an idle pooled connection just as we reused it: nothing reached it, so
      // sending once more on a fresh connection is safe (Node's documented keep-alive pattern).
      if (mayRetry && req.reusedSocket && STALE_SOCKET_CODES.has(error.code ?? '') && !signal.aborted) {
        post(request, payload, signal, false).then(resolve, reject);
      } else reject(error);
    });
    req.end(payload);
  });
}

function statusError(call: WireCall, status: number, body: string): NarratorError {
  const failure: NarratorFailure = MISCONFIGURED_STATUSES.has(status)
    ? 'misconfigured'
    : status === 408 || status === 504
      ? 'timeout'
      : 'unavailable';
  return fail(call, failure, `HTTP ${status} from ${shown(call.request.url)}: ${providerMessage(body).slice(0, 500)}`);
}

function toNarratorError(call: WireCall, error: unknown): NarratorError {
  if (call.timedOut()) {
    if (error instanceof NarratorError && error.failure === 'timeout') return error;
    return fail(
      call,
      'timeout',
      `no complete answer from ${shown(call.request.url)} within LLM_TIMEOUT_MS (${call.request.timeoutMs} ms)`,
      error,
    );
  }
  if (error instanceof NarratorError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return fail(call, 'unavailable', `${shown(call.request.url)}: ${message}${code ? ` (${code})` : ''}`, error);
}

/** The answer's text, at most `limit` bytes: past it the call fails, or with `truncate` the rest is dropped. */
export function readText(response: IncomingMessage, limit: number, call: WireCall, truncate = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = () => resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
    response.on('data', (chunk: Buffer) => {
      total += chunk.length;
      chunks.push(chunk);
      if (total <= limit) return;
      response.destroy();
      if (truncate) finish();
      else reject(fail(call, 'unavailable', `answer from ${shown(call.request.url)} too large: over ${limit} bytes`));
    });
    response.on('end', finish);
    response.on('error', reject);
    response.on('close', () => {
      if (!response.complete) reject(new Error('connection closed before the answer ended'));
    });
  });
}

/** A whole answer parsed as JSON; anything else is the provider misbehaving. */
export async function readJson(response: IncomingMessage, call: WireCall): Promise<unknown> {
  const text = await readText(response, MAX_ANSWER_BYTES, call);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fail(call, 'unavailable', `answer from ${shown(call.request.url)} is not JSON: ${text.slice(0, 200)}`, error);
  }
}

/**
 * Reads a server-sent event stream to its end, handing each event to `onEvent` as it arrives (one
 * 'data' callback per network read, no per-event promise). Resolves when the provider ends the
 * answer; rejects when the connection drops first, `onEvent` throws, or the stream is oversized.
 */
export function readEvents(
  response: IncomingMessage,
  call: WireCall,
  onEvent: (event: EventSourceMessage) => void,
): Promise<void> {
  const type = String(response.headers['content-type'] ?? '');
  if (!type.includes('text/event-stream')) {
    return readText(response, ERROR_TEXT_BYTES, call, true).then((text) => {
      throw fail(
        call,
        'unavailable',
        `expected an event stream from ${shown(call.request.url)}, got ${type || 'no content type'}: ${providerMessage(text).slice(0, 300)}`,
      );
    });
  }
  return new Promise((resolve, reject) => {
    let failed = false;
    let received = 0;
    const stop = (error: unknown) => {
      if (failed) return;
      failed = true;
      response.destroy();
      reject(error);
    };
    const parser = createParser({
      onEvent: (event) => {
        if (!failed) onEvent(event);
      },
    });
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      received += chunk.length;
      if (received > MAX_STREAM_CHARS)
        return stop(
          fail(
            call,
            'unavailable',
            `stream from ${shown(call.request.url)} too large: over ${MAX_STREAM_CHARS} characters`,
          ),
        );
      try {
        parser.feed(chunk);
      } catch (error) {
        stop(error);
      }
    });
    response.on('end', () => {
      if (!failed) resolve();
    });
    response.on('error', stop);
    response.on('close', () => {
      if (!response.complete) stop(new Error('connection closed before the stream ended'));
    });
  });
}

/** A whole answer ends in one of the `finished` reasons; anything else (or none: `what` names it) is a failed call. */
export function checkFinish(call: WireCall, reason: unknown, finished: ReadonlySet<string>, what: string): void {
  if (typeof reason !== 'string' || !finished.has(reason)) {
    throw fail(
      call,
      'unavailable',
      `answer ended without a normal finish (${typeof reason === 'string' ? reason : `no ${what}`})`,
    );
  }
}

/** JSON.parse of an event's data; a garbled event is the provider misbehaving, not a crash. */
export function parseEventData(call: WireCall, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw fail(call, 'unavailable', `garbled event from ${shown(call.request.url)}: ${data.slice(0, 200)}`, error);
  }
}

/** Picks fields off parsed provider JSON without a schema: only what we read is checked. */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
