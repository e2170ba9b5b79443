// What sharing needs of the store that keeps published snapshots' public answers, by share id.
// http/presenters/shared-story-cache.ts implements it (serialised, tagged and compressed bytes kept
// in memory); the composition root hands sharing one, made over the source sharing gives it.
import type { SharedStory } from '@shared/schemas/sharing';

/** A published snapshot as readers get it. */
export interface PublishedShare {
  story: SharedStory;
  /** Strong validator of `body`. */
  etag: string;
  /** The JSON answer as sent. */
  body: Buffer;
  /** The same bytes compressed, when compression is on and the answer is big enough to gain from it. */
  encoded?: { br: Buffer; gzip: Buffer };
}

/** Where the store reads snapshots from (the database), and whether a share still exists. */
export interface SharedStorySource {
  /** The snapshot; null when there is none. */
  load: (shareId: string) => Promise<SharedStory | null>;
  /** Whether a share still exists: an expired entry is renewed on a yes instead of loaded again. */
  stillShared: (shareId: string) => Promise<boolean>;
}

export interface PublishedShares {
  /** The published snapshot, from memory when it is there and fresh; null when there is none. */
  get(shareId: string): Promise<PublishedShare | null>;
  /** The snapshot only if it is in memory and fresh. */
  peek(shareId: string): PublishedShare | undefined;
  /** Forgets a share (it was stopped): the next read goes to its source. */
  invalidate(shareId: string): void;
  stats(): { entries: number; bytes: number };
}

/** Makes the store over sharing's source. */
export type PublishShares = (source: SharedStorySource) => PublishedShares;
