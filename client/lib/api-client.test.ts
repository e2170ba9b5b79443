// The API client's contract: headers, credentials, paths, and the exact
// error messages for every failure shape.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { jsonResponse, mockFetch } from '@client/test/utils';
import {
  API_MESSAGES,
  ApiRequestError,
  apiGet,
  apiHead,
  apiWrite,
  CLIENT_ERROR_CODES,
  errorMessage,
  normalizePath,
} from './api-client';

async function caught(promise: Promise<unknown>): Promise<ApiRequestError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiRequestError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

const textResponse = (text: string, status: number, statusText = '') =>
  new Response(text, { status, statusText, headers: { 'Content-Type': 'text/plain' } });

describe('apiGet', () => {
  it('sends credentials, Accept JSON and no-cache headers, and returns the parsed body', async () => {
    const fetchMock = mockFetch(() => jsonResponse({ available: true }));
    const result = await apiGet('/api/check-username?username=ada');
    expect(result).toEqual({ available: true });
    const [request] = fetchMock.requests;
    expect(request.url).toBe('/api/check-username?username=ada');
    expect(request.method).toBe('GET');
    expect(request.credentials).toBe('include');
    expect(request.headers.get('Accept')).toBe('application/json');
    expect(request.headers.get('Cache-Control')).toBe('no-cache');
    expect(request.headers.get('Pragma')).toBe('no-cache');
    expect(request.headers.get('X-Requested-With')).toBeNull();
  });

  it("says a read that starts paid work is the app's own (X-Requested-With), and only that read", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ title: 'The Tide' }));
    await apiGet('/api/story/3/generate-title', { startsPaidWork: true });
    expect(fetchMock.requests[0].headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(fetchMock.requests[0].headers.get('Accept')).toBe('application/json');
    expect(fetchMock.requests[0].headers.get('Cache-Control')).toBe('no-cache');
  });

  it('adds a missing leading slash', async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    await apiGet('api/user');
    expect(fetchMock.requests[0].url).toBe('/api/user');
  });

  it("throws 'Expected JSON response from server' for a non-JSON answer", async () => {
    mockFetch(() => new Response('<html></html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    const error = await caught(apiGet('/api/user'));
    expect(error.message).toBe('Expected JSON response from server');
    expect(error.code).toBe(CLIENT_ERROR_CODES.nonJson);
  });

  it('uses the body message on 401, else "Authentication required"', async () => {
    mockFetch(() => jsonResponse({ message: 'Session expired', code: 'UNAUTHENTICATED' }, { status: 401 }));
    const withMessage = await caught(apiGet('/api/user'));
    expect(withMessage).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: 'Session expired' });

    mockFetch(() => textResponse('nope', 401, 'Unauthorized'));
    const withoutMessage = await caught(apiGet('/api/user'));
    expect(withoutMessage).toMatchObject({ status: 401, message: 'Authentication required' });
  });

  it('prefers error.message, then message, then the response text, then the status text, then "Request failed"', async () => {
    mockFetch(() => jsonResponse({ error: { message: 'Nested reason' }, message: 'Top reason' }, { status: 500 }));
    expect((await caught(apiGet('/x'))).message).toBe('Nested reason');

    mockFetch(() => jsonResponse({ message: 'Top reason', code: 'CONFLICT' }, { status: 409 }));
    const conflict = await caught(apiGet('/x'));
    expect(conflict).toMatchObject({ message: 'Top reason', status: 409, code: 'CONFLICT' });

    mockFetch(() => textResponse('Bad gateway from proxy', 502, 'Bad Gateway'));
    expect((await caught(apiGet('/x'))).message).toBe('Bad gateway from proxy');

    mockFetch(() => textResponse('', 503, 'Service Unavailable'));
    const unavailable = await caught(apiGet('/x'));
    expect(unavailable).toMatchObject({ message: 'Service Unavailable', status: 503, code: CLIENT_ERROR_CODES.http });

    mockFetch(() => textResponse('', 500, ''));
    expect((await caught(apiGet('/x'))).message).toBe('Request failed');
  });

  it('carries validation details from the error body', async () => {
    const details = [{ path: 'username', message: 'Username must be at least 3 characters' }];
    mockFetch(() => jsonResponse({ message: details[0].message, code: 'VALIDATION_ERROR', details }, { status: 400 }));
    const error = await caught(apiGet('/x'));
    expect(error.details).toEqual(details);
  });

  it('turns an unreachable server into a network error that mentions a failed fetch', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('NetworkError when attempting to fetch resource.'))),
    );
    const error = await caught(apiGet('/api/user'));
    expect(error).toMatchObject({ status: 0, code: CLIENT_ERROR_CODES.network, message: API_MESSAGES.network });
    expect(error.message.toLowerCase()).toContain('failed to fetch');
  });

  it('validates the body with a schema and reports a mismatch as an invalid response', async () => {
    const schema = z.object({ available: z.boolean() });
    mockFetch(() => jsonResponse({ available: 'yes' }));
    const error = await caught(apiGet('/x', { schema }));
    expect(error).toMatchObject({ message: 'Invalid response format', code: CLIENT_ERROR_CODES.invalidResponse });

    mockFetch(() => jsonResponse({ available: false }));
    await expect(apiGet('/x', { schema })).resolves.toEqual({ available: false });
  });
});

describe('apiWrite', () => {
  it('POSTs a JSON body with the write headers and credentials by default', async () => {
    const fetchMock = mockFetch(() => jsonResponse({ success: true }));
    await apiWrite('api/login', { body: { username: 'ada', password: 'secret1' } });
    const [request] = fetchMock.requests;
    expect(request.url).toBe('/api/login');
    expect(request.method).toBe('POST');
    expect(request.credentials).toBe('include');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.headers.get('Accept')).toBe('application/json');
    expect(request.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(request.body).toEqual({ username: 'ada', password: 'secret1' });
  });

  it('uses the given method and sends {} when there is no payload', async () => {
    const fetchMock = mockFetch(() => jsonResponse({ success: true }));
    await apiWrite('/api/bookmarks/3', { method: 'DELETE' });
    expect(fetchMock.requests[0]).toMatchObject({ method: 'DELETE', body: {} });
  });

  it("throws 'Server sent non-JSON response' for a non-JSON answer", async () => {
    mockFetch(() => new Response('ok', { status: 200, headers: { 'Content-Type': 'text/plain' } }));
    const error = await caught(apiWrite('/api/logout'));
    expect(error.message).toBe('Server sent non-JSON response');
  });

  it('reads write errors from the same sources as reads', async () => {
    mockFetch(() =>
      jsonResponse({ message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' }, { status: 401 }),
    );
    expect(await caught(apiWrite('/api/login', { body: {} }))).toMatchObject({
      status: 401,
      code: 'INVALID_CREDENTIALS',
      message: 'Invalid username or password',
    });

    mockFetch(() =>
      jsonResponse({ message: 'Too many requests, please try again later.', code: 'RATE_LIMITED' }, { status: 429 }),
    );
    expect(await caught(apiWrite('/api/login', { body: {} }))).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
  });
});

describe('apiHead', () => {
  it('returns the status without reading a body', async () => {
    const fetchMock = mockFetch(() => new Response(null, { status: 401 }));
    await expect(apiHead('/api/user')).resolves.toBe(401);
    expect(fetchMock.requests[0]).toMatchObject({ method: 'HEAD', credentials: 'include' });
  });
});

describe('helpers', () => {
  it('normalizePath keeps an existing slash', () => {
    expect(normalizePath('/api/user')).toBe('/api/user');
    expect(normalizePath('api/user')).toBe('/api/user');
  });

  it('errorMessage falls back only when the error has no words', () => {
    expect(errorMessage(new Error('Boom'), 'Default')).toBe('Boom');
    expect(errorMessage(new Error(''), 'Default')).toBe('Default');
    expect(errorMessage('not an error', 'Default')).toBe('Default');
  });
});
