// The users table itself: one row per user of the page, sortable headers, a totals footer summed by
// the server over every matching user (the caption says so), and each user's name opening their
// monthly usage. With costs shown, the token columns (this month's included) add each figure's cost
// beneath it: the server's figures (a row's and the footer's `costs`), never priced here.
import type { ReactNode } from 'react';
import type { AdminUser, AdminUserSortField, AdminUsersResponse, UserCosts } from '@shared/schemas/admin';
import { Badge } from '@client/components/ui/badge';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableFooter,
  TableFrame,
  TableHead,
  TableHeader,
  TableRow,
} from '@client/components/ui/table';
import { ADMIN_STRINGS } from '../strings';
import { formatCost, formatDate, formatMonth, formatMonthShare, formatNumber } from '../utils/format';
import type { SortState } from '../utils/sort';
import { SortableHeader } from './sortable-header';

const TEXT_COLUMNS = ['username', 'email', 'createdAt', 'lastActive'] as const satisfies readonly AdminUserSortField[];
const NUMBER_COLUMNS = [
  'stories',
  'turns',
  'textTokens',
  'imageTokens',
  'total',
  'thisMonth',
] as const satisfies readonly AdminUserSortField[];
export const USERS_COLUMN_COUNT = TEXT_COLUMNS.length + NUMBER_COLUMNS.length + 1;

function Figure({ value, cost }: { value: number; cost: string | null }) {
  return (
    <>
      {formatNumber(value)}
      {cost !== null ? <span className="block text-xs font-normal text-muted-foreground">{cost}</span> : null}
    </>
  );
}

interface Figures {
  stories: number;
  turns: number;
  textTokens: number;
  imageTokens: number;
  total: number;
  thisMonth: number;
  costs: UserCosts;
}

/** The six number cells and the month share, for a user's row and for the totals row alike. */
function FigureCells({
  figures,
  monthTokens,
  showCosts,
}: {
  figures: Figures;
  monthTokens: number;
  showCosts: boolean;
}) {
  const cost = (dollars: number) => (showCosts ? formatCost(dollars) : null);
  return (
    <>
      <TableCell numeric>{formatNumber(figures.stories)}</TableCell>
      <TableCell numeric>{formatNumber(figures.turns)}</TableCell>
      <TableCell numeric>
        <Figure value={figures.textTokens} cost={cost(figures.costs.text)} />
      </TableCell>
      <TableCell numeric>
        <Figure value={figures.imageTokens} cost={cost(figures.costs.image)} />
      </TableCell>
      <TableCell numeric>
        <Figure value={figures.total} cost={cost(figures.costs.total)} />
      </TableCell>
      <TableCell numeric>
        <Figure value={figures.thisMonth} cost={cost(figures.costs.thisMonth)} />
      </TableCell>
      <TableCell numeric>{formatMonthShare(figures.thisMonth, monthTokens)}</TableCell>
    </>
  );
}

function figuresOf(user: AdminUser): Figures {
  const { textTokens, imageTokens, total, thisMonth } = user.tokenUsage;
  return {
    stories: user.stories,
    turns: user.turns,
    textTokens,
    imageTokens,
    total,
    thisMonth,
    costs: user.costs,
  };
}

function Muted({ children }: { children: ReactNode }) {
  return <span className="text-muted-foreground">{children}</span>;
}

export interface UsersTableProps {
  data: AdminUsersResponse;
  sort: SortState | null;
  onSort: (field: AdminUserSortField) => void;
  showCosts: boolean;
  onSelectUser: (user: AdminUser) => void;
}

export function UsersTable({ data, sort, onSort, showCosts, onSelectUser }: UsersTableProps) {
  const { users, metadata } = data;
  const note = ADMIN_STRINGS.usersCaption(formatMonth(metadata.currentMonth));
  return (
    <div className="grid grid-cols-1 gap-2">
      <TableFrame label={ADMIN_STRINGS.usersTitle}>
        <Table className="[&_td]:px-2">
          {/* The caption names the table for screen readers; the same note shows beneath the scrolling frame. */}
          <TableCaption className="sr-only">{note}</TableCaption>
          <TableHeader>
            <TableRow>
              {TEXT_COLUMNS.map((field) => (
                <SortableHeader
                  key={field}
                  field={field}
                  label={ADMIN_STRINGS.columns[field]}
                  sort={sort}
                  onSort={onSort}
                />
              ))}
              {NUMBER_COLUMNS.map((field) => (
                <SortableHeader
                  key={field}
                  field={field}
                  label={ADMIN_STRINGS.columns[field]}
                  sort={sort}
                  onSort={onSort}
                  numeric
                />
              ))}
              <TableHead scope="col" numeric className="px-2">
                {ADMIN_STRINGS.columns.monthShare}
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {users.length === 0 ? (
              <TableRow>
                <TableCell colSpan={USERS_COLUMN_COUNT} className="py-8 text-center text-muted-foreground">
                  {ADMIN_STRINGS.usersEmpty}
                </TableCell>
              </TableRow>
            ) : (
              users.map((user) => (
                // The row is a large click target for the mouse; the name's button is the keyboard's way in.
                <TableRow key={user.id} onClick={() => onSelectUser(user)} className="cursor-pointer hover:bg-muted/40">
                  <TableCell>
                    <span className="flex items-center gap-2">
                      <button
                        type="button"
                        aria-label={ADMIN_STRINGS.viewUsage(user.username)}
                        onClick={(event) => {
                          event.stopPropagation();
                          onSelectUser(user);
                        }}
                        className="cursor-pointer rounded-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                      >
                        {user.username}
                      </button>
                      {user.isAdmin ? <Badge>{ADMIN_STRINGS.adminBadge}</Badge> : null}
                    </span>
                  </TableCell>
                  <TableCell>{user.email ?? <Muted>{ADMIN_STRINGS.noEmail}</Muted>}</TableCell>
                  <TableCell>{formatDate(user.createdAt) ?? <Muted>—</Muted>}</TableCell>
                  <TableCell>{formatDate(user.lastActive) ?? <Muted>{ADMIN_STRINGS.never}</Muted>}</TableCell>
                  <FigureCells figures={figuresOf(user)} monthTokens={metadata.monthTokens} showCosts={showCosts} />
                </TableRow>
              ))
            )}
          </TableBody>
          <TableFooter>
            <TableRow>
              <TableHead scope="row" colSpan={TEXT_COLUMNS.length} className="px-2 text-sm text-foreground">
                {ADMIN_STRINGS.totalsLabel}
              </TableHead>
              <FigureCells figures={metadata.totals} monthTokens={metadata.monthTokens} showCosts={showCosts} />
            </TableRow>
          </TableFooter>
        </Table>
      </TableFrame>
      <p aria-hidden="true" className="text-xs text-muted-foreground">
        {note}
      </p>
    </div>
  );
}
