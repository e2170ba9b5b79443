// POST /api/story/{id}/cards (add), PATCH and DELETE /api/story/{id}/cards/{cardId}, and
// POST /api/story/{id}/cards/import (a lorebook file's bytes as they are). Each caller shows its own
// outcome (the generic error toast is off); every success refreshes the story's cards.
import { successSchema } from '@shared/schemas/common';
import {
  CARD_IMPORT_MAX_BYTES,
  storyCardResponseSchema,
  storyCardsImportResponseSchema,
  type StoryCard,
  type StoryCardFields,
  type StoryCardPatch,
  type StoryCardsImportResponse,
} from '@shared/schemas/story-cards';
import { OWN_APP_HEADER, apiWrite, readJson, send } from '@client/lib/api-client';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import { STORY_CARDS_STRINGS as S } from '../strings';
import { storyCardsQueryKey } from './get-story-cards';

const cardsPath = (storyId: number) => `/api/story/${storyId}/cards`;

export async function addStoryCard(storyId: number, fields: StoryCardFields): Promise<StoryCard> {
  const answer = await apiWrite(cardsPath(storyId), { body: fields, schema: storyCardResponseSchema });
  return answer.card;
}

export async function editStoryCard(storyId: number, cardId: number, patch: StoryCardPatch): Promise<StoryCard> {
  const answer = await apiWrite(`${cardsPath(storyId)}/${cardId}`, {
    method: 'PATCH',
    body: patch,
    schema: storyCardResponseSchema,
  });
  return answer.card;
}

export function deleteStoryCard(storyId: number, cardId: number): Promise<{ success: true }> {
  return apiWrite(`${cardsPath(storyId)}/${cardId}`, { method: 'DELETE', schema: successSchema });
}

/** The type an import is sent as: lorebooks are JSON, character cards PNG, anything else unnamed. */
export function importContentType(file: File): string {
  const name = file.name.toLowerCase();
  if (name.endsWith('.json') || name.endsWith('.lorebook')) return 'application/json';
  if (name.endsWith('.png')) return 'image/png';
  return 'application/octet-stream';
}

/** Sends the chosen file's bytes as they are; one too large is refused here, unsent. */
export async function importStoryCards(storyId: number, file: File): Promise<StoryCardsImportResponse> {
  if (file.size > CARD_IMPORT_MAX_BYTES) throw new Error(S.importTooLarge);
  const response = await send(`${cardsPath(storyId)}/import`, {
    method: 'POST',
    headers: { 'Content-Type': importContentType(file), Accept: 'application/json', ...OWN_APP_HEADER },
    body: file,
  });
  return readJson(response, storyCardsImportResponseSchema);
}

export function useStoryCardMutations(storyId: number) {
  const refreshes = [storyCardsQueryKey(storyId)];
  return {
    add: useRefreshingMutation((fields: StoryCardFields) => addStoryCard(storyId, fields), refreshes),
    edit: useRefreshingMutation(
      ({ cardId, patch }: { cardId: number; patch: StoryCardPatch }) => editStoryCard(storyId, cardId, patch),
      refreshes,
    ),
    remove: useRefreshingMutation((cardId: number) => deleteStoryCard(storyId, cardId), refreshes),
    importFile: useRefreshingMutation((file: File) => importStoryCards(storyId, file), refreshes),
  };
}
