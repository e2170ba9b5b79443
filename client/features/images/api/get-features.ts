// GET /api/features: what this server offers. `images` is false when the operator switched pictures
// off (IMAGE_PROVIDER=none); then nothing about images shows. Read once per page load; any failure
// reads as "no images", so a broken call never shows controls that cannot work.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { featuresResponseSchema, type FeaturesResponse } from '@shared/schemas/images';
import { apiGet } from '@client/lib/api-client';

export const featuresQueryKey = ['features'] as const;
const NO_FEATURES: FeaturesResponse = { images: false };

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
