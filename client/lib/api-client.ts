// The one way the client talks to the server: session cookies on every call,
// no-cache JSON reads, CSRF-marked JSON writes, and one error type carrying status, code and message.
import type { ApiError } from '@shared/schemas/common';

/** Anything with a zod-style parse; kept structural so this module does not pull zod in itself. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

export const CLIENT_ERROR_CODES = {
  network: 'NETWORK_ERROR',
  nonJson: 'NON_JSON_RESPONSE',
  invalidResponse: 'INVALID_RESPONSE',
  http: 'HTTP_ERROR',
} as const;

export const API_MESSAGES = {
  expectedJson: 'Expected JSON response from server',
  nonJsonWrite: 'Server sent non-JSON response',
  authRequired: 'Authentication required',
  requestFailed: 'Request failed',
  invalidResponse: 'Invalid response format',
  /** Starts with the browser's own words so the network-only retry rule recognises it everywhere. */
  network: 'Failed to fetch: the server could not be reached. Check your connection and try again.',
} as const;

export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ApiError['details'];

  constructor(message: string, options: { status: number; code: string; details?: ApiError['details'] }) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = options.status;
    this.code = options.code;
    this.details = options.details;
  }
}

export function isApiRequestError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

export function isUnauthorizedError(error: unknown): boolean {
  return isApiRequestError(error) && error.status === 401;
}

/** The spec's writes add a missing leading slash; reads get the same care so 'api/x' never resolves relative to the page. */
export function normalizePath(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}

const READ_HEADERS = {
  Accept: 'application/json',
  'Cache-Control': 'no-cache',
  Pragma: 'no-cache',
} as const;

/**
 * Says a request is the app's own: no other site's page can send it without a CORS preflight. Writes
 * carry it, and so do the reads that may start paid work on the server (a title, a
 * style sheet, a sentence in a server voice), which the server refuses to pay for without it or the
 * browser's Sec-Fetch-Site: same-origin.
 */
export const OWN_APP_HEADER = { 'X-Requested-With': 'XMLHttpRequest' } as const;

const WRITE_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json',
  ...OWN_APP_HEADER,
} as const;

function isJsonResponse(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().includes('application/json');
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** Reads `{error: {message}}` first and then `{message}`: the spec names both sources in that order. */
function messageFromBody(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const nested = record.error;
  if (typeof nested === 'object' && nested !== null) {
    const nestedMessage = nonEmptyString((nested as Record<string, unknown>).message);
    if (nestedMessage) return nestedMessage;
  }
  return nonEmptyString(record.message);
}

function codeFromBody(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  return nonEmptyString((body as Record<string, unknown>).code);
}

function detailsFromBody(body: unknown): ApiError['details'] {
  if (typeof body !== 'object' || body === null) return undefined;
  const details = (body as Record<string, unknown>).details;
  return Array.isArray(details) ? (details as ApiError['details']) : undefined;
}

/** Builds the error for a non-OK answer with the spec's fallbacks. */
async function errorFromResponse(response: Response): Promise<ApiRequestError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    text = '';
  }
  let body: unknown = null;
  try {
    body = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    body = null;
  }
  const fromBody = messageFromBody(body);
  const message =
    response.status === 401
      ? (fromBody ?? API_MESSAGES.authRequired)
      : (fromBody ?? nonEmptyString(text.trim()) ?? nonEmptyString(response.statusText) ?? API_MESSAGES.requestFailed);
  return new ApiRequestError(message, {
    status: response.status,
    code: codeFromBody(body) ?? CLIENT_ERROR_CODES.http,
    details: detailsFromBody(body),
  });
}

/**
 * fetch with the session (credentials unless the caller narrows them) and one stable, recognisable
 * error when the server is unreachable (fetch rejects only then). Callers that send or read
 * something other than JSON (audio) use it directly and readJson for the answer.
 */
export async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(normalizePath(path), { credentials: 'include', ...init });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(API_MESSAGES.network, { status: 0, code: CLIENT_ERROR_CODES.network });
  }
}

async function parseJsonBody<T>(response: Response, schema: ResponseSchema<T> | undefined): Promise<T> {
  let data: unknown;
  try {
    data = await response.json();
  } catch {
    throw new ApiRequestError(API_MESSAGES.invalidResponse, {
      status: response.status,
      code: CLIENT_ERROR_CODES.invalidResponse,
    });
  }
  if (!schema) return data as T;
  try {
    return schema.parse(data);
  } catch {
    throw new ApiRequestError(API_MESSAGES.invalidResponse, {
      status: response.status,
      code: CLIENT_ERROR_CODES.invalidResponse,
    });
  }
}

export interface ReadOptions<T> {
  schema?: ResponseSchema<T>;
  signal?: AbortSignal;
  /** The read may start paid work on the server: it says it is the app's own (OWN_APP_HEADER). */
  startsPaidWork?: boolean;
}

/** GET a JSON resource. */
export async function apiGet<T = unknown>(path: string, options: ReadOptions<T> = {}): Promise<T> {
  const headers = options.startsPaidWork ? { ...READ_HEADERS, ...OWN_APP_HEADER } : READ_HEADERS;
  return readJson(await send(path, { method: 'GET', headers, signal: options.signal }), options.schema);
}

/** Starts a GET now and answers its response later (a read begun before the code that uses it has loaded). */
export function apiGetEarly(path: string): Promise<Response> {
  return send(path, { method: 'GET', headers: READ_HEADERS });
}

/** The JSON of a read's response, with the same errors as apiGet. */
export async function readJson<T = unknown>(response: Response, schema?: ResponseSchema<T>): Promise<T> {
  if (!response.ok) throw await errorFromResponse(response);
  if (!isJsonResponse(response)) {
    throw new ApiRequestError(API_MESSAGES.expectedJson, { status: response.status, code: CLIENT_ERROR_CODES.nonJson });
  }
  return parseJsonBody(response, schema);
}

/** HEAD a resource and report only its status: the periodic session check needs nothing more. */
export async function apiHead(path: string, options: { signal?: AbortSignal } = {}): Promise<number> {
  const response = await send(path, { method: 'HEAD', headers: READ_HEADERS, signal: options.signal });
  return response.status;
}

export type WriteMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface WriteOptions<T> {
  method?: WriteMethod;
  body?: unknown;
  schema?: ResponseSchema<T>;
  signal?: AbortSignal;
}

/**
 * Send a JSON write. A call without a payload still sends `{}`: a JSON content type with an empty
 * body is rejected by the server's parser.
 */
export async function apiWrite<T = unknown>(path: string, options: WriteOptions<T> = {}): Promise<T> {
  const response = await send(path, {
    method: options.method ?? 'POST',
    headers: WRITE_HEADERS,
    body: JSON.stringify(options.body ?? {}),
    signal: options.signal,
  });
  if (!response.ok) throw await errorFromResponse(response);
  if (!isJsonResponse(response)) {
    throw new ApiRequestError(API_MESSAGES.nonJsonWrite, { status: response.status, code: CLIENT_ERROR_CODES.nonJson });
  }
  return parseJsonBody(response, options.schema);
}

export interface FetchOptions {
  method?: 'GET' | WriteMethod;
  body?: unknown;
  /** Overrides the Accept header (a streamed story turn asks for text/event-stream). */
  accept?: string;
  signal?: AbortSignal;
}

/**
 * The raw response of a call made with the client's rules (credentials, read or write headers,
 * one network error), for callers that read the body themselves: streamed story turns and the
 * tolerant bookmark recovery. Status is not checked here.
 */
export async function apiFetch(path: string, options: FetchOptions = {}): Promise<Response> {
  const method = options.method ?? 'GET';
  const base = method === 'GET' ? READ_HEADERS : WRITE_HEADERS;
  return send(path, {
    method,
    headers: options.accept ? { ...base, Accept: options.accept } : base,
    body: method === 'GET' ? undefined : JSON.stringify(options.body ?? {}),
    signal: options.signal,
  });
}

/** The message to show for any failure, with a caller-chosen default for errors that carry none. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  return fallback;
}
