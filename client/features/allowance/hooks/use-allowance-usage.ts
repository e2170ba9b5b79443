// The player's token usage for the allowance figures. The session query is cached for minutes and
// story turns spend tokens in between, so showing the allowance re-reads GET /api/user when the
// cached answer is more than a few seconds old (a fresh page load is not read twice).
import { useQuery } from '@tanstack/react-query';
import type { TokenUsage } from '@shared/schemas/user';
import { userQueryOptions } from '@client/features/auth';

export const TOKEN_USAGE_STALE_MS = 10_000;

export function useAllowanceUsage(): TokenUsage | null {
  const { data } = useQuery({ ...userQueryOptions(), staleTime: TOKEN_USAGE_STALE_MS });
  return data?.tokenUsage ?? null;
}
