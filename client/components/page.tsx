// Page-level building blocks shared by every route: the main content column, a full-area loading
// state, and the honest notice for parts of Taleweaver that later work fills in.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Home } from 'lucide-react';
import { PRODUCT_NAME } from '@shared/constants';
import { cn } from '@client/lib/utils';
import { usePageTitle } from '@client/lib/use-page-title';
import { Button } from './ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './ui/card';
import { Spinner } from './ui/spinner';

export function PageContainer({
  children,
  className,
  width = 'default',
}: {
  children: ReactNode;
  className?: string;
  width?: 'narrow' | 'default' | 'wide';
}) {
  const maxWidth = width === 'narrow' ? 'max-w-md' : width === 'wide' ? 'max-w-5xl' : 'max-w-3xl';
  return <div className={cn('mx-auto w-full px-4 py-8 sm:py-12', maxWidth, className)}>{children}</div>;
}

export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="flex min-h-[40vh] items-center justify-center">
      <Spinner label={label} className="[&_svg]:size-8" />
    </div>
  );
}

export const BUILDING_NOTICE_TEXT = `This part of ${PRODUCT_NAME} is being built and will open in an upcoming release.`;
export const HOME_LABEL = 'Home';

/** A real page with a heading and a way back, for routes whose feature lands in a later release. */
export function BuildingNotice({ title, children }: { title: string; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <PageContainer>
      <Card>
        <CardHeader>
          <CardTitle as="h1">{title}</CardTitle>
          <CardDescription className="text-base">{BUILDING_NOTICE_TEXT}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {children}
          <div>
            <Button asChild variant="outline">
              <Link to="/">
                <Home aria-hidden="true" />
                {HOME_LABEL}
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </PageContainer>
  );
}
