// The six figures a usage period carries (calls, input, output, image, characters, estimated cost),
// as table cells with their column titles: the provider/model breakdown and a user's months show
// the same figures in the same order.
import type { UsageSumsWithCost } from '@shared/schemas/admin';
import { TableCell } from '@client/components/ui/table';
import { ADMIN_STRINGS } from '../strings';
import { formatCost, formatNumber } from '../utils/format';

export const USAGE_SUMS_COLUMNS = [
  ADMIN_STRINGS.calls,
  ADMIN_STRINGS.input,
  ADMIN_STRINGS.output,
  ADMIN_STRINGS.image,
  ADMIN_STRINGS.characters,
  ADMIN_STRINGS.cost,
];

export function UsageSumsCells({ sums }: { sums: UsageSumsWithCost }) {
  return (
    <>
      <TableCell numeric>{formatNumber(sums.calls)}</TableCell>
      <TableCell numeric>{formatNumber(sums.input)}</TableCell>
      <TableCell numeric>{formatNumber(sums.output)}</TableCell>
      <TableCell numeric>{formatNumber(sums.image)}</TableCell>
      <TableCell numeric>{formatNumber(sums.characters)}</TableCell>
      <TableCell numeric className="font-medium">
        {formatCost(sums.cost)}
      </TableCell>
    </>
  );
}
