// A story's JSON file, the one an import takes back (shared/schemas/story-export.ts, documented in
// docs/story-format.md): written as JSON.stringify(file, null, 2) would, in pieces as the download
// goes, its fields first and then one message at a time, so the file as a whole is never held.
// The account's data file writes each story with it, deeper in.
import type { SnapshotMessage } from '@server/db/repositories/story-files';
import { chunked, prettyJson, prettyObjectWithArray } from '@server/kernel/pretty-json';
import { memoryText } from '@server/ai/llm/memory-chunks';
import { STORY_FILE_FORMAT, STORY_FILE_VERSION, type StoryFileMessage } from '@shared/schemas/story-export';
import { storedTemperature } from '../../generation-settings';
import { fileSlug } from './file-slug';
import { loadStory } from './read-story';
import type { DownloadedFile, ExportedStory, StoryFileDeps } from './types';

/** A message as the JSON file carries it (the keys in the documented order). */
function fileMessage(m: SnapshotMessage): StoryFileMessage {
  return {
    role: m.role,
    content: m.content,
    turn: m.turn,
    isInitial: m.isInitial,
    createdAt: m.createdAt.toISOString(),
    ...(m.picture ? { image: { hash: m.picture.hash, alt: m.picture.scene } } : {}),
    ...(m.history
      ? {
          versions: m.history.map(({ kind, content, createdAt }) => ({ kind, content, createdAt })),
          version: m.version,
        }
      : {}),
  };
}

/**
 * The story's JSON file as JSON.stringify(file, null, 2) writes it `depth` levels deep, in
 * pieces: its fields (after `before`, e.g. the account file's storyId), then one message at a time.
 */
export function storyFileText(
  { now }: Pick<StoryFileDeps, 'now'>,
  { snapshot, cards, bible, title, createdAt, folded, narrator }: ExportedStory,
  depth: number,
  before: Record<string, unknown> = {},
): AsyncGenerator<string> {
  const head = {
    ...before,
    format: STORY_FILE_FORMAT,
    version: STORY_FILE_VERSION,
    exportedAt: now().toISOString(),
    story: {
      title,
      premise: snapshot.premise,
      memory: memoryText(snapshot.memory),
      memoryCovers: folded,
      notes: snapshot.notes,
      createdAt: createdAt.toISOString(),
      settings: {
        replyLength: snapshot.replyLength,
        temperature: storedTemperature(snapshot.temperature),
        narrator,
      },
    },
    cards,
    // Only when there is one: files of stories without facts read as before.
    ...(bible.length > 0 ? { bible } : {}),
  };
  function* messages() {
    for (const message of snapshot.messages) yield [prettyJson(fileMessage(message), depth + 2)];
  }
  return prettyObjectWithArray(head, 'messages', messages(), depth);
}

/** The story as its JSON file, written as the download goes (a missing story is a 404 before anything is sent). */
export async function exportJson(
  deps: Pick<StoryFileDeps, 'repos' | 'picturesEnabled' | 'now' | 'narrators'>,
  userId: number,
  storyId: number,
): Promise<DownloadedFile> {
  const story = await loadStory(deps, userId, storyId);
  async function* file() {
    yield* storyFileText(deps, story, 0);
    yield '\n';
  }
  return {
    filename: `${fileSlug(story.title)}.taleweaver.json`,
    contentType: 'application/json; charset=utf-8',
    body: chunked(file()),
  };
}
