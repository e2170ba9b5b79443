// /tokens: where the auth page's token-purchase redirect (/tokens?package=…) lands. There is no
// purchase flow, so the page says so plainly, names the package the link carried, and shows the
// player's story allowance. Logged-out visitors get the same statement and a way to log in that
// returns here.
import type { ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Coins, Home, LogIn, UserCog } from 'lucide-react';
import { PageContainer, PageSpinner } from '@client/components/page';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';
import { useSession } from '@client/features/auth';
import { buildAuthPath } from '@client/lib/auth-redirect';
import { useAllowanceUsage } from '../hooks/use-allowance-usage';
import { ALLOWANCE_STRINGS } from '../strings';
import { toPackageName } from '../utils/allowance';
import { AllowanceFigures } from './allowance-figures';

function PurchasesUnavailable({ packageName }: { packageName: string | null }) {
  return (
    <Alert>
      <AlertTitle className="flex items-start gap-2">
        <Coins className="mt-0.5 size-4 shrink-0 text-gold" aria-hidden="true" />
        {ALLOWANCE_STRINGS.purchasesUnavailableText}
      </AlertTitle>
      {packageName ? <AlertDescription>{ALLOWANCE_STRINGS.chosenPackage(packageName)}</AlertDescription> : null}
    </Alert>
  );
}

function TokensCard({
  description,
  children,
  actions,
}: {
  description: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <PageContainer>
      <Card>
        <CardHeader>
          <CardTitle as="h1" className="text-3xl">
            {ALLOWANCE_STRINGS.pageTitle}
          </CardTitle>
          <CardDescription className="text-base">{description}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">{children}</CardContent>
        <CardFooter className="flex-wrap">{actions}</CardFooter>
      </Card>
    </PageContainer>
  );
}

function HomeButton({ variant }: { variant: 'default' | 'outline' }) {
  return (
    <Button asChild variant={variant}>
      <Link to="/">
        <Home aria-hidden="true" />
        {ALLOWANCE_STRINGS.home}
      </Link>
    </Button>
  );
}

export function AllowancePage() {
  const { user, isLoading } = useSession();
  const usage = useAllowanceUsage();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  usePageTitle(ALLOWANCE_STRINGS.pageTitle);
  const packageName = toPackageName(searchParams.get('package'));

  if (isLoading) return <PageSpinner label={ALLOWANCE_STRINGS.checkingSession} />;

  if (!user) {
    return (
      <TokensCard
        description={ALLOWANCE_STRINGS.loggedOutText}
        actions={
          <>
            <Button asChild>
              <Link to={buildAuthPath(`${location.pathname}${location.search}`)}>
                <LogIn aria-hidden="true" />
                {ALLOWANCE_STRINGS.loginButton}
              </Link>
            </Button>
            <HomeButton variant="outline" />
          </>
        }
      >
        <PurchasesUnavailable packageName={packageName} />
      </TokensCard>
    );
  }

  return (
    <TokensCard
      description={ALLOWANCE_STRINGS.pageDescription}
      actions={
        <>
          <HomeButton variant="default" />
          <Button asChild variant="outline">
            <Link to="/account">
              <UserCog aria-hidden="true" />
              {ALLOWANCE_STRINGS.accountSettings}
            </Link>
          </Button>
        </>
      }
    >
      <PurchasesUnavailable packageName={packageName} />
      <section className="grid gap-3" aria-labelledby="story-allowance-heading">
        <div className="grid gap-1">
          <h2 id="story-allowance-heading" className="text-xl font-semibold">
            {ALLOWANCE_STRINGS.allowanceTitle}
          </h2>
          <p className="text-sm text-muted-foreground">{ALLOWANCE_STRINGS.allowanceDescription}</p>
        </div>
        <AllowanceFigures usage={usage ?? user.tokenUsage} />
      </section>
    </TokensCard>
  );
}
