// Where log lines go, and in what shape. JSON lines (pino's own) for a log collector: when the output
// is not a terminal, or LOG_FORMAT=json. On a terminal (`npm start` in a shell), or LOG_FORMAT=pretty,
// one readable line per event: time, level, the request id, the message, then the fields on the same
// line. pino-pretty formats in this thread, which costs little at a person's reading pace and keeps
// the order of lines with the process's own console output.
import type { DestinationStream, LoggerOptions } from 'pino';
import pretty from 'pino-pretty';

export type LogFormat = 'auto' | 'json' | 'pretty';

export function prettyLogs(format: LogFormat, stdoutIsTerminal = Boolean(process.stdout.isTTY)): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTerminal);
}

/** A readable stream for pino: `12:03:04.567 INFO (Kf3…): GET /api/user 200 {"ms":3.1}`. */
export function prettyLogStream(
  colorize: boolean,
  destination: NodeJS.WritableStream = process.stdout,
): DestinationStream {
  return pretty({
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,reqId,method,url,status',
    messageFormat: '{if reqId}[{reqId}] {end}{msg}',
    singleLine: true,
    destination,
    sync: true,
  });
}

/** pino's options for the server: level and redaction, and a readable stream when `format` asks for one. */
export function serverLogOptions(
  options: { level: string; redact: string[]; format: LogFormat },
  stdoutIsTerminal = Boolean(process.stdout.isTTY),
): LoggerOptions & { stream?: DestinationStream } {
  const base = { level: options.level, redact: options.redact };
  return prettyLogs(options.format, stdoutIsTerminal) ? { ...base, stream: prettyLogStream(stdoutIsTerminal) } : base;
}
