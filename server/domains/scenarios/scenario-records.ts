// A scenario's record as the API answers it (whole, or as a list's summary, its lineage told), and
// the pieces of one the service works with: its choices given ids, every card at any depth, the
// texts its setup questions stand in, and its fields alone.
import { randomBytes } from 'node:crypto';
import type { ScenarioFields, ScenarioRecord } from '@server/db/repositories/scenarios';
import type { Scenario, ScenarioOption, ScenarioOptionInput, ScenarioSummary } from '@shared/schemas/scenarios';
import type { StoryCardFields } from '@shared/schemas/story-cards';
import { setupQuestions } from './setup-questions';

/** The choices with an id each: the author's where given, else a new one. */
export function withOptionIds(options: readonly ScenarioOptionInput[]): ScenarioOption[] {
  return options.map((option) => ({
    ...option,
    id: option.id ?? randomBytes(4).toString('hex'),
    options: withOptionIds(option.options),
  }));
}
/** Every card of the scenario and of its choices, at any depth. */
export function allCards(cards: readonly StoryCardFields[], options: readonly ScenarioOption[]): StoryCardFields[] {
  return [...cards, ...options.flatMap((option) => allCards(option.cards, option.options))];
}

/** The texts a scenario's setup questions may stand in: its own, its cards' and its choices'. */
function questionTexts(s: Pick<ScenarioFields, 'premise' | 'instructions' | 'authorsNote' | 'cards' | 'options'>) {
  const ofCards = (cards: readonly StoryCardFields[]) =>
    cards.flatMap((card) => [card.name, card.content, ...card.keys]);
  const ofOptions = (options: readonly ScenarioOption[]): string[] =>
    options.flatMap((option) => [option.title, option.premise, ...ofCards(option.cards), ...ofOptions(option.options)]);
  return [s.premise, s.instructions, s.authorsNote, ...ofCards(s.cards), ...ofOptions(s.options)];
}

/** The lineage as answered: the original by id while it is there, else as "a deleted scenario". */
function lineageOf(record: ScenarioRecord): Scenario['remixOf'] {
  if (!record.remixOf) return null;
  const { id, title, author } = record.remixOf;
  return record.originalGone ? { id: null, title, author, deleted: true } : { id, title, author };
}

/** `liked`: whether the viewer likes it (false for a visitor). */
export function toScenario(record: ScenarioRecord, viewerId: number | null, liked = false): Scenario {
  return {
    ...fieldsOf(record),
    id: record.id,
    genre: record.genre as Scenario['genre'],
    visibility: record.visibility,
    version: record.version,
    author: { username: record.authorName },
    remixOf: lineageOf(record),
    likes: record.likes,
    liked,
    questions: setupQuestions(questionTexts(record)),
    mine: viewerId === record.userId,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

export const toSummary = (record: ScenarioRecord): ScenarioSummary => ({
  id: record.id,
  title: record.title,
  description: record.description,
  tags: record.tags,
  genre: record.genre as Scenario['genre'],
  contentRating: record.contentRating,
  visibility: record.visibility,
  version: record.version,
  author: { username: record.authorName },
  remixOf: lineageOf(record),
  likes: record.likes,
  updatedAt: record.updatedAt.toISOString(),
});

/** A record's fields by name: a record carries more (its publication time among them) than a new draft takes. */
export function fieldsOf(record: ScenarioRecord): ScenarioFields {
  return {
    title: record.title,
    description: record.description,
    premise: record.premise,
    instructions: record.instructions,
    authorsNote: record.authorsNote,
    tags: record.tags,
    genre: record.genre,
    contentRating: record.contentRating,
    cards: record.cards,
    options: record.options,
    replyLength: record.replyLength,
    temperature: record.temperature,
    narrator: record.narrator,
  };
}
