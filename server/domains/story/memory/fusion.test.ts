import { describe, expect, it } from 'vitest';
import { fuseByReciprocalRank, RRF_K } from './fusion';

const list = (...ids: number[]) => ids.map((id) => ({ id, messageId: id * 10 }));

describe('reciprocal rank fusion', () => {
  it('scores each passage by the sum of 1 / (k + rank) over the rankings that hold it', () => {
    const fused = fuseByReciprocalRank([list(1, 2, 3), list(3, 4)]);
    const byId = new Map(fused.map((f) => [f.id, f]));
    expect(byId.get(3)!.score).toBeCloseTo(1 / (RRF_K + 3) + 1 / (RRF_K + 1), 12);
    expect(byId.get(1)!.score).toBeCloseTo(1 / (RRF_K + 1), 12);
    expect(byId.get(4)!.score).toBeCloseTo(1 / (RRF_K + 2), 12);
    expect(byId.get(3)!.ranks).toEqual([3, 1]);
    expect(byId.get(4)!.ranks).toEqual([null, 2]);
  });

  it('puts a passage both rankings hold above one that tops a single ranking', () => {
    // 7 is second in both; 1 is first by full text only, 9 first by vectors only.
    expect(fuseByReciprocalRank([list(1, 7, 2), list(9, 7, 3)]).map((f) => f.id)).toEqual([7, 9, 1, 3, 2]);
  });

  it('breaks equal scores by the newer message, then the lower passage id', () => {
    const fused = fuseByReciprocalRank([
      [
        { id: 5, messageId: 100 },
        { id: 6, messageId: 300 },
      ],
      [
        { id: 6, messageId: 300 },
        { id: 5, messageId: 100 },
      ],
    ]);
    expect(fused.map((f) => f.id)).toEqual([6, 5]);
    const sameMessage = fuseByReciprocalRank([[{ id: 8, messageId: 1 }], [{ id: 4, messageId: 1 }]]);
    expect(sameMessage.map((f) => f.id)).toEqual([4, 8]);
  });

  it('counts a passage listed twice in one ranking once, at its better rank', () => {
    const [only] = fuseByReciprocalRank([list(2, 2, 2)]);
    expect(only.score).toBeCloseTo(1 / (RRF_K + 1), 12);
    expect(only.ranks).toEqual([1]);
  });

  it('takes its k as given and fuses nothing to nothing', () => {
    const [first] = fuseByReciprocalRank([list(1)], 0);
    expect(first.score).toBe(1);
    expect(fuseByReciprocalRank([[], []])).toEqual([]);
  });
});
