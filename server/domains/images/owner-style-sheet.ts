// The style sheet as its owner sees and edits it on the 'Story Experience' drawer. Reading it may
// fill it (a narrator call, so the owner sees what pictures will follow) only when the request may
// pay; the owner's edit is kept as written and calls no one. Either way, another user's story
// answers 404 like a missing one.
import type { Repositories } from '@server/db/repositories';
import type { VisualsRecord } from '@server/db/repositories/images';
import { DomainError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import type { StyleSheet, StyleSheetResponse } from '@shared/schemas/images';
import { STORY_MESSAGES } from '@shared/schemas/story';
import type { PreferencesSource } from '../preferences/preferences';
import { sceneFromReply } from './scene-prompt';
import { newSheetSeed, type StyleSheets } from './style-sheet';

interface OwnerSheetDeps {
  repos: Pick<Repositories, 'images' | 'stories'>;
  styleSheets: StyleSheets;
  preferences: PreferencesSource;
  now: () => Date;
}

const toStyleSheetResponse = (sheet: VisualsRecord): StyleSheetResponse => ({
  artStyle: sheet.artStyle,
  player: sheet.player,
  characters: sheet.characters,
  seed: sheet.seed,
  updatedAt: sheet.updatedAt.toISOString(),
});

const storyNotFound = () => new DomainError('notFound', ERROR_CODES.notFound, STORY_MESSAGES.storyNotFound);

/**
 * The story's style sheet. The first look fills it from the premise (a narrator call), so the owner
 * sees what pictures will follow; `mayPay` false (a GET another site's page could have made) makes
 * no call and writes nothing: it answers the stored sheet, or the offline heuristics' one unsaved.
 */
export async function readStyleSheet(
  deps: OwnerSheetDeps,
  userId: number,
  storyId: number,
  mayPay: boolean,
): Promise<StyleSheetResponse> {
  const { repos } = deps;
  const story = await repos.stories.findOwned(storyId, userId);
  if (!story) throw storyNotFound();
  const { contentRating } = await deps.preferences.get(userId);
  const opening = (await repos.stories.firstReply(storyId))?.content ?? '';
  return toStyleSheetResponse(
    await deps.styleSheets.current(
      { userId, storyId, premise: story.premise, scene: sceneFromReply(opening), rating: contentRating },
      mayPay,
    ),
  );
}

/** The owner's edit: kept as it is (a sheet not filled yet starts from it, with its own seed); no narrator call. */
export async function saveStyleSheet(
  deps: OwnerSheetDeps,
  userId: number,
  storyId: number,
  sheet: StyleSheet,
): Promise<StyleSheetResponse> {
  const { repos } = deps;
  if (!(await repos.stories.findOwned(storyId, userId))) throw storyNotFound();
  const saved =
    (await repos.images.saveVisuals(storyId, sheet, deps.now())) ??
    (await repos.images.createVisuals(storyId, sheet, newSheetSeed(), deps.now()));
  return toStyleSheetResponse(saved);
}
