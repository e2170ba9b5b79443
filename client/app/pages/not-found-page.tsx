// The 404 page for any path outside the route list.
import { Link } from 'react-router';
import { Compass, Home } from 'lucide-react';
import { PageContainer } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';
import { APP_STRINGS } from '../strings';

export function NotFoundPage() {
  usePageTitle(APP_STRINGS.notFoundTitle);
  return (
    <PageContainer width="narrow">
      <Card className="text-center">
        <CardHeader className="items-center">
          <Compass className="mb-2 size-10 text-gold" aria-hidden="true" />
          <p className="font-serif text-5xl font-semibold text-gold">404</p>
          <CardTitle as="h1">{APP_STRINGS.notFoundTitle}</CardTitle>
          <CardDescription className="text-base">{APP_STRINGS.notFoundText}</CardDescription>
        </CardHeader>
        <CardFooter className="justify-center">
          <Button asChild>
            <Link to="/">
              <Home aria-hidden="true" />
              {APP_STRINGS.home}
            </Link>
          </Button>
        </CardFooter>
      </Card>
    </PageContainer>
  );
}
