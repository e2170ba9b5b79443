// The optional Redis connection (REDIS_URL) that lets several app instances share what a single
// instance keeps in memory: request-limit counts, and the news that an owner stopped a share (so
// every instance drops the snapshot from its cache). Without REDIS_URL nothing here runs.
//
// Start-up fails closed: an operator who set REDIS_URL runs several instances and expects shared
// limits, so an unreachable Redis stops the server with one clear line instead of starting with
// limits that silently multiply. At run time commands fail fast instead of queueing (no offline
// queue, a short command timeout) and the callers degrade: see domains/limits/request-limits.ts and domains/sharing/sharing.ts.
import type { FastifyBaseLogger } from 'fastify';
// A type only: ioredis (about 8 MB resident) is loaded when REDIS_URL is set, not by every server.
import type { Redis } from 'ioredis';
import type { Broadcast } from './broadcast';

type RedisClass = typeof import('ioredis').Redis;

export class RedisUnavailableError extends Error {
  constructor(url: string, reason: string) {
    super(
      `REDIS_URL: cannot reach Redis at ${redactUrl(url)} (${reason}). Start Redis, fix REDIS_URL, or unset it to count limits in this process.`,
    );
    this.name = 'RedisUnavailableError';
  }
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured address';
  }
}

/** A request-limit check must not wait on a struggling Redis for long: past this it counts locally. */
const COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 5_000;

/** A Broadcast over Redis pub/sub on `name`, heard by every instance using the same key prefix (the announcer too). */
export function redisBroadcast(redis: RedisLink, name: string): Broadcast {
  const channel = `${redis.keyPrefix}${name}`;
  return {
    announce: (message) => redis.publish(channel, message),
    listen: (handler) => redis.subscribe(channel, handler),
  };
}

export interface RedisLink {
  client: Redis;
  keyPrefix: string;
  /** Sends `message` to every instance subscribed to `channel` (this one included); false if Redis is unreachable. */
  publish(channel: string, message: string): Promise<boolean>;
  subscribe(channel: string, handler: (message: string) => void): Promise<void>;
  close(): Promise<void>;
}

function open(
  RedisClient: RedisClass,
  url: string,
  log: FastifyBaseLogger,
  role: string,
  state: { closing: boolean },
): Redis {
  const redis = new RedisClient(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // Concurrent limit checks go out in one write: at thousands of reads a second this is most of Redis's cost.
    enableAutoPipelining: true,
  });
  // ioredis reconnects by itself (backing off up to 2 s); the log gets one line per outage, not one per attempt.
  let established = false;
  let lost = false;
  const onLoss = (error?: Error) => {
    if (!established || lost || state.closing) return;
    lost = true;
    log.error({ err: error, redis: redactUrl(url), role }, 'Redis connection lost; reconnecting');
  };
  redis.on('error', onLoss);
  redis.on('close', () => onLoss());
  redis.on('ready', () => {
    if (lost) log.info({ redis: redactUrl(url), role }, 'Redis connection restored');
    established = true;
    lost = false;
  });
  return redis;
}

async function connect(redis: Redis, url: string): Promise<void> {
  let reason = 'no answer';
  const onError = (error: Error) => {
    reason = error.message;
  };
  redis.on('error', onError);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new RedisUnavailableError(url, reason === 'no answer' && error instanceof Error ? error.message : reason);
  } finally {
    redis.off('error', onError);
  }
}

export async function connectRedis(
  config: { url: string; keyPrefix: string },
  log: FastifyBaseLogger,
): Promise<RedisLink> {
  const { Redis: RedisClient } = await import('ioredis');
  const state = { closing: false };
  const client = open(RedisClient, config.url, log, 'commands', state);
  await connect(client, config.url);
  // Subscribing takes a connection of its own; it is opened on the first subscription.
  let subscriber: Redis | null = null;
  const handlers = new Map<string, (message: string) => void>();

  return {
    client,
    keyPrefix: config.keyPrefix,
    async publish(channel, message) {
      try {
        await client.publish(channel, message);
        return true;
      } catch (error) {
        log.warn({ err: error, channel }, 'could not publish to Redis');
        return false;
      }
    },
    async subscribe(channel, handler) {
      if (!subscriber) {
        subscriber = open(RedisClient, config.url, log, 'subscriber', state);
        await connect(subscriber, config.url);
        subscriber.on('message', (from: string, message: string) => handlers.get(from)?.(message));
      }
      handlers.set(channel, handler);
      await subscriber.subscribe(channel);
    },
    async close() {
      state.closing = true;
      await Promise.allSettled([client, subscriber].map((redis) => redis?.quit().catch(() => redis.disconnect())));
    },
  };
}
