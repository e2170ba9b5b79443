// Which shape the logs take, and that the readable one is one line per event with the request id.
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { prettyLogs, prettyLogStream, serverLogOptions } from './log-output';

describe('log format', () => {
  it('is readable on a terminal and JSON otherwise, unless LOG_FORMAT says which', () => {
    expect(prettyLogs('auto', true)).toBe(true);
    expect(prettyLogs('auto', false)).toBe(false);
    expect(prettyLogs('json', true)).toBe(false);
    expect(prettyLogs('pretty', false)).toBe(true);
    expect(serverLogOptions({ level: 'info', redact: [], format: 'auto' }, false).stream).toBeUndefined();
    expect(serverLogOptions({ level: 'info', redact: [], format: 'json' }, true).stream).toBeUndefined();
  });

  it('writes one plain line per event: time, level, request id, message and its fields', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk) => (text += String(chunk)));
    const log = pino({ level: 'info', redact: ['*.password'] }, prettyLogStream(false, out));
    log.info('Taleweaver is ready on http://localhost:3000');
    log
      .child({ reqId: 'Kf3xQ9a_b2cD' })
      .info({ method: 'GET', url: '/api/user', status: 200, ms: 3.1 }, 'GET /api/user 200');
    log.warn({ user: { password: 'hunter2' } }, 'odd login');
    await new Promise((resolve) => setImmediate(resolve));
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Taleweaver is ready on http:\/\/localhost:3000$/);
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[Kf3xQ9a_b2cD\] GET \/api\/user 200 \{"ms":3\.1\}$/);
    expect(lines[2]).toContain('WARN: odd login');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('"pid"');
  });
});
