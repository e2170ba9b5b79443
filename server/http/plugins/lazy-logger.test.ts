// The request logger made on demand writes exactly what pino's own child would (bindings, redaction,
// the route's level), and makes no child at all for a request that logs nothing at its level.
import Fastify from 'fastify';
import { pino, type LevelWithSilent } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { captureLog } from '@server/test/captured-log';
import { LazyChildLogger, lazyChildLoggerFactory } from './lazy-logger';

function capture(level: LevelWithSilent = 'info') {
  const { lines, logger } = captureLog(level, { redact: ['*.password'] });
  const { stream, ...options } = logger;
  return { lines, logger: pino(options, stream) };
}

describe('LazyChildLogger', () => {
  it('makes no child while nothing reaches its level, then writes as pino’s child does', () => {
    const { lines, logger } = capture();
    const child = vi.spyOn(logger, 'child');
    const lazy = new LazyChildLogger(logger, { reqId: 'req-1' }, { level: 'warn' });
    lazy.info('quiet');
    lazy.debug({ a: 1 }, 'quieter');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);

    lazy.warn({ user: { password: 'hunter2' } }, 'loud');
    lazy.error('louder');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((line) => [line.level, line.reqId, line.msg])).toEqual([
      [40, 'req-1', 'loud'],
      [50, 'req-1', 'louder'],
    ]);
    expect(lines[0].user).toEqual({ password: '[Redacted]' });
  });

  it('inherits the parent’s level when the route sets none, and follows a level set later', () => {
    const { lines, logger } = capture('info');
    const lazy = new LazyChildLogger(logger, { reqId: 'req-2' }, {});
    expect(lazy.level).toBe('info');
    lazy.debug('hidden');
    lazy.info('shown');
    lazy.level = 'error';
    lazy.warn('hidden too');
    expect(lazy.isLevelEnabled('error')).toBe(true);
    expect(lines.map((line) => line.msg)).toEqual(['shown']);
  });

  it('serves as Fastify’s request logger: request lines carry the id, a quiet route logs nothing', async () => {
    const { lines, logger } = capture('info');
    const app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyChildLoggerFactory });
    app.get('/loud', async (request) => {
      request.log.info({ step: 'handler' }, 'working');
      return { ok: true };
    });
    app.get('/quiet', { logLevel: 'warn' }, async () => ({ ok: true }));
    await app.inject('/loud');
    await app.inject('/quiet');
    await app.close();
    const requestLines = lines.filter((line) => line.reqId !== undefined);
    expect(requestLines.map((line) => line.msg)).toEqual(['incoming request', 'working', 'request completed']);
    expect(new Set(requestLines.map((line) => line.reqId)).size).toBe(1);
  });
});
