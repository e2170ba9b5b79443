// Where to send someone after login or registration (auth page), and the guard that
// keeps the `redirect` parameter from becoming an open redirect.
import { readPendingContinuation, readPendingOperation } from '@client/lib/pending-actions';

const PROBE_ORIGIN = 'https://taleweaver.invalid';
const AUTH_PATH = /^\/auth(?:[/?#]|$)/;

/**
 * Accepts only same-origin relative paths: must start with '/', not '//' or '/\' (browsers read a
 * backslash as a slash), and must still resolve to our own origin. Returns path + query + hash.
 */
export function toSafeRedirect(value: string | null | undefined): string | null {
  if (!value) return null;
  const candidate = value.trim();
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return null;
  // Control characters (tabs, newlines) are stripped by URL parsing and could hide a scheme or host.
  if ([...candidate].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return null;
  try {
    const url = new URL(candidate, PROBE_ORIGIN);
    if (url.origin !== PROBE_ORIGIN) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** The query values that say "start this story after auth" (spec: /story/new target). */
export const STORY_START_PARAMS = ['scenario', 'type', 'preset'] as const;

export interface PendingPaths {
  operationPath: string | null;
  continuationPath: string | null;
}

export function readPendingPaths(): PendingPaths {
  return {
    operationPath: readPendingOperation()?.path ?? null,
    continuationPath: readPendingContinuation()?.path ?? null,
  };
}

/**
 * The spec's order: a saved pending operation's path, else a saved pending continuation's path,
 * else the redirect target, else /story/new when scenario/type/preset are present, else home.
 */
export function resolvePostAuthDestination(
  search: string | URLSearchParams,
  pending: PendingPaths = readPendingPaths(),
): string {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const fromOperation = toSafeRedirect(pending.operationPath);
  if (fromOperation) return fromOperation;
  const fromContinuation = toSafeRedirect(pending.continuationPath);
  if (fromContinuation) return fromContinuation;
  const fromRedirect = toSafeRedirect(params.get('redirect'));
  // Sending someone back to /auth after logging in would only show them the form again.
  if (fromRedirect && !AUTH_PATH.test(fromRedirect)) return fromRedirect;
  const storyParams = new URLSearchParams();
  STORY_START_PARAMS.forEach((name) => {
    const value = params.get(name);
    if (value !== null && value !== '') storyParams.set(name, value);
  });
  if ([...storyParams.keys()].length > 0) return `/story/new?${storyParams.toString()}`;
  return '/';
}

/** The auth page URL that brings the user back to `returnTo` afterwards. */
export function buildAuthPath(returnTo: string): string {
  return `/auth?redirect=${encodeURIComponent(returnTo)}`;
}

/** True when the user came from the token purchase flow: redirect to /tokens carrying a package. */
export function isTokenPurchaseRedirect(search: string | URLSearchParams): boolean {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const redirect = toSafeRedirect(params.get('redirect'));
  if (!redirect) return false;
  const url = new URL(redirect, PROBE_ORIGIN);
  const isTokensPath = url.pathname === '/tokens' || url.pathname.startsWith('/tokens/');
  return isTokensPath && (url.searchParams.has('package') || params.has('package'));
}
