// The spec's read and write rules: network-only read retries (never on 401), data
// fresh for 30 s, no refetch on focus, writes never retried, and which failures reach a toast.
import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError, API_MESSAGES } from './api-client';
import { createQueryClient, mentionsFailedFetch, shouldRetryRead, UNEXPECTED_ERROR_MESSAGE } from './query-client';

const networkError = () => new ApiRequestError(API_MESSAGES.network, { status: 0, code: 'NETWORK_ERROR' });

describe('shouldRetryRead', () => {
  it('retries network failures up to three times', () => {
    expect(shouldRetryRead(0, networkError())).toBe(true);
    expect(shouldRetryRead(2, networkError())).toBe(true);
    expect(shouldRetryRead(3, networkError())).toBe(false);
    expect(shouldRetryRead(0, new TypeError('Failed to fetch'))).toBe(true);
  });

  it('never retries a 401, even one whose message mentions fetch', () => {
    expect(
      shouldRetryRead(
        0,
        new ApiRequestError('Failed to fetch user: Authentication required', { status: 401, code: 'UNAUTHENTICATED' }),
      ),
    ).toBe(false);
  });

  it('does not retry server errors or other failures', () => {
    expect(shouldRetryRead(0, new ApiRequestError('Internal error', { status: 500, code: 'INTERNAL_ERROR' }))).toBe(
      false,
    );
    expect(shouldRetryRead(0, new Error('Expected JSON response from server'))).toBe(false);
    expect(shouldRetryRead(0, 'Failed to fetch')).toBe(false);
  });

  it('recognises the failed-fetch wording case-insensitively', () => {
    expect(mentionsFailedFetch(new Error('FAILED TO FETCH'))).toBe(true);
    expect(mentionsFailedFetch(new Error('Load failed'))).toBe(false);
  });
});

describe('createQueryClient', () => {
  it('applies the default read and write options', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.staleTime).toBe(30_000);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.queries?.retry).toBe(shouldRetryRead);
    expect(defaults.mutations?.retry).toBe(false);
  });

  it('reports read failures except 401 and queries that handle their own errors', async () => {
    const reportError = vi.fn();
    const client = createQueryClient(reportError);
    const fail = (error: Error) => () => Promise.reject(error);

    await expect(
      client.fetchQuery({
        queryKey: ['a'],
        queryFn: fail(new ApiRequestError('Server exploded', { status: 500, code: 'X' })),
      }),
    ).rejects.toThrow();
    await expect(
      client.fetchQuery({
        queryKey: ['b'],
        queryFn: fail(new ApiRequestError('Authentication required', { status: 401, code: 'X' })),
      }),
    ).rejects.toThrow();
    await expect(
      client.fetchQuery({
        queryKey: ['c'],
        queryFn: fail(new ApiRequestError('Quiet', { status: 500, code: 'X' })),
        meta: { errorToast: false },
      }),
    ).rejects.toThrow();

    expect(reportError).toHaveBeenCalledTimes(1);
    expect(reportError).toHaveBeenCalledWith('Server exploded');
  });

  it('reports write failures with the spec default when the error has no message, and never retries them', async () => {
    const reportError = vi.fn();
    const client = createQueryClient(reportError);
    const mutationFn = vi.fn(() => Promise.reject(new Error('')));
    const mutation = client.getMutationCache().build(client, { mutationFn });
    await expect(mutation.execute(undefined)).rejects.toThrow();
    expect(mutationFn).toHaveBeenCalledTimes(1);
    expect(reportError).toHaveBeenCalledWith(UNEXPECTED_ERROR_MESSAGE);
  });
});
