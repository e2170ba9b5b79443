// The graceful drain on SIGTERM. From the moment it begins, readiness answers 503 (the load balancer
// stops sending new players here) and every new paid call is refused as unavailable, to be tried
// again in a few seconds (http/ answers 503 with Retry-After; the allowance asks `refuseIfDraining`
// before its checks), while reads keep working and the server
// still listens. Replies already streaming, and the work registered with `whenDraining` (pictures
// being painted), run to their end; `drain(ms)` resolves once they have, or when the time is up.
import { DomainError, MESSAGES } from './errors';
import { ERROR_CODES } from '@shared/schemas/common';

/** Long enough for a load balancer to take another instance, short enough for a restart. */
export const DRAINING_RETRY_AFTER_SECONDS = 5;

export interface Drain {
  readonly draining: boolean;
  /** How many replies are in flight now. */
  readonly inFlight: number;
  /** Keeps `work` (a reply being written) counted until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Work to start when the drain begins (stop taking jobs, let running ones finish); awaited by drain(). */
  whenDraining(start: () => Promise<void>): void;
  /** Throws the restarting refusal (unavailable) when the drain has begun: no new paid work here. */
  refuseIfDraining(): void;
  /** Begins the drain and waits, at most `timeoutMs`, for the work in flight; true when all of it finished. */
  drain(timeoutMs: number): Promise<boolean>;
}

export const drainingError = () =>
  new DomainError('unavailable', ERROR_CODES.unavailable, MESSAGES.restarting, {
    retryAfterSeconds: DRAINING_RETRY_AFTER_SECONDS,
  });

export function createDrain(): Drain {
  let draining = false;
  const running = new Set<Promise<unknown>>();
  const starters: Array<() => Promise<void>> = [];
  let idle: (() => void) | null = null;

  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return running.size;
    },
    track<T>(work: Promise<T>): Promise<T> {
      running.add(work);
      const forget = () => {
        running.delete(work);
        if (running.size === 0) idle?.();
      };
      work.then(forget, forget);
      return work;
    },
    whenDraining(start) {
      starters.push(start);
    },
    refuseIfDraining() {
      if (draining) throw drainingError();
    },
    async drain(timeoutMs) {
      draining = true;
      const replies = running.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve));
      const others = starters.map((start) => start().catch(() => undefined));
      let timer: NodeJS.Timeout | undefined;
      const timeUp = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      try {
        return await Promise.race([Promise.all([replies, ...others]).then(() => true), timeUp]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
