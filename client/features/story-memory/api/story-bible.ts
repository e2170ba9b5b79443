// GET /api/story/{id}/bible (every fact, current and superseded, read fresh on each opening of the
// panel), PATCH and DELETE /api/story/{id}/bible/{factId} (each success reads the bible again: a
// deletion takes the fact's history with it), and POST /api/story/{id}/bible/suggest-cards (proposed
// cards, nothing saved). Each caller shows its own outcome (the generic error toast is off).
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { successSchema } from '@shared/schemas/common';
import {
  bibleFactResponseSchema,
  storyBibleResponseSchema,
  suggestedCardsResponseSchema,
  type BibleFact,
  type BibleFactPatch,
} from '@shared/schemas/story-bible';
import type { StoryCardFields } from '@shared/schemas/story-cards';
import { apiGet, apiWrite } from '@client/lib/api-client';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';

const biblePath = (storyId: number) => `/api/story/${storyId}/bible`;

export const storyBibleQueryKey = (storyId: number) => ['story-bible', storyId] as const;

export function storyBibleQueryOptions(storyId: number, enabled: boolean) {
  return queryOptions({
    queryKey: storyBibleQueryKey(storyId),
    queryFn: ({ signal }) => apiGet(biblePath(storyId), { schema: storyBibleResponseSchema, signal }),
    select: (answer) => answer.facts,
    enabled,
    staleTime: 0,
    refetchOnMount: 'always',
    // A refetch while the player edits a fact would be a surprise; the panel reads on each opening.
    refetchOnWindowFocus: false,
    retry: false,
    meta: { errorToast: false },
  });
}

export function useStoryBible(storyId: number, enabled: boolean) {
  return useQuery(storyBibleQueryOptions(storyId, enabled));
}

export async function editBibleFact(storyId: number, factId: number, patch: BibleFactPatch): Promise<BibleFact> {
  const answer = await apiWrite(`${biblePath(storyId)}/${factId}`, {
    method: 'PATCH',
    body: patch,
    schema: bibleFactResponseSchema,
  });
  return answer.fact;
}

export function deleteBibleFact(storyId: number, factId: number): Promise<{ success: true }> {
  return apiWrite(`${biblePath(storyId)}/${factId}`, { method: 'DELETE', schema: successSchema });
}

/** A POST without a payload: apiWrite sends `{}`. */
export async function suggestCards(storyId: number): Promise<StoryCardFields[]> {
  const answer = await apiWrite(`${biblePath(storyId)}/suggest-cards`, { schema: suggestedCardsResponseSchema });
  return answer.cards;
}

export function useStoryBibleMutations(storyId: number) {
  const refreshes = [storyBibleQueryKey(storyId)];
  return {
    edit: useRefreshingMutation(
      ({ factId, patch }: { factId: number; patch: BibleFactPatch }) => editBibleFact(storyId, factId, patch),
      refreshes,
    ),
    remove: useRefreshingMutation((factId: number) => deleteBibleFact(storyId, factId), refreshes),
  };
}

export function useSuggestCardsMutation(storyId: number) {
  return useMutation({ mutationFn: () => suggestCards(storyId), meta: { errorToast: false } });
}
