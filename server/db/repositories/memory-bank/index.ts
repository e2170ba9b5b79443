// The memory bank's rows: the passages of each shown message (written after the turn, off its
// critical path), the story's term statistics, and what retrieval ranks. A passage counts only while
// its message shows the version it was cut from: its `live` flag, kept by a trigger on story_messages
// (migration 0019), serves the statistics and the hits; the texts recalled are read joined with the
// messages, so a passage whose message changed a moment ago is never sent whatever the flag says.
// The statistics keep at most MAX_STORY_TERMS terms a story (memory-statistics.ts), so that what a
// story costs to index, branch and delete follows its size, not how many different words it holds.
// One module per part: indexing (indexing.ts), the term statistics (term-stats.ts) and a turn's
// reads (retrieval.ts).
import type { Db } from '../../client';
import { indexing } from './indexing';
import { retrieval } from './retrieval';
import { termStatistics } from './term-stats';

export { unindexedQuery, type PassageValues, type UnindexedMessage } from './indexing';
export type { PassageHitRow, PassageText } from './retrieval';
export type { TermStats } from './term-stats';

export function createMemoryBankRepository(db: Db) {
  return { ...indexing(db), ...termStatistics(db), ...retrieval(db) };
}
export type MemoryBankRepository = ReturnType<typeof createMemoryBankRepository>;
