// The users card: 'All Users' and 'This Month' tabs, the 'Search users...' box,
// the sortable table with its totals, paging, the user data download, and the monthly usage dialog.
import { useState } from 'react';
import { ChevronLeft, ChevronRight, Download, Search } from 'lucide-react';
import { ADMIN_SEARCH_MAX_LENGTH, ADMIN_USER_TABS, type AdminUser, type AdminUserTab } from '@shared/schemas/admin';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import { Input } from '@client/components/ui/input';
import { Skeleton } from '@client/components/ui/skeleton';
import { Spinner } from '@client/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { cn } from '@client/lib/utils';
import { openUsersDownload } from '../api/download-users';
import { useUsersTable } from '../hooks/use-users-table';
import { ADMIN_STRINGS } from '../strings';
import { AdminQueryError } from './admin-query-error';
import { UsersTable } from './users-table';
import { UserUsageDialog } from './user-usage-dialog';

const TAB_LABELS: Record<AdminUserTab, string> = { all: ADMIN_STRINGS.tabAll, month: ADMIN_STRINGS.tabMonth };

function UsersSkeleton() {
  return (
    <div className="grid gap-2">
      <Spinner label={ADMIN_STRINGS.usersLoading} className="sr-only" />
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} className="h-10" />
      ))}
    </div>
  );
}

function Paging({
  page,
  pageCount,
  matching,
  onPage,
  busy,
}: {
  page: number;
  pageCount: number;
  matching: number;
  onPage: (page: number) => void;
  busy: boolean;
}) {
  return (
    <nav aria-label={ADMIN_STRINGS.paging} className="flex flex-wrap items-center justify-between gap-3 pt-3 text-sm">
      <p className="text-muted-foreground">{ADMIN_STRINGS.userCount(matching)}</p>
      <div className="flex items-center gap-2">
        <Button variant="outline" size="sm" onClick={() => onPage(page - 1)} disabled={page <= 1 || busy}>
          <ChevronLeft aria-hidden="true" />
          {ADMIN_STRINGS.previous}
        </Button>
        <p className="px-1 tabular-nums" aria-live="polite">
          {ADMIN_STRINGS.pageOf(page, pageCount)}
        </p>
        <Button variant="outline" size="sm" onClick={() => onPage(page + 1)} disabled={page >= pageCount || busy}>
          {ADMIN_STRINGS.next}
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}

export function UsersCard({ showCosts }: { showCosts: boolean }) {
  const table = useUsersTable();
  const { data, error, isPending, isPlaceholderData, refetch } = table.result;
  const [selected, setSelected] = useState<AdminUser | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);

  const handleSelectUser = (user: AdminUser) => {
    setSelected(user);
    setDialogOpen(true);
  };

  const panel = (
    <div className="grid grid-cols-1 gap-1" aria-busy={isPlaceholderData}>
      {isPending ? <UsersSkeleton /> : null}
      {error && !data ? <AdminQueryError error={error} onRetry={() => void refetch()} /> : null}
      {data ? (
        <>
          <div className={cn('transition-opacity', isPlaceholderData && 'opacity-60')}>
            <UsersTable
              data={data}
              sort={table.sort}
              onSort={table.toggleSort}
              showCosts={showCosts}
              onSelectUser={handleSelectUser}
            />
          </div>
          <Paging
            page={table.page}
            pageCount={table.pageCount}
            matching={data.metadata.matchingUsers}
            onPage={table.goToPage}
            busy={isPlaceholderData}
          />
        </>
      ) : null}
    </div>
  );

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3 px-4 sm:px-6">
        <CardTitle>{ADMIN_STRINGS.usersTitle}</CardTitle>
        <Button variant="outline" onClick={() => openUsersDownload()}>
          <Download aria-hidden="true" />
          {ADMIN_STRINGS.download}
        </Button>
      </CardHeader>
      <CardContent className="px-4 sm:px-6">
        <Tabs value={table.tab} onValueChange={(value) => table.setTab(value as AdminUserTab)}>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <TabsList className="sm:w-auto">
              {ADMIN_USER_TABS.map((tab) => (
                <TabsTrigger key={tab} value={tab} className="sm:px-5">
                  {TAB_LABELS[tab]}
                </TabsTrigger>
              ))}
            </TabsList>
            <div className="flex items-center gap-3">
              {isPlaceholderData ? <Spinner label={ADMIN_STRINGS.usersUpdating} /> : null}
              <div className="relative w-full sm:w-72">
                <Search
                  className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
                  aria-hidden="true"
                />
                <Input
                  type="search"
                  value={table.search}
                  onChange={(event) => table.setSearch(event.target.value)}
                  placeholder={ADMIN_STRINGS.searchPlaceholder}
                  aria-label={ADMIN_STRINGS.searchLabel}
                  maxLength={ADMIN_SEARCH_MAX_LENGTH}
                  className="pl-9"
                />
              </div>
            </div>
          </div>
          {/* Radix mounts only the active tab's content; both tabs show the same table for their own filter. */}
          {ADMIN_USER_TABS.map((tab) => (
            <TabsContent key={tab} value={tab}>
              {panel}
            </TabsContent>
          ))}
        </Tabs>
      </CardContent>
      <UserUsageDialog user={selected} open={dialogOpen} onOpenChange={setDialogOpen} />
    </Card>
  );
}
