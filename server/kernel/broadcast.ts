// News every instance must hear (a stopped share, an ended session). Redis carries it when
// instances must agree (redis.ts: redisBroadcast); a single instance needs none.

/** Each instance listens, any one announces. */
export interface Broadcast {
  announce(message: string): Promise<unknown>;
  listen(handler: (message: string) => void): Promise<void>;
}
