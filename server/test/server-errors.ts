// The errors the app under test logged, kept so that a failed API test says what the server saw:
// a 500 otherwise reaches the test as "Something went wrong on our side", its cause logged nowhere.
// api-setup.ts adds them to the failing test's message.
import { captureLog, type LogLine } from './captured-log';

const KEPT = 10;
const STACK_LINES = 8;
const errorLog = captureLog('error');

/** One logged line, readable: its message, the error's type and message, and the top of its stack. */
function summary(entry: LogLine): string {
  const err = entry.err as { type?: string; message?: string; stack?: string } | undefined;
  if (!err) return entry.msg;
  const stack = err.stack?.split('\n').slice(1, STACK_LINES).join('\n') ?? '';
  return `${entry.msg}: ${err.type ?? ''} ${err.message ?? ''}\n${stack}`.trim();
}

/** The test app's logger when a test passes none: errors only, kept here. */
export const serverErrorLogger = errorLog.logger;

/** The errors logged since the last call (the newest ten), and forgets them. */
export function takeServerErrors(): string[] {
  const newest = errorLog.lines.slice(-KEPT).map(summary);
  errorLog.clear();
  return newest;
}
