// The admin's usage by narrator as a CSV, the same rows the dashboard's table shows: each narrator's
// tokens and estimated cost, all time and this month, and its share of the month.
import type { NarratorUsage } from '@shared/schemas/admin';
import { monthLabel } from './user-figures';
import { csvField } from './users-csv';

const CSV_COLUMNS = [
  'id',
  'label',
  'inCatalogue',
  'input',
  'cachedInput',
  'output',
  'cost',
  'thisMonthInput',
  'thisMonthCachedInput',
  'thisMonthOutput',
  'thisMonthCost',
  'monthShare',
] as const;

export function narratorsCsvFilename(now: Date): string {
  return `taleweaver-narrators-${monthLabel(now)}.csv`;
}

/** Header, then one line per narrator; the share as a percentage with one decimal, as the table shows it. */
export function narratorsCsv(rows: NarratorUsage[]): string {
  const lines = rows.map((row) =>
    [
      row.id,
      row.label,
      row.inCatalogue,
      row.total.input,
      row.total.cachedInput,
      row.total.output,
      row.total.cost,
      row.thisMonth.input,
      row.thisMonth.cachedInput,
      row.thisMonth.output,
      row.thisMonth.cost,
      (row.monthShare * 100).toFixed(1),
    ]
      .map(csvField)
      .join(','),
  );
  return [CSV_COLUMNS.join(','), ...lines].map((line) => line + '\r\n').join('');
}
