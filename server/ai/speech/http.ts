// The HTTP both speech adapters share: the rules of ../provider-http.ts (the image providers' too)
// bound to SpeechError: one deadline per call under the *_TIMEOUT_MS, capped answers, keys never in
// a detail. What is left here is speech's own: one request-and-read call.
import { ERROR_TEXT_BYTES, providerHttp, shown, type CallContext } from '../provider-http';
import { SpeechError } from './types';

// An unfollowed 3xx means the base URL points somewhere that is not the speech API.
const { fail, networkFailure, readCapped, statusError } = providerHttp(SpeechError, {
  unfollowedRedirect: 'misconfigured',
});

export { fail };
export { bearer, startCall, type CallContext } from '../provider-http';

/**
 * Sends one request and reads the whole answer (at most `limit` bytes). A non-2xx answer throws
 * the mapped SpeechError with the provider's own words in the detail.
 */
export async function call(
  url: string,
  init: RequestInit,
  limit: number,
  context: CallContext,
): Promise<{ response: Response; body: Buffer }> {
  const what = `${init.method ?? 'GET'} ${shown(url)}`;
  let response: Response;
  let body: Buffer;
  try {
    response = await fetch(url, { ...init, signal: context.signal });
    body = response.ok
      ? await readCapped(response, limit, context, what)
      : await readCapped(response, ERROR_TEXT_BYTES, context, what, true);
  } catch (error) {
    throw networkFailure(context, error, what);
  }
  if (!response.ok) throw statusError(context, response, what, body);
  return { response, body };
}
