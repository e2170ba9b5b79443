// Each request gets its own logger (pino's child with the request id). Making one costs about as
// much as a public shared read's own work: pino applies the redaction paths to the child's bindings
// (a copy of them, property by property) and a route with its own level rebuilds every log method.
// Most requests never log at their level (a shared read logs only warnings and errors), so the
// child is made on the first line that would be written; until then a call below the level is free.
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Record<string, unknown>;
type ChildOptions = { level?: string };
type Method = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** pino's level numbers ('silent' writes nothing). */
const LEVEL_VALUES: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

/** A request's logger: pino's own child, made only when a line at or above its level is written. */
export class LazyChildLogger {
  private made: FastifyBaseLogger | undefined;
  private ownLevel: string;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {
    this.ownLevel = options.level ?? parent.level;
  }

  /** The real child (made now if it is not yet). */
  get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(
      this.bindings,
      this.options.level === undefined ? {} : { level: this.ownLevel },
    ));
  }

  get level(): string {
    return this.made ? this.made.level : this.ownLevel;
  }

  set level(level: string) {
    if (this.made) this.made.level = level;
    this.ownLevel = level;
    this.options.level = level;
  }

  // Methods on the prototype: a request that never logs allocates nothing but this object.
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  isLevelEnabled(level: string): boolean {
    return (LEVEL_VALUES[level] ?? 0) >= (LEVEL_VALUES[this.level] ?? 0);
  }

  private write(method: Method, args: unknown[]): void {
    if (!this.isLevelEnabled(method)) return;
    (this.logger[method] as (...a: unknown[]) => void)(...args);
  }
}

/** Fastify's childLoggerFactory: the request's logger, made lazily. */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new LazyChildLogger(logger, bindings, options as ChildOptions) as unknown as FastifyBaseLogger;
