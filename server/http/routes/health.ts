// Liveness and readiness probes for process managers and load balancers.
import type { FastifyInstance } from 'fastify';
import type { Database } from '@server/db/client';

export function healthRoutes(database: Database) {
  return async (app: FastifyInstance) => {
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (request, reply) => {
      try {
        await database.ping();
        return { status: 'ready', database: database.kind };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.status(503).send({ status: 'unavailable', database: database.kind });
      }
    });
  };
}
