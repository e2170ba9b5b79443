// The log of an app under test, kept in memory for the tests that check what the server logged: a
// request's one line and its id, a warning said once, a secret that must appear nowhere. Its
// `logger` goes to createTestApp's `logger` option, in place of the default error-only logger of
// server-errors.ts.
import type { LevelWithSilent } from 'pino';

/** One logged line, parsed: pino's level number, the message, the request's id, and any fields. */
export interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [key: string]: unknown;
}

export interface CapturedLog {
  /** The lines logged since the last clear(), parsed, oldest first. */
  readonly lines: LogLine[];
  /** The same lines as written (JSON), joined with '\n': for checks that something appears nowhere. */
  text(): string;
  /** Forgets the lines logged so far (`lines` stays the same array, emptied). */
  clear(): void;
  /** Fastify logger options that write here: the level, the redacted paths if given, the stream. */
  readonly logger: { level: LevelWithSilent; redact?: string[]; stream: { write(chunk: string): void } };
}

/** A log kept from `level` up, redacting `options.redact` (the app's LOG_REDACT, say) as pino does. */
export function captureLog(level: LevelWithSilent, options: { redact?: string[] } = {}): CapturedLog {
  const lines: LogLine[] = [];
  const written: string[] = [];
  return {
    lines,
    text: () => written.join('\n'),
    clear: () => {
      lines.length = 0;
      written.length = 0;
    },
    logger: {
      level,
      ...(options.redact ? { redact: options.redact } : {}),
      stream: {
        write(chunk: string) {
          for (const line of chunk.split('\n')) {
            if (line === '') continue;
            written.push(line);
            lines.push(JSON.parse(line) as LogLine);
          }
        },
      },
    },
  };
}
