// The drain's bookkeeping: what it waits for, when it gives up, and the 503 it answers meanwhile.
import { describe, expect, it } from 'vitest';
import { retryAfterOf, statusOf } from '@server/http/error-status';
import { DomainError } from './errors';
import { createDrain } from './drain';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('createDrain', () => {
  it('refuses nothing until it begins, then answers 503 with Retry-After', async () => {
    const drain = createDrain();
    expect(() => drain.refuseIfDraining()).not.toThrow();
    expect(drain.draining).toBe(false);
    expect(await drain.drain(1000)).toBe(true);
    expect(drain.draining).toBe(true);
    let refusal: unknown;
    try {
      drain.refuseIfDraining();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ kind: 'unavailable', code: 'UNAVAILABLE', retryAfterSeconds: 5 });
    const answered = refusal as DomainError;
    expect([statusOf(answered), retryAfterOf(answered)]).toEqual([503, '5']);
  });

  it('waits for the replies in flight and the work started when draining', async () => {
    const drain = createDrain();
    const order: string[] = [];
    const reply = drain.track(later(40, 'the reply')).then((text) => order.push(text));
    drain.track(Promise.reject(new Error('a failed reply')).catch(() => order.push('failed')));
    drain.whenDraining(async () => {
      order.push('pictures stop');
      await later(60, null);
      order.push('pictures done');
    });
    expect(drain.inFlight).toBe(2);
    expect(await drain.drain(5000)).toBe(true);
    await reply;
    expect(order).toEqual(['pictures stop', 'failed', 'the reply', 'pictures done']);
    expect(drain.inFlight).toBe(0);
  });

  it('gives up when the time is up, with the work still counted', async () => {
    const drain = createDrain();
    drain.track(new Promise(() => {}));
    expect(await drain.drain(30)).toBe(false);
    expect(drain.inFlight).toBe(1);
  });

  it('does not wait on a starter that fails', async () => {
    const drain = createDrain();
    drain.whenDraining(() => Promise.reject(new Error('queue already closed')));
    expect(await drain.drain(1000)).toBe(true);
  });
});
