// The drain's bookkeeping: what it waits for, when it gives up, and the 503 it answers meanwhile.
import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
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
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ statusCode: 503, code: 'UNAVAILABLE', headers: { 'retry-after': '5' } });
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
