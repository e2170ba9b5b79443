// Whether a request comes from the app's own pages. The spec's GETs that start paid work (a story's
// title, its style sheet, a sentence in a server voice) can also be made by another site's page: a
// link, an <img>, a form or a redirect, and SameSite=Lax sends the session cookie on a top-level GET.
// Such a request must do no paid work: it is answered from what is stored, or the spec's fallback.
// Browsers say where a request comes from in Sec-Fetch-Site (Fetch Metadata): same-origin for the
// app's own fetches, none for an address the player typed or bookmarked. The app's client also sends
// X-Requested-With on these calls, a header no other site's page can send without a CORS preflight
// (which this server never grants), so browsers without Fetch Metadata keep working.
import type { FastifyRequest } from 'fastify';

const OWN_SITES = new Set(['same-origin', 'none']);

export function fromOwnApp(request: FastifyRequest): boolean {
  if (request.headers['x-requested-with'] !== undefined) return true;
  const site = request.headers['sec-fetch-site'];
  return typeof site === 'string' && OWN_SITES.has(site);
}
