// The users table's sort: clicking a column cycles ascending, descending, off;
// clicking another column starts it at ascending. "Off" sends no sort, so the server answers in id order.
import type { AdminSortOrder, AdminUserSortField } from '@shared/schemas/admin';

export interface SortState {
  field: AdminUserSortField;
  order: AdminSortOrder;
}

export function nextSort(current: SortState | null, field: AdminUserSortField): SortState | null {
  if (!current || current.field !== field) return { field, order: 'asc' };
  if (current.order === 'asc') return { field, order: 'desc' };
  return null;
}

export type AriaSort = 'ascending' | 'descending' | 'none';

/** The th's aria-sort for a column: only the sorted column says which way. */
export function ariaSortFor(current: SortState | null, field: AdminUserSortField): AriaSort {
  if (!current || current.field !== field) return 'none';
  return current.order === 'asc' ? 'ascending' : 'descending';
}
