// The columns of a story row every story statement hands back (a StoryRecord), in one place so
// that a new column reaches the creation, the reads, the lease and the edits alike.
import { stories } from '../../schema';

export const storyColumns = {
  id: stories.id,
  userId: stories.userId,
  title: stories.title,
  premise: stories.premise,
  memory: stories.memory,
  memoryThroughId: stories.memoryThroughId,
  notes: stories.notes,
  cardsVersion: stories.cardsVersion,
  replyLength: stories.replyLength,
  temperature: stories.temperature,
  narrator: stories.narrator,
};
