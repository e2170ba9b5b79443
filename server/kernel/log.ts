// The logger the layers below HTTP write to: pino's shape, narrowed to what they use, so a test can
// pass a recording object and no domain, job or provider depends on Fastify's logger type.
export interface Log {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}
