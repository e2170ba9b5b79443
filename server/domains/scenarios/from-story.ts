// A draft scenario made from one of the player's stories: its title, premise, author's note, cards
// and settings, never its turns. 404 for a story that is not theirs; a story with more cards than a
// scenario holds is refused, saying so.
import { fallbackTitle } from '@server/ai/llm/titles';
import type { Repositories } from '@server/db/repositories';
import { DomainError } from '@server/kernel/errors';
import { STORY_TITLE_MAX_LENGTH } from '@shared/constants';
import { ERROR_CODES } from '@shared/schemas/common';
import {
  SCENARIO_AUTHORS_NOTE_MAX_LENGTH,
  SCENARIO_CARDS_MAX,
  SCENARIO_MESSAGES,
  type Scenario,
  type ScenarioCreateBody,
} from '@shared/schemas/scenarios';
import { STORY_MESSAGES } from '@shared/schemas/story';
import type { NarratorService } from '../narrators/narrators';
import { cardFields } from '../story/cards/card-values';

export async function scenarioFromStory(
  deps: { repos: Pick<Repositories, 'stories' | 'storyCards'>; narrators: Pick<NarratorService, 'preferred'> },
  create: (body: ScenarioCreateBody) => Promise<Scenario>,
  userId: number,
  storyId: number,
): Promise<Scenario> {
  const story = await deps.repos.stories.findOwned(storyId, userId);
  if (!story) throw new DomainError('notFound', ERROR_CODES.notFound, STORY_MESSAGES.storyNotFound);
  const cards = (await deps.repos.storyCards.list(storyId)).map(cardFields);
  if (cards.length > SCENARIO_CARDS_MAX)
    throw new DomainError('invalid', ERROR_CODES.validation, SCENARIO_MESSAGES.tooManyCards);
  return create({
    title: (story.title ?? fallbackTitle(story.premise)).slice(0, STORY_TITLE_MAX_LENGTH),
    description: '',
    premise: story.premise.trim(),
    instructions: '',
    authorsNote: story.notes.trim().slice(0, SCENARIO_AUTHORS_NOTE_MAX_LENGTH),
    tags: [],
    genre: null,
    contentRating: 'general',
    cards,
    options: [],
    replyLength: story.replyLength,
    temperature: story.temperature,
    // Only a narrator the author chose and may still pick; one gone from the catalogue is left out.
    narrator: (await deps.narrators.preferred(story.narrator, userId))?.id ?? null,
  });
}
