// GET /api/captcha -> {success, question}. Each mount asks for a fresh question (the server ties the
// answer to the session), and nothing refetches it behind the user's back while they type.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { captchaResponseSchema, type CaptchaResponse } from '@shared/schemas/auth';
import { apiGet } from '@client/lib/api-client';

export const captchaQueryKey = ['captcha'] as const;

export function fetchCaptcha(signal?: AbortSignal): Promise<CaptchaResponse> {
  return apiGet('/api/captcha', { schema: captchaResponseSchema, signal });
}

export function captchaQueryOptions() {
  return queryOptions({
    queryKey: captchaQueryKey,
    queryFn: ({ signal }) => fetchCaptcha(signal),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnReconnect: false,
    // The register form shows the spec's 'CAPTCHA Error' toast instead of the generic one.
    meta: { errorToast: false },
  });
}

export function useCaptchaQuery() {
  return useQuery(captchaQueryOptions());
}
