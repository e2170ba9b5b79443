// Request limits counted off the database: captcha questions, username checks, email changes and
// shared-story reads per IP (ipKey below: an IPv6 /64 is one address), pictures, narration and
// recordings per player. Each limit is a fixed window counted in this
// process's memory (one instance), or in Redis when REDIS_URL is set, so that every instance counts
// the same requests. Redis counting is @fastify/rate-limit's own store (an atomic INCR + PEXPIRE
// script); the memory store keeps that store's contract but reads the app's clock, which tests
// move. The durable limits (failed logins, sign-ups) stay in the database: see sign-in-limits.ts.
import { normalizeIP } from '@fastify/rate-limit';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { BoundedCache } from '@server/kernel/bounded-cache';
import type { Metrics } from '@server/kernel/metrics';
import type { Limit } from './sign-in-limits';

export type { Limit };

/** @fastify/rate-limit's store contract: count one hit in `key`'s window and answer the count. */
export interface CounterStore {
  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
    max: number,
  ): void;
}

/** Keys kept in memory at most: past it the least recently counted are dropped (their count restarts). */
export const MEMORY_STORE_CAPACITY = 100_000;

/**
 * Fixed windows, the least recently counted forgotten past `capacity` keys.
 * Same behaviour as @fastify/rate-limit's LocalStore, with the clock passed in.
 */
export function createMemoryStore(
  now: () => Date,
  capacity = MEMORY_STORE_CAPACITY,
): CounterStore & { size(): number } {
  const windows = new BoundedCache<string, { count: number; startMs: number }>(capacity);
  return {
    incr(key, callback, timeWindow) {
      const nowMs = now().getTime();
      let window = windows.get(key);
      if (!window || window.startMs + timeWindow <= nowMs) window = windows.set(key, { count: 0, startMs: nowMs });
      window.count += 1;
      callback(null, { current: window.count, ttl: window.startMs + timeWindow - nowMs });
    },
    size: () => windows.size,
  };
}

/** Counts in Redis under `keyPrefix`: every instance pointed at the same Redis and prefix shares the counts. */
export function createRedisStore(redis: Redis, keyPrefix: string): CounterStore {
  return new RedisStore(false, false, redis, `${keyPrefix}limit:`);
}

function increment(store: CounterStore, key: string, windowMs: number, max: number): Promise<number> {
  return new Promise((resolve, reject) => {
    store.incr(
      key,
      (error, result) => (error || !result ? reject(error ?? new Error('no count')) : resolve(result.current)),
      windowMs,
      max,
    );
  });
}

export interface RequestLimiterDeps {
  now: () => Date;
  /** Shared counts (Redis); null counts in this process only. */
  shared: CounterStore | null;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** The stand-in while the shared store is unreachable (by default a memory store on `now`). */
  fallback?: CounterStore;
  /** The app's metrics: each refusal counted by the limit's name. */
  metrics?: Pick<Metrics, 'limitRefused'>;
}

export function createRequestLimiter({
  now,
  shared,
  log,
  fallback = createMemoryStore(now),
  metrics,
}: RequestLimiterDeps) {
  let degraded = false;
  const refuse = (limit: Limit): false => {
    metrics?.limitRefused(limit.bucket);
    return false;
  };

  /**
   * While Redis is unreachable the limits are counted in this process: each instance then allows up
   * to the limit on its own, which still bounds abuse, where refusing everyone (or no limit at all)
   * would turn a Redis outage into an outage of sign-up captchas and shared links (or into no
   * protection of the paid picture and voice providers). One line in the log when it starts and ends.
   */
  async function count(key: string, limit: Limit): Promise<number> {
    if (shared) {
      try {
        const current = await increment(shared, key, limit.windowMs, limit.max);
        if (degraded) {
          degraded = false;
          log.info('rate limits: Redis is reachable again; counting there');
        }
        return current;
      } catch (error) {
        if (!degraded) {
          degraded = true;
          log.warn({ err: error }, 'rate limits: Redis is unreachable; counting in this instance until it is back');
        }
      }
    }
    return increment(fallback, key, limit.windowMs, limit.max);
  }

  /** Counts in a store whose callback may come at once (the memory store's always does): no promise then. */
  function countNow(store: CounterStore, key: string, limit: Limit): number | Promise<number> {
    let answer: { error: Error | null; current?: number } | undefined;
    let settle: ((error: Error | null, current?: number) => void) | undefined;
    store.incr(
      key,
      (error, result) => {
        const outcome = { error: error ?? (result ? null : new Error('no count')), current: result?.current };
        if (settle) settle(outcome.error, outcome.current);
        else answer = outcome;
      },
      limit.windowMs,
      limit.max,
    );
    if (answer) return answer.error ? Promise.reject(answer.error) : answer.current!;
    return new Promise((resolve, reject) => (settle = (error, current) => (error ? reject(error) : resolve(current!))));
  }

  return {
    /**
     * Counts one request against `limit` for `key`; false when it is past the limit. A refused
     * request is counted too, but a window never grows: the count simply restarts when it ends.
     * Counted in this process the answer comes at once, without a promise: a public shared read
     * asks on every request, thousands of times a second.
     */
    allow(limit: Limit, key: string): boolean | Promise<boolean> {
      const fullKey = `${limit.bucket}:${key}`;
      const current = shared ? count(fullKey, limit) : countNow(fallback, fullKey, limit);
      return typeof current === 'number'
        ? current <= limit.max || refuse(limit)
        : current.then((value) => value <= limit.max || refuse(limit));
    },
    /** Whether the last count fell back to this process because Redis was unreachable. */
    get degraded() {
      return degraded;
    },
  };
}
export type RequestLimiter = ReturnType<typeof createRequestLimiter>;

/**
 * The key for a per-IP limit: an IPv4 address as is, an IPv6 address by its /64 (one host is
 * usually handed a whole /64, so counting single addresses would let it rotate past any limit).
 * An address without a colon is IPv4 and needs no parsing (node's IPv6 test is a long regex).
 */
export const ipKey = (ip: string) => (ip.includes(':') ? normalizeIP(ip, 64) : ip);
