// Request limits off the database: fixed windows per key and per bucket on the app's clock, a
// bounded memory store, counts shared through Redis by every limiter on the same prefix, and the
// fall-back to counting in this process (logged once) while Redis is unreachable.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createMemoryStore,
  createRedisStore,
  createRequestLimiter,
  ipKey,
  type CounterStore,
  type Limit,
} from './request-limits';
import { listenOnLoopback } from '@server/test/listen-on-loopback';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const perMinute: Limit = { bucket: 'test-ip', max: 3, windowMs: 60_000 };

function clock() {
  let ms = Date.parse('2026-01-01T00:00:00Z');
  return { now: () => new Date(ms), advance: (by: number) => (ms += by) };
}
const quietLog = () => ({ warn: vi.fn(), info: vi.fn() });

async function allowed(
  limiter: { allow(limit: Limit, key: string): boolean | Promise<boolean> },
  limit: Limit,
  key: string,
  times: number,
) {
  const answers: boolean[] = [];
  for (let i = 0; i < times; i += 1) answers.push(await limiter.allow(limit, key));
  return answers;
}

describe('in memory', () => {
  it('allows the limit in a window, then refuses until the window ends', async () => {
    const time = clock();
    const limiter = createRequestLimiter({ now: time.now, shared: null, log: quietLog() });
    expect(await allowed(limiter, perMinute, '10.0.0.1', 5)).toEqual([true, true, true, false, false]);
    time.advance(59_999);
    expect(await limiter.allow(perMinute, '10.0.0.1')).toBe(false);
    // Refused requests did not stretch the window: it ends a minute after it began.
    time.advance(1);
    expect(await allowed(limiter, perMinute, '10.0.0.1', 4)).toEqual([true, true, true, false]);
  });

  it('counts each key and each bucket on its own', async () => {
    const limiter = createRequestLimiter({ now: clock().now, shared: null, log: quietLog() });
    const perHour: Limit = { bucket: 'test-user', max: 1, windowMs: 3_600_000 };
    expect(await allowed(limiter, perMinute, '10.0.0.1', 4)).toEqual([true, true, true, false]);
    expect(await limiter.allow(perMinute, '10.0.0.2')).toBe(true);
    expect(await allowed(limiter, perHour, '10.0.0.1', 2)).toEqual([true, false]);
    expect(await allowed(limiter, perHour, '42', 2)).toEqual([true, false]);
  });

  it('answers at once, without a promise, when it counts in this process', () => {
    const limiter = createRequestLimiter({ now: clock().now, shared: null, log: quietLog() });
    const answers = [1, 2, 3, 4].map(() => limiter.allow(perMinute, '10.0.0.9'));
    expect(answers).toEqual([true, true, true, false]);
  });

  it('counts a request once in a store that answers later, and waits for its answer', async () => {
    const windows = createMemoryStore(clock().now);
    const later: CounterStore = {
      incr: (key, callback, timeWindow, max) => setTimeout(() => windows.incr(key, callback, timeWindow, max), 1),
    };
    const failing: CounterStore = { incr: (_key, callback) => setTimeout(() => callback(new Error('store down')), 1) };
    const limiter = createRequestLimiter({ now: clock().now, shared: null, log: quietLog(), fallback: later });
    const first = limiter.allow(perMinute, 'ip1');
    expect(first).toBeInstanceOf(Promise);
    expect(await allowed(limiter, perMinute, 'ip1', 3)).toEqual([true, true, false]);
    expect(await first).toBe(true);
    await expect(
      createRequestLimiter({ now: clock().now, shared: null, log: quietLog(), fallback: failing }).allow(
        perMinute,
        'ip1',
      ),
    ).rejects.toThrow('store down');
  });

  it('holds a bounded number of keys, dropping the least recently counted', () => {
    const store = createMemoryStore(clock().now, 3);
    const counts: number[] = [];
    const hit = (key: string) => store.incr(key, (_error, result) => counts.push(result!.current), 60_000, 10);
    for (const key of ['a', 'b', 'a', 'c', 'd']) hit(key);
    expect(store.size()).toBe(3);
    hit('a');
    hit('b');
    // 'a' was kept (counted recently) and is at 3; 'b' was dropped as the oldest and starts again.
    expect(counts.slice(-2)).toEqual([3, 1]);
  });

  it('groups IPv6 addresses by their /64 and keeps IPv4 addresses apart', () => {
    expect(ipKey('2001:db8:1:2:aaaa::1')).toBe(ipKey('2001:db8:1:2:bbbb::2'));
    expect(ipKey('2001:db8:1:2::1')).not.toBe(ipKey('2001:db8:1:3::1'));
    expect(ipKey('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(ipKey('10.0.0.1')).not.toBe(ipKey('10.0.0.2'));
    expect(ipKey('10.0.0.1')).toBe('10.0.0.1');
    expect(ipKey('2001:DB8:1:2::1')).toBe(ipKey('2001:db8:1:2::1'));
  });
});

describe('in Redis', () => {
  const prefix = `tw-test:${randomBytes(6).toString('hex')}:`;
  const connections: Redis[] = [];
  const connect = () => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 });
    connections.push(redis);
    return redis;
  };
  afterAll(async () => {
    const keys = await connections[0].keys(`${prefix}*`);
    if (keys.length > 0) await connections[0].del(...keys);
    await Promise.all(connections.map((redis) => redis.quit()));
  });

  it('shares one count between limiters on separate connections, per key, under one prefix', async () => {
    const a = createRequestLimiter({ now: clock().now, shared: createRedisStore(connect(), prefix), log: quietLog() });
    const b = createRequestLimiter({ now: clock().now, shared: createRedisStore(connect(), prefix), log: quietLog() });
    const other = createRequestLimiter({
      now: clock().now,
      shared: createRedisStore(connect(), `${prefix}other:`),
      log: quietLog(),
    });
    expect([await a.allow(perMinute, 'ip1'), await b.allow(perMinute, 'ip1'), await a.allow(perMinute, 'ip1')]).toEqual(
      [true, true, true],
    );
    expect(await b.allow(perMinute, 'ip1')).toBe(false);
    expect(await a.allow(perMinute, 'ip1')).toBe(false);
    expect(await b.allow(perMinute, 'ip2')).toBe(true);
    expect(await other.allow(perMinute, 'ip1')).toBe(true);
    // The window is Redis's expiry on the key: it ends on its own, nothing is left behind.
    const ttl = await connections[0].pttl(`${prefix}limit:test-ip:ip1`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(a.degraded).toBe(false);
  });
});

describe('when Redis is unreachable', () => {
  let deadPort: number;
  beforeAll(async () => {
    // A port that was just free: nothing listens there.
    const server = createServer();
    deadPort = (await listenOnLoopback(server)).port;
    await new Promise((resolve) => server.close(resolve));
  });

  it('counts in this process at once (no queueing), logs once, and goes back to Redis when it returns', async () => {
    let down = true;
    const calls: string[] = [];
    const flaky: CounterStore = {
      incr(key, callback, timeWindow, max) {
        calls.push(key);
        if (down) callback(new Error('connect ECONNREFUSED'));
        else createMemoryStore(clock().now).incr(key, callback, timeWindow, max);
      },
    };
    const log = quietLog();
    const limiter = createRequestLimiter({ now: clock().now, shared: flaky, log });
    expect(await allowed(limiter, perMinute, 'ip1', 4)).toEqual([true, true, true, false]);
    expect(limiter.degraded).toBe(true);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0][1]).toBe(
      'rate limits: Redis is unreachable; counting in this instance until it is back',
    );
    down = false;
    expect(await limiter.allow(perMinute, 'ip1')).toBe(true);
    expect(limiter.degraded).toBe(false);
    expect(log.info).toHaveBeenCalledWith('rate limits: Redis is reachable again; counting there');
    expect(calls).toHaveLength(5);
  });

  it('does the same with a real client whose server is gone', async () => {
    const redis = new Redis(`redis://127.0.0.1:${deadPort}`, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    try {
      const log = quietLog();
      const limiter = createRequestLimiter({ now: clock().now, shared: createRedisStore(redis, 'tw-test:'), log });
      expect(await allowed(limiter, perMinute, 'ip1', 4)).toEqual([true, true, true, false]);
      expect(log.warn).toHaveBeenCalledTimes(1);
    } finally {
      redis.disconnect();
    }
  });
});
