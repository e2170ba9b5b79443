// A long story written straight through the repositories, as play would have stored it (the builtin
// narrator's replies, a minute a turn), for the benchmarks that need one while the app is stopped:
// bench:versions (undo, redo, erase on it) and bench:export (it and its branches downloaded).
import { composeReply } from '../../../server/ai/llm/builtin/narrator';
import { loadEnglish } from '../../../server/ai/llm/builtin/action';
import type { Repositories } from '../../../server/db/repositories';

export const LONG_STORY_PREMISE =
  'A lighthouse keeper on a storm-bound island finds a door in the rock that was not there yesterday';
const ACTIONS = [
  'I look around',
  'I follow the path north',
  'I ask the stranger who they are',
  'I open the old chest',
  'I listen at the door',
  'I climb higher',
];

/** Writes a story of `turns` turns for `userId`; its id and the id of its last reply. */
export async function writeLongStory(
  repos: Repositories,
  userId: number,
  turns: number,
): Promise<{ storyId: number; lastReplyId: number }> {
  const premise = LONG_STORY_PREMISE;
  const start = Date.now() - turns * 60_000;
  const { story } = await repos.stories.create({ userId, premise, now: new Date(start), leaseUntil: new Date(start) });
  let lastReplyId = 0;
  const english = await loadEnglish();
  // The turns before each action, as the server passes them (continuity reads the player's).
  const recent: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (let turn = 0; turn <= turns; turn += 1) {
    const action = turn === 0 ? premise : ACTIONS[turn % ACTIONS.length];
    if (turn > 0) await repos.stories.appendAction(story.id, action, new Date(start + turn * 60_000));
    const content = composeReply(
      { storyId: story.id, turn, attempt: 0, premise, action, recent: recent.slice(-6) },
      english,
    );
    recent.push({ role: 'user', content: action }, { role: 'assistant', content });
    lastReplyId = (
      await repos.stories.saveReply({
        storyId: story.id,
        turn,
        content,
        alternativeTo: null,
        usage: null,
        now: new Date(start + turn * 60_000 + 1000),
      })
    ).id;
  }
  await repos.stories.releaseLease(story.id);
  return { storyId: story.id, lastReplyId };
}
