// Liveness and readiness probes for process managers and load balancers. Once a SIGTERM's drain has
// begun, readiness answers 503 at once, so the load balancer sends new players elsewhere while the
// replies in flight here finish; liveness stays 200 (the process is healthy, only leaving).
import type { FastifyInstance } from 'fastify';
import type { Database } from '@server/db/client';
import type { Drain } from '@server/kernel/drain';

export function healthRoutes(database: Database, drain: Pick<Drain, 'draining'>) {
  return async (app: FastifyInstance) => {
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (request, reply) => {
      if (drain.draining) return reply.status(503).send({ status: 'draining', database: database.kind });
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
