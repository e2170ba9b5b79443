// Whether scene images show, and the player's switch for them. Two things decide: the server offers
// pictures at all (GET /api/features; when it does not, nothing about images shows), and the
// player's global image-generation flag (a preference kept on the server, default off). The switch
// is optimistic: it flips at once and flips back, with an 'Error' toast, if the save fails.
import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PREFERENCES, type Preferences } from '@shared/schemas/preferences';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { UNEXPECTED_ERROR_MESSAGE } from '@client/lib/query-client';
import { preferencesQueryKey, usePreferences, useUpdatePreferencesMutation } from '@client/features/preferences';
import { useFeatures } from '@client/lib/features';
import { IMAGES_STRINGS } from '../strings';

export interface SceneImageSettings {
  /** The server paints pictures (false while still asking). */
  available: boolean;
  /** The player's flag. */
  enabled: boolean;
  /** Both: new pictures may be asked for, the header shows. */
  active: boolean;
  saving: boolean;
  setEnabled(value: boolean): Promise<void>;
}

export function useSceneImageSettings(userId: number | null): SceneImageSettings {
  const queryClient = useQueryClient();
  const features = useFeatures();
  const preferences = usePreferences(userId, userId !== null);
  const update = useUpdatePreferencesMutation(userId);
  const available = features.data?.images === true;
  const enabled = preferences.data?.imageGeneration === true;

  const setEnabled = async (value: boolean) => {
    const key = preferencesQueryKey(userId);
    await queryClient.cancelQueries({ queryKey: key });
    const previous = queryClient.getQueryData<Preferences>(key);
    queryClient.setQueryData<Preferences>(key, { ...(previous ?? DEFAULT_PREFERENCES), imageGeneration: value });
    try {
      await update.mutateAsync({ imageGeneration: value });
    } catch (error) {
      queryClient.setQueryData<Preferences>(key, previous ?? DEFAULT_PREFERENCES);
      toast({
        title: IMAGES_STRINGS.errorTitle,
        description: errorMessage(error, UNEXPECTED_ERROR_MESSAGE),
        variant: 'destructive',
      });
    }
  };

  return { available, enabled, active: available && enabled, saving: update.isPending, setEnabled };
}
