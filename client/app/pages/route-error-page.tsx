// Shown inside the layout when a page throws or its code chunk fails to load (typically after a
// deploy replaced the files the open tab expected); a reload fetches the current ones.
import { Link } from 'react-router';
import { Home, RotateCw } from 'lucide-react';
import { PageContainer } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';
import { APP_STRINGS } from '../strings';

export function RouteErrorPage() {
  usePageTitle(APP_STRINGS.errorTitle);
  return (
    <PageContainer width="narrow">
      <Card role="alert">
        <CardHeader>
          <CardTitle as="h1">{APP_STRINGS.errorTitle}</CardTitle>
          <CardDescription className="text-base">{APP_STRINGS.errorText}</CardDescription>
        </CardHeader>
        <CardFooter className="flex-wrap">
          <Button onClick={() => window.location.reload()}>
            <RotateCw aria-hidden="true" />
            {APP_STRINGS.reload}
          </Button>
          <Button asChild variant="outline">
            <Link to="/" reloadDocument>
              <Home aria-hidden="true" />
              {APP_STRINGS.home}
            </Link>
          </Button>
        </CardFooter>
      </Card>
    </PageContainer>
  );
}
