// A story as a file. Reading one for an export: the story and its shown messages' heads (version,
// versions, picture) as one moment in a short read-only transaction, then their texts in batches
// (a version's text never changes), so no single answer is the whole story and the embedded
// database's one session is never held for it (snapshot.ts). Writing an imported story: in pieces,
// each its own short transaction, the story hidden until the last piece shows it; all of it lands
// or none does (import-story.ts). What a dead process left hidden goes later (abandoned-stories.ts).
import type { Db } from '../../client';
import { deleteAbandonedImports } from './abandoned-stories';
import { importStory, type StoryImport } from './import-story';
import { snapshot, type SnapshotReading } from './snapshot';

export type { ImportedMessage, ImportedStory } from './import-story';
export type { SnapshotMessage, SnapshotReading, StorySnapshot } from './snapshot';

export function createStoryFilesRepository(db: Db) {
  return {
    snapshot(storyId: number, userId: number, pictures: boolean, reading?: SnapshotReading) {
      return snapshot(db, storyId, userId, pictures, reading);
    },
    importStory(input: StoryImport) {
      return importStory(db, input);
    },
    deleteAbandonedImports(before?: Date) {
      return deleteAbandonedImports(db, before);
    },
  };
}
export type StoryFilesRepository = ReturnType<typeof createStoryFilesRepository>;
