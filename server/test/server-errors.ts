// The errors the app under test logged, kept so that a failed API test says what the server saw:
// a 500 otherwise reaches the test as "Something went wrong on our side", its cause logged nowhere
// (the test app's log is off). api-setup.ts adds them to the failing test's message.
const KEPT = 10;
const STACK_LINES = 8;
const logged: string[] = [];

/** One logged line, readable: its message, the error's type and message, and the top of its stack. */
function summary(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; err?: { type?: string; message?: string; stack?: string } };
    if (!entry.err) return entry.msg ?? line.trim();
    const stack = entry.err.stack?.split('\n').slice(1, STACK_LINES).join('\n') ?? '';
    return `${entry.msg ?? ''}: ${entry.err.type ?? ''} ${entry.err.message ?? ''}\n${stack}`.trim();
  } catch {
    return line.trim();
  }
}

/** The test app's logger when a test passes none: errors only, kept here (the newest ten). */
export const serverErrorLogger = {
  level: 'error',
  stream: {
    write(line: string) {
      logged.push(summary(line));
      if (logged.length > KEPT) logged.shift();
    },
  },
};

/** The errors logged since the last call, and forgets them. */
export function takeServerErrors(): string[] {
  return logged.splice(0);
}
