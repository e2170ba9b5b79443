// The turn stream's pacing: the first words go out alone and at once, later pieces are gathered
// into one delta per COALESCE_MS, and whatever is pending is sent before `done` or `error`.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { DomainError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import type { PreparedTurn } from '@server/domains/story/turns';
import { parseSse } from '@server/test/sse';
import { COALESCE_MS, sendTurnStream } from './stream';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function streamOf(run: PreparedTurn['run']) {
  const app = Fastify();
  app.post('/turn', (request, reply) => sendTurnStream(request, reply, { storyId: 7, run }));
  const res = await app.inject({ method: 'POST', url: '/turn' });
  await app.close();
  return parseSse(res.body);
}

describe('sendTurnStream', () => {
  it('sends the first piece at once, then one delta per interval, then the rest before done', async () => {
    const reply = { storyId: 7, messageId: 70, message: 'abcde' };
    const events = await streamOf(async (onDelta) => {
      onDelta!('a');
      onDelta!('b');
      onDelta!('c');
      // Longer than the interval: the timer sends "bc" before "d" and "e" arrive.
      await sleep(COALESCE_MS * 3);
      onDelta!('d');
      onDelta!('e');
      return reply;
    });
    expect(events).toEqual([
      { event: 'story', data: { storyId: 7 } },
      { event: 'delta', data: { text: 'a' } },
      { event: 'delta', data: { text: 'bc' } },
      { event: 'delta', data: { text: 'de' } },
      { event: 'done', data: reply },
    ]);
  });

  it('sends the words gathered so far before the error', async () => {
    const events = await streamOf(async (onDelta) => {
      onDelta!('The ');
      onDelta!('door ');
      onDelta!('creaks');
      throw new DomainError('unavailable', ERROR_CODES.internal, 'The narrator is unavailable right now.');
    });
    expect(events.map((e) => e.event)).toEqual(['story', 'delta', 'delta', 'error']);
    expect(events.slice(1, 3).map((e) => (e.data as { text: string }).text)).toEqual(['The ', 'door creaks']);
    expect(events[3].data).toMatchObject({ message: 'The narrator is unavailable right now.' });
  });
});
