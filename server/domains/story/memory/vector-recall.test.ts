// A turn's query embedding: admitted before the call, its vector handed back as soon as it arrives,
// and its ledger row written (then its reservation given back) after, which idle() waits for; a
// ledger that cannot be written is logged and the reservation still given back. A batch of passages
// is recorded before the run goes on. In-process stand-ins for the repositories and the provider: the
// adapter itself is tested against the fake server (ai/embeddings/providers.loopback.test.ts).
import { describe, expect, it } from 'vitest';
import { quantized } from '@server/db/repositories/memory-vectors';
import type { EmbeddingRequest } from '@server/ai/embeddings/types';
import { createVectorRecall } from './vector-recall';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const unit = (...values: number[]) => {
  const norm = Math.hypot(...values);
  return new Float32Array(values.map((v) => v / norm));
};

function setup() {
  const events: string[] = [];
  const ledger = deferred();
  const warnings: string[] = [];
  const stored = [
    { passageId: 1, messageId: 10, seq: 1, vector: quantized(unit(1, 0)) },
    { passageId: 2, messageId: 20, seq: 2, vector: quantized(unit(0, 1)) },
  ];
  const recall = createVectorRecall({
    repos: {
      memoryVectors: {
        since: (_storyId: number, _model: string, afterSeq: number) =>
          Promise.resolve(stored.filter((r) => r.seq > afterSeq)),
        live: (_storyId: number, ids: number[]) => Promise.resolve(ids),
        unembedded: () => Promise.resolve([]),
        save: () => Promise.resolve(),
      },
      usage: {
        record: async (row: { kind: string; inputTokens: number }) => {
          events.push(`record ${row.kind} ${row.inputTokens}`);
          await ledger.promise;
          events.push('recorded');
        },
      },
    } as never,
    provider: {
      id: 'openai',
      model: 'm1',
      embed: (request: EmbeddingRequest) => {
        events.push(`embed ${request.inputs.length}`);
        return Promise.resolve({ vectors: request.inputs.map(() => unit(1, 0.1)), inputTokens: 7 });
      },
    } as never,
    allowance: {
      admitOrNull: () => {
        events.push('admit');
        return Promise.resolve({ release: () => (events.push('release'), Promise.resolve()) });
      },
    },
    config: { queryTimeoutMs: 1500, cacheBytes: 1_000_000 },
    now: () => new Date('2026-11-27T10:00:00Z'),
    log: { warn: (_fields: unknown, message: string) => warnings.push(message) } as never,
  });
  return { recall, events, ledger, warnings };
}

const query = { userId: 1, storyId: 5, text: 'I ride my horse to the mill.', beforeId: 100 };

describe("a turn's query embedding", () => {
  it('hands back the neighbours before its ledger row is written, which idle() then waits for', async () => {
    const { recall, events, ledger } = setup();
    const near = await recall.search(query);
    expect(Array.isArray(near) && near.map((n) => n.passageId)).toEqual([1, 2]);
    // Admitted before the call; the row is on its way, not yet written, and the hold still kept.
    expect(events).toEqual(['admit', 'embed 1', 'record embedding 7']);

    let idle = false;
    const waiting = recall.idle().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(idle).toBe(false);
    ledger.resolve();
    await waiting;
    expect(events).toEqual(['admit', 'embed 1', 'record embedding 7', 'recorded', 'release']);
  });

  it('logs a ledger row it could not write, and gives the reservation back all the same', async () => {
    const { recall, events, ledger, warnings } = setup();
    await recall.search(query);
    ledger.reject(new Error('connection lost'));
    await recall.idle();
    expect(events.at(-1)).toBe('release');
    expect(warnings).toEqual(['could not record a query embedding in the ledger']);
  });
});
