// The owner's story read for its file, as one snapshot of its rows: its messages (every version
// of each, or only the shown one for Markdown), its cards, the story bible's facts of its shown
// messages (each by its message's place in the file), its title and how many messages its memory
// covers, and the narrator that writes it. A story that is not the owner's, or went meanwhile, reads as null; load makes that a 404.
import { fallbackTitle } from '@server/ai/llm/titles';
import { cardFields } from '../../cards/card-values';
import { notFound } from '../../errors';
import type { ExportedStory, StoryFileDeps } from './types';

type ReadDeps = Pick<StoryFileDeps, 'repos' | 'picturesEnabled' | 'now' | 'narrators'>;

/** The owner's story as one snapshot, or null when it is not theirs (or went meanwhile); every version of each message unless `versions` is false (a Markdown file shows only the shown one). */
export async function readStory(
  { repos, picturesEnabled, now, narrators }: ReadDeps,
  userId: number,
  storyId: number,
  versions = true,
): Promise<ExportedStory | null> {
  const snapshot = await repos.storyFiles.snapshot(storyId, userId, picturesEnabled, { versions });
  if (!snapshot) return null;
  const cards = (await repos.storyCards.list(storyId)).map(cardFields);
  const messageIndex = new Map(snapshot.messages.map((m, i) => [m.id, i]));
  const bible = (await repos.storyBible.shown(storyId)).flatMap(
    ({ messageId, turn, entity, attribute, value, pinned }) => {
      const message = messageIndex.get(messageId);
      return message === undefined ? [] : [{ message, turn, entity, attribute, value, pinned }];
    },
  );
  const folded = snapshot.messages.filter((m) => m.id <= snapshot.memoryThroughId).length;
  const createdAt = snapshot.messages[0]?.createdAt ?? now();
  const { narrator } = await narrators.ofStory({ narrator: snapshot.narrator, userId });
  return {
    snapshot,
    cards,
    bible,
    folded,
    createdAt,
    title: snapshot.title ?? fallbackTitle(snapshot.premise),
    narrator: narrator.id,
  };
}

export async function loadStory(
  deps: ReadDeps,
  userId: number,
  storyId: number,
  versions = true,
): Promise<ExportedStory> {
  const story = await readStory(deps, userId, storyId, versions);
  if (!story) throw notFound();
  return story;
}
