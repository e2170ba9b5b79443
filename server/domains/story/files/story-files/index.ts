// A story as a file: Markdown to read (the turns as prose, pictures linked) and JSON to restore
// (shared/schemas/story-export.ts, documented in docs/story-format.md), and a JSON file taken back
// as a new story of the importer's, validated whole first (in the import worker: import-reader.ts),
// so a bad file creates nothing. An export reads the story as one snapshot and writes the file in chunks as the download goes: the
// file as a whole is never held, only the story's rows.
// This door hands its deps to the use cases: read-story.ts, json-file.ts, markdown-file.ts and
// import-story.ts.
import { createOneAtATime } from '@server/kernel/one-at-a-time';
import { importStoryFile } from './import-story';
import { exportJson, storyFileText } from './json-file';
import { exportMarkdown } from './markdown-file';
import { readStory } from './read-story';
import type { ExportedStory, StoryFileDeps } from './types';

export { fileSlug } from './file-slug';
export { storedBytesOf } from './import-story';
export { markdownText } from './markdown-file';
export type { DownloadedFile, ExportedStory } from './types';

export function createStoryFileService(deps: StoryFileDeps) {
  /** Each player's imports are written one after another (see kernel/one-at-a-time.ts). */
  const oneAtATime = createOneAtATime();

  return {
    /** The owner's story as one snapshot, or null when it is not theirs (or went meanwhile); every version of each message unless `versions` is false (a Markdown file shows only the shown one). */
    read: (userId: number, storyId: number, versions = true) => readStory(deps, userId, storyId, versions),

    /**
     * The story's JSON file as JSON.stringify(file, null, 2) writes it `depth` levels deep, in
     * pieces: its fields (after `before`, e.g. the account file's storyId), then one message at a time.
     */
    storyFileText: (story: ExportedStory, depth: number, before: Record<string, unknown> = {}) =>
      storyFileText(deps, story, depth, before),

    /** The story as its JSON file, written as the download goes (a missing story is a 404 before anything is sent). */
    exportJson: (userId: number, storyId: number) => exportJson(deps, userId, storyId),

    exportMarkdown: (userId: number, storyId: number, baseUrl: string) =>
      exportMarkdown(deps, userId, storyId, baseUrl),

    /** A file's bytes (JSON, up to 5 MB) as a new story of the player's, checked whole first (in a worker thread). */
    importFile: (userId: number, body: Uint8Array) => importStoryFile(deps, oneAtATime, userId, body),
  };
}
export type StoryFileService = ReturnType<typeof createStoryFileService>;
