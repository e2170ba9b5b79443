// The setup the speech API suites share: the wire-protocol speech fake and an app on a fresh test
// database (PGlite or PostgreSQL, like createTestApp), started once per file, the fake's records
// and queues cleared before each test, both closed after. The app's warn-and-up log is kept so a
// suite can check that a provider fault is logged with its detail and never with the key.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { LOG_REDACT } from '../app';
import type { AppConfig } from '../kernel/config';
import { captureLog, type CapturedLog } from './captured-log';
import { startFakeSpeechServer, type FakeSpeechServer } from './fake-speech-server';
import { createTestApp, type TestContext } from './test-app';

export interface FakeSpeechApp {
  /** The fake; there once the file's beforeAll has run, so read it inside tests and hooks only. */
  readonly fake: FakeSpeechServer;
  /** The app on the fake; the same rule. */
  readonly ctx: TestContext;
  /** The app's log, warn and up; a test clears it before the call it checks. */
  readonly appLog: CapturedLog;
}

/**
 * Registers the file's hooks. `config` is called once the fake is listening, so it may read
 * `fake.baseUrl` through the returned object; the fake expects `apiKey` like the real service.
 */
export function withFakeSpeechApp(apiKey: string, config: () => Partial<AppConfig>): FakeSpeechApp {
  let fake: FakeSpeechServer | undefined;
  let ctx: TestContext | undefined;
  const appLog = captureLog('warn', { redact: LOG_REDACT });

  beforeAll(async () => {
    fake = await startFakeSpeechServer({ apiKey });
    ctx = await createTestApp(config(), { logger: appLog.logger });
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
  });
  beforeEach(() => fake?.reset());

  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`withFakeSpeechApp: ${name} is read before beforeAll has run`);
    return value;
  };
  return {
    get fake() {
      return started(fake, 'fake');
    },
    get ctx() {
      return started(ctx, 'ctx');
    },
    appLog,
  };
}
