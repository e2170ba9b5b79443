// TanStack Query set up with the spec's read and write rules: reads stay fresh 30 s, are
// not refetched on focus, retry up to 3 times only for network failures and never on 401; writes
// are never retried. Error toasts are injected so this module stays free of UI code.
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { DATA_FRESH_MS, READ_RETRY_LIMIT } from '@shared/constants';
import { errorMessage, isUnauthorizedError } from './api-client';

/** Per-query and per-mutation flags; `errorToast: false` means the feature shows its own message. */
export interface AppQueryMeta extends Record<string, unknown> {
  errorToast?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppQueryMeta;
    mutationMeta: AppQueryMeta;
  }
}

export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred';

/** Browsers word an unreachable server differently; the API client's own network error says "Failed to fetch" too. */
export function mentionsFailedFetch(error: unknown): boolean {
  return error instanceof Error && error.message.toLowerCase().includes('failed to fetch');
}

/** `failureCount` is TanStack's count of earlier failures: 0 on the first one, so `< 3` allows 3 retries. */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  if (isUnauthorizedError(error)) return false;
  if (failureCount >= READ_RETRY_LIMIT) return false;
  return mentionsFailedFetch(error);
}

export interface QueryErrorReporter {
  (message: string): void;
}

/**
 * Builds the app's client. `reportError` receives the message for a destructive 'Error' toast:
 * reads report everything but 401 (that just means logged out), writes report with the spec's default.
 */
export function createQueryClient(reportError?: QueryErrorReporter): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!reportError || query.meta?.errorToast === false || isUnauthorizedError(error)) return;
        reportError(errorMessage(error, UNEXPECTED_ERROR_MESSAGE));
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!reportError || mutation.meta?.errorToast === false) return;
        reportError(errorMessage(error, UNEXPECTED_ERROR_MESSAGE));
      },
    }),
    defaultOptions: {
      queries: {
        retry: shouldRetryRead,
        staleTime: DATA_FRESH_MS,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
