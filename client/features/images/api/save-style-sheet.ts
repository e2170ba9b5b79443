// PUT /api/story/{storyId}/style-sheet with {artStyle, player, characters}: the saved sheet comes
// back and replaces the cached one. Validation errors arrive as the usual error body; the panel
// shows them in its own 'Error' toast.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { styleSheetResponseSchema, type StyleSheet, type StyleSheetResponse } from '@shared/schemas/images';
import { apiWrite } from '@client/lib/api-client';
import { styleSheetQueryKey } from './get-style-sheet';

export function saveStyleSheet({
  storyId,
  sheet,
}: {
  storyId: number;
  sheet: StyleSheet;
}): Promise<StyleSheetResponse> {
  return apiWrite(`/api/story/${storyId}/style-sheet`, {
    method: 'PUT',
    body: sheet,
    schema: styleSheetResponseSchema,
  });
}

export function useSaveStyleSheetMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveStyleSheet,
    meta: { errorToast: false },
    onSuccess: (saved, { storyId }) => queryClient.setQueryData(styleSheetQueryKey(storyId), saved),
  });
}
