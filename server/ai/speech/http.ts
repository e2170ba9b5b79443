// The HTTP both speech adapters share: one deadline per call (the caller's signal and the
// *_TIMEOUT_MS), answers read with a size cap, and every failure mapped to one SpeechFailure with a
// log detail that never holds the key (the same rules as the image providers' provider-http.ts).
import { SpeechError, type SpeechFailure } from './types';

export interface CallContext {
  /** The caller's signal combined with the timeout; one per call. */
  signal: AbortSignal;
  timeoutMs: number;
  /** Removed from every detail, in whatever form the provider might echo it. */
  secrets: string[];
}

export function startCall(callerSignal: AbortSignal, timeoutMs: number, apiKey: string | undefined): CallContext {
  const secrets = apiKey ? [apiKey, Buffer.from(apiKey).toString('base64')] : [];
  return { signal: AbortSignal.any([callerSignal, AbortSignal.timeout(timeoutMs)]), timeoutMs, secrets };
}

/** A Bearer token when a key is set; local servers (Kokoro, faster-whisper) usually take none. */
export function bearer(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function redact(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret.length >= 4) clean = clean.split(secret).join('[redacted]');
  return clean;
}

/** The URL as logged: no credentials, no query string. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(bad URL)';
  }
}

export function fail(context: CallContext, failure: SpeechFailure, detail: string, cause?: unknown): SpeechError {
  return new SpeechError(failure, redact(detail, context.secrets), cause === undefined ? undefined : { cause });
}

/** A thrown fetch or body-read error: the deadline if the signal fired, else the network. */
function networkFailure(context: CallContext, error: unknown, what: string): SpeechError {
  if (error instanceof SpeechError) return error;
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

/** The answer's bytes, at most `limit`: past it the call fails, or with `truncate` (an error's text) the rest is dropped. */
async function readCapped(response: Response, limit: number, context: CallContext, what: string, truncate = false): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > limit && !truncate) {
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
      if (truncate) return Buffer.concat([...chunks, value]).subarray(0, limit);
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
      if (isRecord(detail) && typeof detail.message === 'string') return detail.message;
      if (Array.isArray(detail)) return detail.map((item) => (isRecord(item) && typeof item.msg === 'string' ? item.msg : JSON.stringify(item))).join('; ');
      for (const key of ['message', 'error'] as const) if (typeof body[key] === 'string' && body[key]) return body[key];
    }
  } catch {
    // Not JSON: the text itself says what happened.
  }
  return raw.replace(/\s+/g, ' ').trim();
}

function statusFailure(status: number): SpeechFailure {
  if (status === 429 || status >= 500) return 'unavailable';
  if (status === 408) return 'timeout';
  return 'misconfigured';
}

/**
 * Sends one request and reads the whole answer (at most `limit` bytes). A non-2xx answer throws
 * the mapped SpeechError with the provider's own words in the detail.
 */
export async function call(url: string, init: RequestInit, limit: number, context: CallContext): Promise<{ response: Response; body: Buffer }> {
  const what = `${init.method ?? 'GET'} ${shown(url)}`;
  let response: Response;
  let body: Buffer;
  try {
    response = await fetch(url, { ...init, signal: context.signal });
    body = response.ok ? await readCapped(response, limit, context, what) : await readCapped(response, 4096, context, what, true);
  } catch (error) {
    throw networkFailure(context, error, what);
  }
  if (!response.ok) {
    const message = providerMessage(body.toString('utf8')).slice(0, 500);
    throw fail(context, statusFailure(response.status), `HTTP ${response.status} from ${what}: ${message || response.statusText}`);
  }
  return { response, body };
}
