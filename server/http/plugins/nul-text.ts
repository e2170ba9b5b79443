// Text holding U+0000 is refused where a request comes in. PostgreSQL's text cannot store the
// character, so a title, a note, a name or a search holding it failed inside a query as a 500; no
// field of the API has a use for it. One rule at the two doors (the JSON body parser and the query
// string of the account routes) covers every field, present and future, instead of each schema.
// Routes that take a file's raw bytes past the JSON parser apply the same rule where the import
// worker reads the file (kernel/nul-text.ts).
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { DomainError, MESSAGES } from '@server/kernel/errors';
import { holdsNul } from '@server/kernel/nul-text';
import { ERROR_CODES } from '@shared/schemas/common';

export const nulTextError = () => new DomainError('invalid', ERROR_CODES.validation, MESSAGES.nulText);

/** onRequest hook: a query can carry U+0000 only as `%00`, so other URLs cost one substring search. */
export function refuseNulQuery(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  done(request.url.includes('%00') && holdsNul(request.query) ? nulTextError() : undefined);
}
