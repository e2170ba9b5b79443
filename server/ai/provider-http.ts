// The HTTP rules every remote provider call follows, pictures and speech alike: one deadline per
// call (the caller's signal and the provider's *_TIMEOUT_MS), answers read with a size cap, and
// every failure mapped to one failure kind with a log detail that never holds the key. Each domain
// binds these to its own error class once (providerHttp(ImageError, …)), so its callers keep
// catching the error they know while the rules live in one place.
import { redact } from '@server/kernel/redact';

/** The failure kinds ImageError and SpeechError share; see their types.ts for what each means. */
export type ProviderFailure = 'timeout' | 'unavailable' | 'misconfigured' | 'invalid_output';

/** An error class built like ImageError and SpeechError: `new E(failure, detail, { cause })`. */
export type ProviderErrorClass<E extends Error> = new (
  failure: ProviderFailure,
  detail: string,
  options?: { cause?: unknown },
) => E;

/** How much of an error answer is read: enough for the provider's message, never a whole error page. */
export const ERROR_TEXT_BYTES = 4096;

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

/** A Bearer token when a key is set; local servers (Ollama, Kokoro, faster-whisper, llama.cpp's) usually take none. */
export function bearer(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The URL as logged: no credentials, no query string (pre-signed download URLs carry tokens there). */
export function shown(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(bad URL)';
  }
}

/**
 * What the provider said went wrong: OpenAI's `{error:{message}}`, FastAPI's `{detail}` (a string,
 * Kokoro's `{message}` object or validation items), automatic1111's `{errors}`, or plain text.
 */
export function providerMessage(raw: string): string {
  try {
    const body: unknown = JSON.parse(raw);
    if (isRecord(body)) {
      const error = body.error;
      if (isRecord(error) && typeof error.message === 'string') return error.message;
      const detail = body.detail;
      if (typeof detail === 'string' && detail) return detail;
      if (isRecord(detail) && typeof detail.message === 'string') return detail.message;
      if (Array.isArray(detail))
        return detail
          .map((item) => (isRecord(item) && typeof item.msg === 'string' ? item.msg : JSON.stringify(item)))
          .join('; ');
      for (const key of ['errors', 'message', 'error'] as const)
        if (typeof body[key] === 'string' && body[key]) return body[key];
    }
  } catch {
    // Not JSON: the text itself says what happened.
  }
  return raw.replace(/\s+/g, ' ').trim();
}

export interface ProviderHttpOptions {
  /**
   * The kind for a non-2xx status under 400: a 3xx fetch did not follow (300, 304, no Location).
   * The domains have always differed here: pictures retry it, speech blames the base URL.
   */
  unfollowedRedirect: ProviderFailure;
}

export interface ProviderHttp<E extends Error> {
  /** The domain's error, its detail cleared of the call's secrets. */
  fail(context: CallContext, failure: ProviderFailure, detail: string, cause?: unknown): E;
  /** A thrown fetch or body-read error: the deadline if the signal fired, else the network; one of ours passes through. */
  networkFailure(context: CallContext, error: unknown, what: string): E;
  /** The answer's bytes, at most `limit`: past it the call fails, or with `truncate` (an error's text) the rest is dropped. */
  readCapped(
    response: Response,
    limit: number,
    context: CallContext,
    what: string,
    truncate?: boolean,
  ): Promise<Buffer>;
  /** The error for a non-2xx answer: its status mapped to a kind, the provider's own words in the detail. */
  statusError(context: CallContext, response: Response, what: string, body: Buffer): E;
  /**
   * POSTs `body` as JSON and answers the parsed JSON (at most `limit` bytes read). A non-2xx answer
   * is read only as far as its message (a proxy's error page can be large) and throws the mapped
   * error; a 2xx that is not JSON throws invalid_output.
   */
  postJson(
    url: string,
    body: unknown,
    headers: Record<string, string>,
    limit: number,
    context: CallContext,
  ): Promise<unknown>;
}

export function providerHttp<E extends Error>(
  ErrorClass: ProviderErrorClass<E>,
  options: ProviderHttpOptions,
): ProviderHttp<E> {
  const fail = (context: CallContext, failure: ProviderFailure, detail: string, cause?: unknown): E =>
    new ErrorClass(failure, redact(detail, context.secrets), cause === undefined ? undefined : { cause });

  function statusFailure(status: number): ProviderFailure {
    if (status === 429 || status >= 500) return 'unavailable';
    if (status === 408) return 'timeout';
    if (status >= 400) return 'misconfigured';
    return options.unfollowedRedirect;
  }

  const api: ProviderHttp<E> = {
    fail,

    networkFailure(context, error, what) {
      if (error instanceof ErrorClass) return error;
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
    },

    async readCapped(response, limit, context, what, truncate = false) {
      const declared = Number(response.headers.get('content-length') ?? '0');
      if (declared > limit && !truncate) {
        await response.body?.cancel().catch(() => {});
        throw fail(
          context,
          'invalid_output',
          `answer from ${what} too large: ${declared} bytes declared, the limit is ${limit}`,
        );
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
    },

    statusError(context, response, what, body) {
      const message = providerMessage(body.subarray(0, ERROR_TEXT_BYTES).toString('utf8')).slice(0, 500);
      return fail(
        context,
        statusFailure(response.status),
        `HTTP ${response.status} from ${what}: ${message || response.statusText}`,
      );
    },

    async postJson(url, body, headers, limit, context) {
      const what = `POST ${shown(url)}`;
      let response: Response;
      let raw: Buffer;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
          body: JSON.stringify(body),
          signal: context.signal,
        });
        raw = response.ok
          ? await api.readCapped(response, limit, context, what)
          : await api.readCapped(response, ERROR_TEXT_BYTES, context, what, true);
      } catch (error) {
        throw api.networkFailure(context, error, what);
      }
      if (!response.ok) throw api.statusError(context, response, what, raw);
      try {
        return JSON.parse(raw.toString('utf8')) as unknown;
      } catch (error) {
        const start = raw.subarray(0, 80).toString('utf8').replace(/\s+/g, ' ');
        throw fail(context, 'invalid_output', `answer from ${what} is not JSON: ${JSON.stringify(start)}`, error);
      }
    },
  };
  return api;
}
