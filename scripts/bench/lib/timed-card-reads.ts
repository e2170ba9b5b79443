// bench:cards' view of a turn's database work: a repositories object whose card reads (heads,
// history: the replies and the record lists not kept, contents) add the time each call took to
// `reads`, so the report can tell chooseTurnCards' waits on the database from its own work.
import { performance } from 'node:perf_hooks';
import type { Repositories } from '../../../server/db/repositories';

export interface CardReads {
  heads: number;
  history: number;
  contents: number;
}

export function timedCardReads(repos: Repositories, reads: CardReads): Repositories {
  const cards = repos.storyCards;
  const timed =
    <A extends unknown[], R>(name: keyof CardReads, call: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const started = performance.now();
      try {
        return await call(...a);
      } finally {
        reads[name] += performance.now() - started;
      }
    };
  return {
    ...repos,
    storyCards: {
      ...cards,
      heads: timed('heads', cards.heads),
      historyReplies: timed('history', cards.historyReplies),
      recordLists: timed('history', cards.recordLists),
      contents: timed('contents', cards.contents),
    },
  };
}
