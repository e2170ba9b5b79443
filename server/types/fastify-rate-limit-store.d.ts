// Types for @fastify/rate-limit's Redis store, which the package ships without a declaration of its
// own (it is what the plugin builds from its `redis` option). See server/domains/limits/request-limits.ts.
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { Redis } from 'ioredis';
  import type { CounterStore } from '@server/domains/limits/request-limits';

  const RedisStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    redis: Redis,
    key?: string,
  ) => CounterStore;
  export default RedisStore;
}
