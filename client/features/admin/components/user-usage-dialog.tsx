// One user's usage month by month, in a dialog opened from the users table. The request is made
// only while the dialog is open; a failure (the account may have been deleted: 'User not found')
// is shown inside it with a retry.
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Spinner } from '@client/components/ui/spinner';
import { Table, TableBody, TableFrame, TableHead, TableHeader, TableRow } from '@client/components/ui/table';
import { useUserUsage } from '../api/get-user-usage';
import { ADMIN_STRINGS } from '../strings';
import { formatMonth } from '../utils/format';
import { AdminQueryError } from './admin-query-error';
import { UsageSumsCells, USAGE_SUMS_COLUMNS } from './usage-sums-cells';

export interface UserUsageDialogProps {
  /** Kept after closing so the title does not blank while the dialog animates out. */
  user: { id: number; username: string } | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function MonthsTable({ userId }: { userId: number }) {
  const { data, error, isPending, refetch } = useUserUsage(userId);
  if (isPending) return <Spinner label={ADMIN_STRINGS.userUsageLoading} className="justify-center py-6" />;
  if (error) return <AdminQueryError error={error} onRetry={() => void refetch()} />;
  if (data.months.length === 0) return <p className="text-sm text-muted-foreground">{ADMIN_STRINGS.userUsageEmpty}</p>;
  return (
    <TableFrame label={ADMIN_STRINGS.userUsageTitle(data.user.username)}>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead scope="col">{ADMIN_STRINGS.month}</TableHead>
            {USAGE_SUMS_COLUMNS.map((column) => (
              <TableHead key={column} scope="col" numeric>
                {column}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {data.months.map((month) => (
            <TableRow key={month.month}>
              <TableHead scope="row" className="text-sm font-normal text-foreground">
                {formatMonth(month.month)}
              </TableHead>
              <UsageSumsCells sums={month} />
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableFrame>
  );
}

export function UserUsageDialog({ user, open, onOpenChange }: UserUsageDialogProps) {
  return (
    <Dialog open={open && user !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{user ? ADMIN_STRINGS.userUsageTitle(user.username) : ''}</DialogTitle>
          <DialogDescription>{ADMIN_STRINGS.userUsageDescription}</DialogDescription>
        </DialogHeader>
        {user ? <MonthsTable userId={user.id} /> : null}
      </DialogContent>
    </Dialog>
  );
}
