// The API token usage card: input, output and image tokens, all-time and this
// month, as tokens or the server's costs, the cost by narrator when there are several, and which
// narrator and painter produced them. The builtin
// ones are offline demos, so their notice (how to connect a real model) is shown with them.
import { Bot, Palette } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ApiUsageResponse } from '@shared/schemas/admin';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { Spinner } from '@client/components/ui/spinner';
import { useApiUsage } from '../api/get-api-usage';
import { ADMIN_STRINGS } from '../strings';
import { usageFigures } from '../utils/usage-figures';
import { AdminQueryError } from './admin-query-error';
import { NarratorUsageTable } from './narrator-usage-table';

function ProviderLine({
  icon,
  role,
  name,
  model,
  notice,
}: {
  icon: ReactNode;
  role: string;
  name: string;
  model: string;
  notice: string | null;
}) {
  return (
    <div className="grid gap-2">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        {icon}
        <span className="font-medium">{role}:</span>
        <span>{name}</span>
        {model ? <span className="text-muted-foreground">({ADMIN_STRINGS.modelLabel(model)})</span> : null}
      </p>
      {notice ? (
        <Alert>
          <AlertDescription>{notice}</AlertDescription>
        </Alert>
      ) : null}
    </div>
  );
}

function UsageFigures({ usage, showCosts }: { usage: ApiUsageResponse; showCosts: boolean }) {
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {usageFigures(usage, showCosts).map((figure) => (
        <div key={figure.key} className="rounded-lg border bg-background/40 p-4">
          <dt className="text-sm text-muted-foreground">{figure.label}</dt>
          <dd className="mt-1 grid gap-1">
            <span className="font-serif text-2xl font-semibold tabular-nums">
              <span className="sr-only">{ADMIN_STRINGS.allTime}: </span>
              {figure.total}
            </span>
            <span className="text-xs text-muted-foreground">
              {ADMIN_STRINGS.thisMonth}:{' '}
              <span className="font-medium text-foreground tabular-nums">{figure.thisMonth}</span>
            </span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function UsageSkeleton() {
  return (
    <div className="grid gap-3">
      <Spinner label={ADMIN_STRINGS.usageLoading} className="sr-only" />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
    </div>
  );
}

export function ApiUsageCard({ showCosts }: { showCosts: boolean }) {
  const { data, error, isPending, refetch } = useApiUsage();
  return (
    <Card>
      <CardHeader className="px-4 sm:px-6">
        <CardTitle>{ADMIN_STRINGS.usageTitle}</CardTitle>
        <CardDescription>
          {showCosts ? ADMIN_STRINGS.usageDescriptionCosts : ADMIN_STRINGS.usageDescription}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 px-4 sm:px-6">
        {isPending ? <UsageSkeleton /> : null}
        {error && !data ? (
          <AdminQueryError error={error} fallback={ADMIN_STRINGS.usageFailed} onRetry={() => void refetch()} />
        ) : null}
        {data ? (
          <>
            <UsageFigures usage={data} showCosts={showCosts} />
            {data.byNarrator.length > 1 ? <NarratorUsageTable rows={data.byNarrator} /> : null}
            <div className="grid gap-3 md:grid-cols-2">
              <ProviderLine
                icon={<Bot className="size-4 text-muted-foreground" aria-hidden="true" />}
                role={ADMIN_STRINGS.narrator}
                name={data.provider}
                model={data.model}
                notice={data.notice}
              />
              <ProviderLine
                icon={<Palette className="size-4 text-muted-foreground" aria-hidden="true" />}
                role={ADMIN_STRINGS.painter}
                name={data.imageProvider.provider}
                model={data.imageProvider.model}
                notice={data.imageProvider.notice}
              />
            </div>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
