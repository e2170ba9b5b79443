// A users-table column header that sorts: the th carries aria-sort (what screen readers announce),
// the button inside does the cycling (ascending, descending, off), and the arrow shows the state.
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { AdminUserSortField } from '@shared/schemas/admin';
import { TableHead } from '@client/components/ui/table';
import { cn } from '@client/lib/utils';
import { ariaSortFor, type SortState } from '../utils/sort';

export interface SortableHeaderProps {
  field: AdminUserSortField;
  label: string;
  sort: SortState | null;
  onSort: (field: AdminUserSortField) => void;
  numeric?: boolean;
}

export function SortableHeader({ field, label, sort, onSort, numeric = false }: SortableHeaderProps) {
  const state = ariaSortFor(sort, field);
  const Icon = state === 'ascending' ? ArrowUp : state === 'descending' ? ArrowDown : ArrowUpDown;
  return (
    <TableHead scope="col" aria-sort={state} numeric={numeric} className="px-0.5">
      <button
        type="button"
        onClick={() => onSort(field)}
        className={cn(
          'inline-flex h-8 cursor-pointer items-center gap-0.5 rounded-md px-1 font-semibold hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
          numeric && 'flex-row-reverse',
          state !== 'none' && 'text-foreground',
        )}
      >
        {label}
        <Icon className={cn('size-3', state === 'none' && 'opacity-50')} aria-hidden="true" />
      </button>
    </TableHead>
  );
}
