// GET /api/story/{id}/cards: the story's cards, read fresh on every opening of the panel; and the
// address of the cards' export (GET .../cards/export?format=…), a download the browser makes itself.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { storyCardsResponseSchema, type CardExportFormat } from '@shared/schemas/story-cards';
import { apiGet } from '@client/lib/api-client';

export const storyCardsQueryKey = (storyId: number) => ['story-cards', storyId] as const;

export function storyCardsQueryOptions(storyId: number, enabled: boolean) {
  return queryOptions({
    queryKey: storyCardsQueryKey(storyId),
    queryFn: ({ signal }) => apiGet(`/api/story/${storyId}/cards`, { schema: storyCardsResponseSchema, signal }),
    select: (answer) => answer.cards,
    enabled,
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    retry: false,
    meta: { errorToast: false },
  });
}

export function useStoryCards(storyId: number, enabled: boolean) {
  return useQuery(storyCardsQueryOptions(storyId, enabled));
}

export const cardsExportPath = (storyId: number, format: CardExportFormat) =>
  `/api/story/${storyId}/cards/export?format=${format}`;
