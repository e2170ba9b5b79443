// GET /api/features: what this server offers (pictures, server voices and transcription, ads), read
// once per page load. Any failure reads as "nothing optional", so a broken call never shows
// controls that cannot work.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { featuresResponseSchema, NO_FEATURES, type FeaturesResponse } from '@shared/schemas/features';
import { apiGet } from '@client/lib/api-client';

export const featuresQueryKey = ['features'] as const;

export async function fetchFeatures(signal?: AbortSignal): Promise<FeaturesResponse> {
  try {
    return await apiGet('/api/features', { schema: featuresResponseSchema, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    return NO_FEATURES;
  }
}

export function featuresQueryOptions() {
  return queryOptions({
    queryKey: featuresQueryKey,
    queryFn: ({ signal }) => fetchFeatures(signal),
    staleTime: Infinity,
    meta: { errorToast: false },
  });
}

export function useFeatures() {
  return useQuery(featuresQueryOptions());
}
