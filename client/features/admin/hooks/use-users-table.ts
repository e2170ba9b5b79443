// The users table's state: tab, search text, sort and page, turned into the request the server
// answers. The search is sent once typing pauses (300 ms); a new search, tab or sort starts again at
// page 1, without a state reset that would first fetch the old filter's page 1.
import { useState } from 'react';
import type { AdminUserSortField, AdminUserTab, AdminUsersQuery } from '@shared/schemas/admin';
import { useDebouncedValue } from '@client/lib/use-debounced-value';
import { useAdminUsers } from '../api/get-admin-users';
import { nextSort, type SortState } from '../utils/sort';

export const USERS_SEARCH_DELAY_MS = 300;
export const USERS_PAGE_SIZE = 25;

export function useUsersTable() {
  const [tab, setTab] = useState<AdminUserTab>('all');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortState | null>(null);
  const q = useDebouncedValue(search.trim(), USERS_SEARCH_DELAY_MS);

  // The page belongs to the filter it was chosen under; another filter reads as page 1.
  const filterKey = JSON.stringify([tab, q, sort]);
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;

  // Page numbers travel as query-string text, which is what the shared query schema reads.
  const query: AdminUsersQuery = {
    tab,
    q: q || undefined,
    sort: sort?.field,
    order: sort?.order,
    page: String(page),
    pageSize: String(USERS_PAGE_SIZE),
  };
  const result = useAdminUsers(query);

  const metadata = result.data?.metadata;
  const pageCount = metadata ? Math.max(1, Math.ceil(metadata.matchingUsers / metadata.pageSize)) : 1;

  return {
    tab,
    setTab,
    search,
    setSearch,
    sort,
    toggleSort: (field: AdminUserSortField) => setSort((current) => nextSort(current, field)),
    page,
    pageCount,
    goToPage: (next: number) => setPaging({ filterKey, page: Math.min(Math.max(1, next), pageCount) }),
    result,
  };
}
