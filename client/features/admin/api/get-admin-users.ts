// GET /api/admin/users: one page of the users table, searched, sorted and counted on the server.
// The previous page stays on screen while the next one loads (keepPreviousData), so paging and
// typing in the search box never blank the table.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminUsersResponseSchema, type AdminUsersQuery, type AdminUsersResponse } from '@shared/schemas/admin';
import { apiGet } from '@client/lib/api-client';
import { adminQueryKey } from './admin-query-keys';

/**
 * The query string for a table state. Blank searches and an "off" sort are left out (the server's
 * defaults: every user, id order); the order travels only with a sort field.
 */
export function buildAdminUsersSearch(query: AdminUsersQuery): string {
  const params = new URLSearchParams();
  params.set('tab', query.tab ?? 'all');
  const q = query.q?.trim();
  if (q) params.set('q', q);
  if (query.sort) {
    params.set('sort', query.sort);
    params.set('order', query.order ?? 'asc');
  }
  params.set('page', String(query.page ?? '1'));
  if (query.pageSize !== undefined) params.set('pageSize', String(query.pageSize));
  return params.toString();
}

export function adminUsersPath(query: AdminUsersQuery): string {
  return `/api/admin/users?${buildAdminUsersSearch(query)}`;
}

export const adminUsersQueryKey = (query: AdminUsersQuery) =>
  [...adminQueryKey, 'users', buildAdminUsersSearch(query)] as const;

export function fetchAdminUsers(query: AdminUsersQuery, signal?: AbortSignal): Promise<AdminUsersResponse> {
  return apiGet(adminUsersPath(query), { schema: adminUsersResponseSchema, signal });
}

export function adminUsersQueryOptions(query: AdminUsersQuery) {
  return queryOptions({
    queryKey: adminUsersQueryKey(query),
    queryFn: ({ signal }) => fetchAdminUsers(query, signal),
    placeholderData: keepPreviousData,
    meta: { errorToast: false },
  });
}

export function useAdminUsers(query: AdminUsersQuery) {
  return useQuery(adminUsersQueryOptions(query));
}
