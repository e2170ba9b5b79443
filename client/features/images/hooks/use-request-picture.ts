// Asking for a narrator reply's picture: the spec's checks first (a story id, the message,
// its text), then generate-initial-image for a story's opening or generate-image for any other
// reply. Failures become the spec's 'Error' toast with the server's message (the hourly limit says
// so), else the default; the caller learns whether the painter accepted the job.
import { useCallback } from 'react';
import type { GenerateImageResponse } from '@shared/schemas/images';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useGenerateImageMutation } from '../api/generate-image';
import { useGenerateInitialImageMutation } from '../api/generate-initial-image';
import { IMAGES_STRINGS } from '../strings';

export interface PictureRequest {
  storyId: number | null;
  /** The narrator message's server id; missing when the message is not (yet) known to the server. */
  messageId: number | undefined;
  content: string | undefined;
  /** The story's opening reply: asked for through generate-initial-image. */
  initial: boolean;
  /** A Retry of a failed picture (its toast says to try again). */
  retry?: boolean;
}

/** The product's texts for a request that cannot be made, or null. */
export function pictureRequestProblem(request: PictureRequest): string | null {
  if (request.storyId === null || !Number.isInteger(request.storyId) || request.storyId <= 0)
    return IMAGES_STRINGS.storyNotInitialized;
  if (request.messageId === undefined) return IMAGES_STRINGS.messageNotFound;
  if (!request.content || request.content.trim() === '') return IMAGES_STRINGS.noContent;
  return null;
}

function errorToast(description: string) {
  toast({ title: IMAGES_STRINGS.errorTitle, description, variant: 'destructive' });
}

export function useRequestPicture(): (request: PictureRequest) => Promise<GenerateImageResponse | null> {
  const { mutateAsync: generate } = useGenerateImageMutation();
  const { mutateAsync: generateInitial } = useGenerateInitialImageMutation();
  return useCallback(
    async (request) => {
      const problem = pictureRequestProblem(request);
      if (problem !== null) {
        errorToast(problem);
        return null;
      }
      const body = {
        messageId: request.messageId as number,
        storyId: request.storyId as number,
        content: request.content as string,
      };
      try {
        return await (request.initial ? generateInitial(body) : generate(body));
      } catch (error) {
        errorToast(
          errorMessage(error, request.retry ? IMAGES_STRINGS.generateFailedRetry : IMAGES_STRINGS.generateFailed),
        );
        return null;
      }
    },
    [generate, generateInitial],
  );
}
