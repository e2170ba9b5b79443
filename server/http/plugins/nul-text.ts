// Text holding U+0000 is refused where a request comes in (issue 23). PostgreSQL's text cannot store
// the character, so a title, a note, a name or a search holding it failed inside a query as a 500;
// no field of the API has a use for it. One rule at the two doors (the JSON body parser and the
// query string of the account routes) covers every field, present and future, instead of each schema.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError, MESSAGES } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';

export const nulTextError = () => new AppError(400, ERROR_CODES.validation, MESSAGES.nulText);

/** True when any string of a parsed JSON value (an object's keys included) holds U+0000. Iterative: no depth can overflow the stack. */
export function holdsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes('\0')) return true;
    } else if (Array.isArray(item)) {
      for (const entry of item) pending.push(entry);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, entry] of Object.entries(item)) {
        if (key.includes('\0')) return true;
        pending.push(entry);
      }
    }
  }
  return false;
}

/**
 * For the JSON body parser. JSON can carry U+0000 only as the escape `\u0000` (a raw control
 * character is not JSON), so a body whose text lacks those six characters is never walked; one
 * that has them is walked once, in time bounded by its own size.
 */
export function jsonHoldsNul(text: string, parsed: unknown): boolean {
  return text.includes('\\u0000') && holdsNul(parsed);
}

/** onRequest hook: a query can carry U+0000 only as `%00`, so other URLs cost one substring search. */
export function refuseNulQuery(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  done(request.url.includes('%00') && holdsNul(request.query) ? nulTextError() : undefined);
}
