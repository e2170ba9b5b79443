// Structured logs at the most verbose level never carry passwords, cookies or session tokens.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOG_REDACT } from '@server/app';
import { captureLog } from '@server/test/captured-log';
import { createTestApp, registerUser, TestClient, type TestContext } from '@server/test/test-app';

let ctx: TestContext;
const appLog = captureLog('trace', { redact: LOG_REDACT });
beforeAll(async () => {
  ctx = await createTestApp({}, { logger: appLog.logger });
});
afterAll(() => ctx.close());

it('logs requests without secrets', async () => {
  const user = await registerUser(ctx.app, { password: 'hunter2-very-secret' });
  const token = user.client.cookies.get('tw_session') as string;
  await user.client.get('/api/user');
  await new TestClient(ctx.app).post('/api/login', { username: user.username, password: 'hunter2-wrong-secret' });
  await user.client.post('/api/settings/password', {
    currentPassword: 'hunter2-very-secret',
    newPassword: 'hunter3-new-secret',
  });
  const newToken = user.client.cookies.get('tw_session') as string;

  const log = appLog.text();
  // One line per request (http/plugins/request-log.ts): the five requests above each wrote theirs.
  expect(appLog.lines.length).toBeGreaterThanOrEqual(5);
  for (const route of ['/api/register', '/api/user', '/api/login', '/api/settings/password'])
    expect(log).toContain(route);
  for (const secret of [
    'hunter2-very-secret',
    'hunter2-wrong-secret',
    'hunter3-new-secret',
    token,
    newToken,
    'argon2id',
  ]) {
    expect(log).not.toContain(secret);
  }
});
