// POST /api/story/message/{messageId}/generate-image with {content, storyId}: asks
// for a narrator reply's picture. The answer comes at once ({imageMessageId, image?}); the painting
// runs behind and is polled through GET …/image. Callers word their own errors.
import { useMutation } from '@tanstack/react-query';
import {
  generateImageResponseSchema,
  type GenerateImageBody,
  type GenerateImageResponse,
} from '@shared/schemas/images';
import { apiWrite } from '@client/lib/api-client';

export interface GenerateImageRequest extends GenerateImageBody {
  messageId: number;
}

export function generateImage({ messageId, ...body }: GenerateImageRequest): Promise<GenerateImageResponse> {
  return apiWrite(`/api/story/message/${messageId}/generate-image`, { body, schema: generateImageResponseSchema });
}

export function useGenerateImageMutation() {
  return useMutation({ mutationFn: generateImage, meta: { errorToast: false } });
}
