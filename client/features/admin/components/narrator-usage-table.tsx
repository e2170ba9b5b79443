// The usage card's cost by narrator: each narrator's tokens and the server's estimated cost, all
// time and this month, and its share of the month, with the same rows as a CSV. Shown when the
// catalogue offers more than one narrator (with one, the card's totals are its figures).
import { Download } from 'lucide-react';
import type { NarratorUsage } from '@shared/schemas/admin';
import { Button } from '@client/components/ui/button';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableFrame,
  TableHead,
  TableHeader,
  TableRow,
} from '@client/components/ui/table';
import { openNarratorsDownload } from '../api/download-narrators';
import { ADMIN_STRINGS } from '../strings';
import { formatCost, formatNumber, formatShare } from '../utils/format';

const COLUMNS = [
  ADMIN_STRINGS.inputTokens,
  ADMIN_STRINGS.cachedInputTokens,
  ADMIN_STRINGS.outputTokens,
  ADMIN_STRINGS.cost,
  ADMIN_STRINGS.monthTokens,
  ADMIN_STRINGS.monthCost,
  ADMIN_STRINGS.monthShare,
];

export function NarratorUsageTable({ rows }: { rows: NarratorUsage[] }) {
  return (
    <section aria-labelledby="narrator-usage-title" className="grid grid-cols-1 gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="narrator-usage-title" className="text-sm font-medium">
          {ADMIN_STRINGS.byNarratorTitle}
        </h3>
        <Button variant="outline" size="sm" onClick={() => openNarratorsDownload()}>
          <Download aria-hidden="true" />
          {ADMIN_STRINGS.byNarratorDownload}
        </Button>
      </div>
      <TableFrame label={ADMIN_STRINGS.byNarratorTitle}>
        <Table>
          <TableCaption className="sr-only">{ADMIN_STRINGS.byNarratorCaption}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">{ADMIN_STRINGS.narrator}</TableHead>
              {COLUMNS.map((column) => (
                <TableHead key={column} scope="col" numeric>
                  {column}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id}>
                <TableHead scope="row" className="font-normal">
                  {row.label}{' '}
                  <span className="text-xs text-muted-foreground">
                    ({row.inCatalogue ? row.id : `${row.id}, ${ADMIN_STRINGS.narratorGone}`})
                  </span>
                </TableHead>
                <TableCell numeric>{formatNumber(row.total.input)}</TableCell>
                <TableCell numeric>{formatNumber(row.total.cachedInput)}</TableCell>
                <TableCell numeric>{formatNumber(row.total.output)}</TableCell>
                <TableCell numeric>{formatCost(row.total.cost)}</TableCell>
                <TableCell numeric>{formatNumber(row.thisMonth.input + row.thisMonth.output)}</TableCell>
                <TableCell numeric>{formatCost(row.thisMonth.cost)}</TableCell>
                <TableCell numeric>{formatShare(row.monthShare)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableFrame>
      <p aria-hidden="true" className="text-xs text-muted-foreground">
        {ADMIN_STRINGS.byNarratorCaption}
      </p>
    </section>
  );
}
