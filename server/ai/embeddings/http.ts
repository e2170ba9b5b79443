// The HTTP the embeddings adapters share: the rules of ../provider-http.ts (the picture and speech
// providers' too) bound to EmbeddingsError: one deadline per call, capped answers, keys never in a
// detail. What is left here is embeddings' own: the Bearer header and one JSON post.
import { ERROR_TEXT_BYTES, providerHttp, shown, type CallContext } from '../provider-http';
import { EmbeddingsError } from './types';

// An unfollowed 3xx means the base URL points somewhere that is not the embeddings API.
const { fail, networkFailure, readCapped, statusError } = providerHttp(EmbeddingsError, {
  unfollowedRedirect: 'misconfigured',
});

export { fail };
export { isRecord, startCall, type CallContext } from '../provider-http';

/** A Bearer token when a key is set; local servers (Ollama, LM Studio, llama.cpp's server) take none. */
export function bearer(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/**
 * POSTs `body` as JSON and returns the parsed answer (at most `limit` bytes read). A non-2xx answer
 * throws the mapped EmbeddingsError with the provider's own words in the detail; a 2xx that is not
 * JSON throws invalid_output.
 */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  limit: number,
  context: CallContext,
): Promise<unknown> {
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
    // An error page is read only as far as its message: a proxy's HTML page can be large.
    raw = response.ok
      ? await readCapped(response, limit, context, what)
      : await readCapped(response, ERROR_TEXT_BYTES, context, what, true);
  } catch (error) {
    throw networkFailure(context, error, what);
  }
  if (!response.ok) throw statusError(context, response, what, raw);
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (error) {
    const start = raw.subarray(0, 80).toString('utf8').replace(/\s+/g, ' ');
    throw fail(context, 'invalid_output', `answer from ${what} is not JSON: ${JSON.stringify(start)}`, error);
  }
}
