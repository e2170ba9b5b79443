// The 'Login Required' card for pages that need a session (the story page): a way to log in that
// returns here afterwards, and a way home.
import { Link, useLocation } from 'react-router';
import { LogIn } from 'lucide-react';
import { PageContainer } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';
import { AUTH_STRINGS } from '../strings';
import { buildAuthPath } from '@client/lib/auth-redirect';

export function LoginRequiredCard({ description = AUTH_STRINGS.loginRequiredText }: { description?: string }) {
  const location = useLocation();
  usePageTitle(AUTH_STRINGS.loginRequiredTitle);
  return (
    <PageContainer width="narrow">
      <Card>
        <CardHeader>
          <CardTitle as="h1">{AUTH_STRINGS.loginRequiredTitle}</CardTitle>
          <CardDescription className="text-base">{description}</CardDescription>
        </CardHeader>
        <CardFooter className="flex-wrap">
          <Button asChild>
            <Link to={buildAuthPath(`${location.pathname}${location.search}`)}>
              <LogIn aria-hidden="true" />
              {AUTH_STRINGS.loginRegister}
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/">{AUTH_STRINGS.returnHome}</Link>
          </Button>
        </CardFooter>
      </Card>
    </PageContainer>
  );
}
