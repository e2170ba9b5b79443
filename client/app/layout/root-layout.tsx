// The frame around every page: skip link, top bar, the lazily loaded page, footer, the blocking
// 'Email Required' dialog, and the session's background duties (30 s check, admin landing).
import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PageSpinner } from '@client/components/page';
import { EmailRequiredGate } from '@client/features/account';
import { useSession, useSessionHeartbeat } from '@client/features/auth';
import { useAdminLanding } from '../hooks/use-admin-landing';
import { useScrollToTop } from '../hooks/use-scroll-to-top';
import { RouteErrorBoundary } from '../pages/route-error-boundary';
import { APP_STRINGS } from '../strings';
import { SiteFooter } from './site-footer';
import { TopNav } from './top-nav';

export function RootLayout() {
  const { user, isLoading } = useSession();
  useSessionHeartbeat(user?.id ?? null);
  useAdminLanding(user, isLoading);
  useScrollToTop();
  const { pathname } = useLocation();

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {APP_STRINGS.skipToContent}
      </a>
      <TopNav />
      {/* The bar is fixed, so the page starts below it. */}
      <main id="main" tabIndex={-1} className="flex-1 pt-16 outline-none">
        <RouteErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageSpinner label={APP_STRINGS.loadingPage} />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <SiteFooter />
      <EmailRequiredGate />
    </div>
  );
}
