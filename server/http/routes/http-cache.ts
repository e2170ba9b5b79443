// Conditional GETs for the routes that answer with an ETag (shared stories, stored pictures, spoken
// sentences): one reading of If-None-Match for all of them.
import type { FastifyRequest } from 'fastify';

/** If-None-Match names this ETag (weak forms included, as browsers revalidate) or is `*`. */
export function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
