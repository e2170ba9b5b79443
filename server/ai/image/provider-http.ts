// The HTTP both remote painters share (OpenAI-compatible images and automatic1111): one deadline
// for the whole call (the caller's signal and IMAGE_TIMEOUT_MS), bodies read with a size cap, and
// every failure mapped to one ImageFailure with a log detail that never holds the key.
import { ImageError, type ImageFailure } from './types';
import { MAX_PROVIDER_IMAGE_BYTES } from './stored-image';

/** A JSON answer carries the picture as base64 (4/3 of its size) plus a little metadata. */
const MAX_JSON_ANSWER_BYTES = Math.ceil((MAX_PROVIDER_IMAGE_BYTES * 4) / 3) + 1024 * 1024;

export interface CallContext {
  /** The caller's signal combined with the timeout; one per generate call. */
  signal: AbortSignal;
  timeoutMs: number;
  /** Removed from every detail, in whatever form the provider might echo it. */
  secrets: string[];
}

export function startCall(callerSignal: AbortSignal, timeoutMs: number, apiKey: string | undefined): CallContext {
  const secrets = apiKey ? [apiKey, Buffer.from(apiKey).toString('base64')] : [];
  return { signal: AbortSignal.any([callerSignal, AbortSignal.timeout(timeoutMs)]), timeoutMs, secrets };
}

/** `Bearer key`, or HTTP Basic when the key is `user:password` (a WebUI started with --api-auth). */
export function authorizationFor(apiKey: string | undefined, allowBasic: boolean): Record<string, string> {
  if (!apiKey) return {};
  if (allowBasic && apiKey.includes(':')) return { authorization: `Basic ${Buffer.from(apiKey).toString('base64')}` };
  return { authorization: `Bearer ${apiKey}` };
}

export function redact(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret.length >= 4) clean = clean.split(secret).join('[redacted]');
  return clean;
}

/** The URL as logged: no credentials, no query string (pre-signed download URLs carry tokens there). */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(bad URL)';
  }
}

function fail(context: CallContext, failure: ImageFailure, detail: string, cause?: unknown): ImageError {
  return new ImageError(failure, redact(detail, context.secrets), cause === undefined ? undefined : { cause });
}

/** A thrown fetch or body-read error: the deadline if the signal fired, else the network. */
function networkFailure(context: CallContext, error: unknown, what: string): ImageError {
  if (error instanceof ImageError) return error;
  if (context.signal.aborted) {
    const reason: unknown = context.signal.reason;
    const timedOut = reason instanceof DOMException && reason.name === 'TimeoutError';
    const detail = timedOut ? `no answer from ${what} within ${context.timeoutMs} ms` : `${what} was cancelled`;
    return fail(context, 'timeout', detail, error);
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = cause && 'code' in cause ? ` (${String(cause.code)})` : '';
  const message = error instanceof Error ? error.message : String(error);
  return fail(context, 'unavailable', `${what}: ${message}${code}${cause ? `: ${cause.message}` : ''}`, error);
}

async function readCapped(response: Response, limit: number, context: CallContext, what: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw fail(context, 'invalid_output', `answer from ${what} too large: ${declared} bytes declared, the limit is ${limit}`);
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw fail(context, 'invalid_output', `answer from ${what} too large: over ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** What the provider said went wrong, from OpenAI's `{error:{message}}`, FastAPI's `{detail}` or plain text. */
function providerMessage(raw: string): string {
  try {
    const body: unknown = JSON.parse(raw);
    if (isRecord(body)) {
      const error = body.error;
      if (isRecord(error) && typeof error.message === 'string') return error.message;
      const detail = body.detail;
      if (typeof detail === 'string' && detail) return detail;
      if (Array.isArray(detail)) return detail.map((item) => (isRecord(item) && typeof item.msg === 'string' ? item.msg : JSON.stringify(item))).join('; ');
      for (const key of ['errors', 'message', 'error'] as const) if (typeof body[key] === 'string' && body[key]) return body[key];
    }
  } catch {
    // Not JSON: the text itself says what happened.
  }
  return raw.replace(/\s+/g, ' ').trim();
}

function statusFailure(status: number): ImageFailure {
  if (status === 429 || status >= 500) return 'unavailable';
  if (status === 408) return 'timeout';
  if (status >= 400) return 'misconfigured';
  return 'unavailable';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** POSTs JSON and returns the parsed JSON answer, or throws the mapped ImageError. */
export async function postJson(url: string, body: unknown, headers: Record<string, string>, context: CallContext): Promise<unknown> {
  const what = `POST ${shown(url)}`;
  let raw: Buffer;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: context.signal,
    });
    raw = await readCapped(response, MAX_JSON_ANSWER_BYTES, context, what);
  } catch (error) {
    throw networkFailure(context, error, what);
  }
  if (!response.ok) {
    const message = providerMessage(raw.subarray(0, 4096).toString('utf8')).slice(0, 500);
    throw fail(context, statusFailure(response.status), `HTTP ${response.status} from ${what}: ${message || response.statusText}`);
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (error) {
    const start = raw.subarray(0, 80).toString('utf8').replace(/\s+/g, ' ');
    throw fail(context, 'invalid_output', `answer from ${what} is not JSON: ${JSON.stringify(start)}`, error);
  }
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Base64 picture bytes (a `data:` prefix allowed), refused before decoding when over the limit. */
export function decodeBase64Image(text: string, context: CallContext, what: string): Uint8Array {
  const payload = text.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
  if (!payload || !BASE64.test(payload)) throw fail(context, 'invalid_output', `${what} is not base64`);
  const size = Math.floor((payload.length * 3) / 4);
  if (size > MAX_PROVIDER_IMAGE_BYTES + 2) {
    throw fail(context, 'invalid_output', `${what} too large: about ${size} bytes, the limit is ${MAX_PROVIDER_IMAGE_BYTES}`);
  }
  return new Uint8Array(Buffer.from(payload, 'base64'));
}

/**
 * The picture behind a URL the provider answered with: a `data:` URL is decoded in place, anything
 * else fetched under the same deadline. No key is sent: such URLs are pre-signed, often on another host.
 */
export async function downloadImage(url: string, context: CallContext): Promise<Uint8Array> {
  if (url.startsWith('data:')) {
    if (/^data:[^,]*;base64,/i.test(url)) return decodeBase64Image(url, context, 'data: URL');
    const payload = url.slice(url.indexOf(',') + 1);
    if (payload.length > MAX_PROVIDER_IMAGE_BYTES * 3) throw fail(context, 'invalid_output', `data: URL too large: ${payload.length} characters`);
    try {
      return new Uint8Array(Buffer.from(decodeURIComponent(payload), 'latin1'));
    } catch (error) {
      throw fail(context, 'invalid_output', 'data: URL is not valid percent-encoding', error);
    }
  }
  if (!/^https?:\/\//i.test(url)) throw fail(context, 'invalid_output', `picture URL is neither http(s) nor data: (${url.slice(0, 12)}…)`);
  const what = `GET ${shown(url)}`;
  try {
    const response = await fetch(url, { signal: context.signal });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      // A missing or expired picture is a bad answer, not a bad configuration.
      const failure = response.status === 429 || response.status >= 500 ? 'unavailable' : 'invalid_output';
      throw fail(context, failure, `HTTP ${response.status} from ${what}`);
    }
    return new Uint8Array(await readCapped(response, MAX_PROVIDER_IMAGE_BYTES, context, what));
  } catch (error) {
    throw networkFailure(context, error, what);
  }
}
