// Usage over time: the last 30 or 90 days as a chart (loaded on demand), the same figures as a
// table for screen readers and exact reading, and the period broken down by provider and model.
import { lazy, Suspense, useState } from 'react';
import { USAGE_PERIODS, TOKEN_USAGE_KINDS, type UsageHistoryResponse } from '@shared/schemas/admin';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { Spinner } from '@client/components/ui/spinner';
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
import { ToggleGroup, ToggleGroupItem } from '@client/components/ui/toggle-group';
import { useUsageHistory, type UsagePeriod } from '../api/get-usage-history';
import { ADMIN_STRINGS } from '../strings';
import { isHistoryEmpty } from '../utils/chart-data';
import { formatCost, formatDay, formatNumber } from '../utils/format';
import { AdminQueryError } from './admin-query-error';
import { ModelBreakdownTable } from './model-breakdown-table';

// uPlot (about 20 KB gzip) and its stylesheet arrive only when this card shows a chart.
const UsageChart = lazy(() => import('./usage-chart'));

function ChartPlaceholder({ label }: { label: string }) {
  return (
    <div className="relative">
      <Skeleton className="h-[300px] w-full" />
      <Spinner label={label} className="absolute inset-0 justify-center" />
    </div>
  );
}

function DailyFigures({ history }: { history: UsageHistoryResponse }) {
  return (
    <details className="group rounded-lg border">
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium select-none">
        {ADMIN_STRINGS.dailyFigures}
      </summary>
      <TableFrame label={ADMIN_STRINGS.dailyFigures} className="rounded-none border-0 border-t">
        <Table>
          <TableCaption>{ADMIN_STRINGS.historyDescription(history.days)}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">{ADMIN_STRINGS.day}</TableHead>
              {TOKEN_USAGE_KINDS.map((kind) => (
                <TableHead key={kind} scope="col" numeric>
                  {ADMIN_STRINGS.kinds[kind]}
                </TableHead>
              ))}
              <TableHead scope="col" numeric>
                {ADMIN_STRINGS.cost}
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {[...history.daily].reverse().map((day) => (
              <TableRow key={day.day}>
                <TableHead scope="row" className="text-sm font-normal text-foreground">
                  {formatDay(day.day)}
                </TableHead>
                {TOKEN_USAGE_KINDS.map((kind) => (
                  <TableCell key={kind} numeric>
                    {formatNumber(day[kind])}
                  </TableCell>
                ))}
                <TableCell numeric>{formatCost(day.cost)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableFrame>
    </details>
  );
}

function HistoryBody({ history }: { history: UsageHistoryResponse }) {
  const empty = isHistoryEmpty(history.daily);
  return (
    <>
      {empty ? (
        <p className="rounded-lg border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">
          {ADMIN_STRINGS.historyEmpty(history.days)}
        </p>
      ) : (
        <>
          <Suspense fallback={<ChartPlaceholder label={ADMIN_STRINGS.chartLoading} />}>
            <UsageChart daily={history.daily} label={ADMIN_STRINGS.chartLabel(history.days)} />
          </Suspense>
          <DailyFigures history={history} />
        </>
      )}
      <div className="grid gap-2">
        <h3 className="text-lg font-semibold">{ADMIN_STRINGS.byModelTitle}</h3>
        <ModelBreakdownTable rows={history.byModel} caption={ADMIN_STRINGS.byModelCaption(history.days)} />
      </div>
    </>
  );
}

export function UsageHistoryCard() {
  const [days, setDays] = useState<UsagePeriod>(30);
  const { data, error, isPending, isPlaceholderData, refetch } = useUsageHistory(days);
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 px-4 sm:px-6">
        <div className="grid gap-1.5">
          <CardTitle>{ADMIN_STRINGS.historyTitle}</CardTitle>
          <CardDescription>{ADMIN_STRINGS.historyDescription(days)}</CardDescription>
        </div>
        <ToggleGroup
          type="single"
          value={String(days)}
          // Radix answers '' when the pressed option is clicked again; a period is always chosen.
          onValueChange={(value) => value && setDays(Number(value) as UsagePeriod)}
          aria-label={ADMIN_STRINGS.periodLabel}
        >
          {USAGE_PERIODS.map((period) => (
            <ToggleGroupItem key={period} value={String(period)}>
              {ADMIN_STRINGS.periodOption(period)}
            </ToggleGroupItem>
          ))}
        </ToggleGroup>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-5 px-4 sm:px-6" aria-busy={isPlaceholderData}>
        {isPending ? <ChartPlaceholder label={ADMIN_STRINGS.historyLoading} /> : null}
        {error && !data ? <AdminQueryError error={error} onRetry={() => void refetch()} /> : null}
        {data ? <HistoryBody history={data} /> : null}
      </CardContent>
    </Card>
  );
}
