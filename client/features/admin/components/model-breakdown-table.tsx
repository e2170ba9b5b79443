// The period's calls by provider and model (largest cost first, as the server orders them):
// tokens for the narrator and painter, characters for voices and transcription.
import type { UsageHistoryResponse } from '@shared/schemas/admin';
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
import { ADMIN_STRINGS } from '../strings';
import { UsageSumsCells, USAGE_SUMS_COLUMNS } from './usage-sums-cells';

export function ModelBreakdownTable({ rows, caption }: { rows: UsageHistoryResponse['byModel']; caption: string }) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">{ADMIN_STRINGS.byModelEmpty}</p>;
  return (
    <div className="grid grid-cols-1 gap-2">
      <TableFrame label={ADMIN_STRINGS.byModelTitle}>
        <Table>
          {/* Named for screen readers here; the note shows beneath the scrolling frame. */}
          <TableCaption className="sr-only">{caption}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">{ADMIN_STRINGS.provider}</TableHead>
              <TableHead scope="col">{ADMIN_STRINGS.model}</TableHead>
              {USAGE_SUMS_COLUMNS.map((column) => (
                <TableHead key={column} scope="col" numeric>
                  {column}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={`${row.provider}\u0000${row.model}`}>
                <TableCell>{row.provider}</TableCell>
                <TableCell className="text-muted-foreground">{row.model || '—'}</TableCell>
                <UsageSumsCells sums={row} />
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableFrame>
      <p aria-hidden="true" className="text-xs text-muted-foreground">
        {caption}
      </p>
    </div>
  );
}
