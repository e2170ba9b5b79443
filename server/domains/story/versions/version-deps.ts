// What the story's version use cases are given: the repositories, how the changed story and a
// reply's picture are answered, the clock, the durable flush, the quotas and the memory bank that
// follows every change. One shape for the door (index.ts) and each use case module.
import type { Repositories } from '@server/db/repositories';
import type { QuotaService } from '../../limits/quotas';
import type { MemoryBank } from '../memory/memory-bank';

export interface StoryVersionDeps {
  repos: Repositories;
  /**
   * The story's state after undo, redo and erase, as GET current-state answers it (JSON bytes): the change was
   * just made on the owner's story with no reply being written, so neither is read again.
   */
  stateOf: (storyId: number, replying: boolean) => Promise<Buffer>;
  /** The painted picture of the version a reply shows (its URL), when pictures are on. */
  pictureOf: (messageId: number) => Promise<string | undefined>;
  now: () => Date;
  /** Makes committed writes durable (PGlite WAL fsync) before a change is answered. */
  flush: () => Promise<void>;
  /** An edit grows the stored text; a branch is a story and its text. */
  quotas: Pick<QuotaService, 'limits' | 'assertRoom'>;
  /** An edit, another version chosen, undo, redo, erase and a branch: the memory bank follows at once, not after the next turn. */
  memoryBank?: Pick<MemoryBank, 'index'>;
}
