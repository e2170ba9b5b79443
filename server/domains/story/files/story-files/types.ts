// The story file service's shapes: what it is given, the story as read for its file, and a file as
// it is downloaded. Shared by the door (index.ts), the exports and the import.
import type { Repositories } from '@server/db/repositories';
import type { StorySnapshot } from '@server/db/repositories/story-files';
import type { BibleFileFact } from '@shared/schemas/story-bible';
import type { StoryCardFields } from '@shared/schemas/story-cards';
import type { QuotaService } from '../../../limits/quotas';
import type { NarratorService } from '../../../narrators/narrators';
import type { RequestLimiter } from '../../../limits/request-limits';
import type { ImportReader } from '../import-reader';

export interface StoryFileDeps {
  repos: Repositories;
  /** Checks an imported file off the event loop (import-reader.ts). */
  reader: Pick<ImportReader, 'readStory'>;
  /** Whether pictures are on: a file carries them only then. */
  picturesEnabled: boolean;
  limiter: Pick<RequestLimiter, 'allow'>;
  /** An import is a story and its text. */
  quotas: Pick<QuotaService, 'limits' | 'assertRoom'>;
  /** Story cards a story may hold (STORY_MAX_CARDS): a file with more is refused. */
  maxCards: number;
  now: () => Date;
  /** The narrator a file names (the one that wrote the story), and whether an importer may keep it. */
  narrators: Pick<NarratorService, 'ofStory' | 'preferred'>;
  /** Told of each story imported (the memory bank indexes it). */
  afterImport?: (storyId: number) => void;
}

export interface DownloadedFile {
  filename: string;
  contentType: string;
  /** The file's text, whole or in chunks written as the download goes. */
  body: string | AsyncIterable<string>;
}

/** A story read for its file: the snapshot, its cards and bible, its title, when it began and how many messages its memory covers. */
export interface ExportedStory {
  snapshot: StorySnapshot;
  cards: StoryCardFields[];
  /** The facts of its shown messages, each by its message's index in the snapshot. */
  bible: BibleFileFact[];
  title: string;
  createdAt: Date;
  folded: number;
  /** The id of the catalogue narrator that writes the story (the default when it names none or one gone). */
  narrator: string;
}
