// POST /api/story/message/{messageId}/generate-initial-image: the same call
// and answer as generate-image, used for a story's very first narrator message.
import { useMutation } from '@tanstack/react-query';
import { generateImageResponseSchema, type GenerateImageResponse } from '@shared/schemas/images';
import { apiWrite } from '@client/lib/api-client';
import type { GenerateImageRequest } from './generate-image';

export function generateInitialImage({ messageId, ...body }: GenerateImageRequest): Promise<GenerateImageResponse> {
  return apiWrite(`/api/story/message/${messageId}/generate-initial-image`, {
    body,
    schema: generateImageResponseSchema,
  });
}

export function useGenerateInitialImageMutation() {
  return useMutation({ mutationFn: generateInitialImage, meta: { errorToast: false } });
}
