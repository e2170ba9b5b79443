// The one error handler: every failure leaves the API as `{message, code}` (plus `details` for
// validation). A DomainError gets its status from its kind (../error-status.ts) and a Retry-After
// header when it says when to try again. Unknown /api paths are JSON 404s; other unknown paths get
// the SPA, which shows its own 404 page.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_CODES, type ApiError } from '@shared/schemas/common';
import { DomainError, MESSAGES } from '@server/kernel/errors';
import { retryAfterOf, statusOf } from '@server/http/error-status';

const BODY_NOT_OBJECT = 'Request body must be a JSON object';

export function registerErrorHandling(app: FastifyInstance, spaFallback: boolean): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      const retryAfter = retryAfterOf(error);
      if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
      return reply
        .status(statusOf(error))
        .send({ message: error.message, code: error.code, ...error.extra } satisfies ApiError);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: issue.message ?? 'Invalid value',
      }));
      // A missing or non-object body reports at the root; say so plainly instead of zod's wording.
      const first = details[0];
      const message = first.path === '' && error.validationContext === 'body' ? BODY_NOT_OBJECT : first.message;
      return reply.status(400).send({ message, code: ERROR_CODES.validation, details } satisfies ApiError);
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.status(400).send({ message: MESSAGES.badJson, code: ERROR_CODES.badJson });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.status(413).send({
          message: request.routeOptions.config.bodyTooLargeMessage ?? MESSAGES.tooLarge,
          code: ERROR_CODES.tooLarge,
        });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply
          .status(415)
          .send({ message: MESSAGES.unsupportedMediaType, code: ERROR_CODES.unsupportedMediaType });
    }
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return reply.status(400).send({ message: MESSAGES.badJson, code: ERROR_CODES.badJson });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .status(error.statusCode)
        .send({ message: error.message, code: error.code ?? ERROR_CODES.validation });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: MESSAGES.internal, code: ERROR_CODES.internal });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    if (!spaFallback || path.startsWith('/api/') || path === '/api' || !['GET', 'HEAD'].includes(request.method)) {
      return reply.status(404).send({ message: MESSAGES.notFound, code: ERROR_CODES.notFound } satisfies ApiError);
    }
    return reply.type('text/html; charset=utf-8').sendFile('index.html');
  });
}

/**
 * Fastify's `frameworkErrors`: the router's own refusals (a path that is not valid percent-encoding,
 * a path segment over its length limit) come before any hook or the error handler and would answer
 * Fastify's body, which echoes the path; they answer the API's error like every other refusal.
 */
export function routerErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 500;
  if (status < 500) {
    void reply.status(status).send({ message: MESSAGES.badUrl, code: ERROR_CODES.validation } satisfies ApiError);
    return;
  }
  request.log.error({ err: error }, 'unhandled router error');
  void reply.status(500).send({ message: MESSAGES.internal, code: ERROR_CODES.internal } satisfies ApiError);
}
