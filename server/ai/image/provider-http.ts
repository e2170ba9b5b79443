// The HTTP both remote painters share (OpenAI-compatible images and automatic1111): the rules of
// ../provider-http.ts bound to ImageError (one deadline per call under IMAGE_TIMEOUT_MS, capped
// bodies, keys never in a detail), plus what only pictures need: JSON posts, base64 and downloads.
import { bearer, providerHttp, shown, type CallContext } from '../provider-http';
import { getPicture, NotPublicAddressError, refusedPictureUrl, type Resolve } from './picture-download';
import { ImageError } from './types';
import { MAX_PROVIDER_IMAGE_BYTES } from './stored-image';

export { isRecord, startCall, type CallContext } from '../provider-http';

/** A JSON answer carries the picture as base64 (4/3 of its size) plus a little metadata. */
const MAX_JSON_ANSWER_BYTES = Math.ceil((MAX_PROVIDER_IMAGE_BYTES * 4) / 3) + 1024 * 1024;

// An unfollowed 3xx is retried like a passing fault rather than taken for a wrong base URL.
const http = providerHttp(ImageError, { unfollowedRedirect: 'unavailable' });
const { fail, networkFailure, readCapped } = http;

/** `Bearer key`, or HTTP Basic when the key is `user:password` (a WebUI started with --api-auth). */
export function authorizationFor(apiKey: string | undefined, allowBasic: boolean): Record<string, string> {
  if (!apiKey) return {};
  if (allowBasic && apiKey.includes(':')) return { authorization: `Basic ${Buffer.from(apiKey).toString('base64')}` };
  return bearer(apiKey);
}

/** POSTs JSON and returns the parsed JSON answer (a picture in base64 at most), or throws the mapped ImageError. */
export const postJson = (url: string, body: unknown, headers: Record<string, string>, context: CallContext) =>
  http.postJson(url, body, headers, MAX_JSON_ANSWER_BYTES, context);

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Base64 picture bytes (a `data:` prefix allowed), refused before decoding when over the limit. */
export function decodeBase64Image(text: string, context: CallContext, what: string): Uint8Array {
  const payload = text.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
  if (!payload || !BASE64.test(payload)) throw fail(context, 'invalid_output', `${what} is not base64`);
  const size = Math.floor((payload.length * 3) / 4);
  if (size > MAX_PROVIDER_IMAGE_BYTES + 2) {
    throw fail(
      context,
      'invalid_output',
      `${what} too large: about ${size} bytes, the limit is ${MAX_PROVIDER_IMAGE_BYTES}`,
    );
  }
  return new Uint8Array(Buffer.from(payload, 'base64'));
}

/**
 * The picture behind a URL the provider answered with: a `data:` URL is decoded in place, anything
 * else fetched under the same deadline and the rules of picture-download.ts (http(s) only, no
 * redirects, the provider's own host or a public address). No key is sent: such URLs are
 * pre-signed, often on another host. A refused URL is a bad answer (invalid_output), so the
 * picture fails at once with its reason rather than being retried.
 */
export async function downloadImage(
  url: string,
  context: CallContext,
  providerHost: string,
  resolve?: Resolve,
): Promise<Uint8Array> {
  if (url.startsWith('data:')) {
    if (/^data:[^,]*;base64,/i.test(url)) return decodeBase64Image(url, context, 'data: URL');
    const payload = url.slice(url.indexOf(',') + 1);
    if (payload.length > MAX_PROVIDER_IMAGE_BYTES * 3)
      throw fail(context, 'invalid_output', `data: URL too large: ${payload.length} characters`);
    try {
      return new Uint8Array(Buffer.from(decodeURIComponent(payload), 'latin1'));
    } catch (error) {
      throw fail(context, 'invalid_output', 'data: URL is not valid percent-encoding', error);
    }
  }
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const refused = parsed ? refusedPictureUrl(parsed, providerHost) : 'picture URL is not a URL';
  if (!parsed || refused) throw fail(context, 'invalid_output', refused ?? 'picture URL is not a URL');
  const what = `GET ${shown(url)}`;
  try {
    const response = await getPicture(parsed, { providerHost, signal: context.signal, resolve });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      // A redirect is never followed; a missing or expired picture is a bad answer, not a bad configuration.
      const failure = response.status === 429 || response.status >= 500 ? 'unavailable' : 'invalid_output';
      const redirect = response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : '';
      throw fail(context, failure, `HTTP ${response.status} from ${what}${redirect}`);
    }
    return new Uint8Array(await readCapped(response, MAX_PROVIDER_IMAGE_BYTES, context, what));
  } catch (error) {
    if (error instanceof NotPublicAddressError)
      throw fail(context, 'invalid_output', `${what}: ${error.message}`, error);
    throw networkFailure(context, error, what);
  }
}
