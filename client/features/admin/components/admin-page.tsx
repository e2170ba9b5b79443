// /admin. Visitors are asked to log in; non-admins see 'Access Denied'. 'Back to Login' logs the
// non-admin out first, because /auth sends anyone already logged in straight on. Admins get the
// dashboard (usage, its history, and the users).
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LogIn, ShieldAlert } from 'lucide-react';
import { PageContainer, PageSpinner } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';
import { useLogout, useSession } from '@client/features/auth';
import { buildAuthPath } from '@client/lib/auth-redirect';
import { ADMIN_STRINGS } from '../strings';
import { AdminDashboard } from './admin-dashboard';

function GateCard({
  title,
  text,
  icon,
  children,
}: {
  title: string;
  text: string;
  icon?: ReactNode;
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <PageContainer width="narrow">
      <Card>
        <CardHeader>
          <CardTitle as="h1" className="flex items-center gap-2">
            {icon}
            {title}
          </CardTitle>
          <CardDescription className="text-base">{text}</CardDescription>
        </CardHeader>
        <CardFooter>{children}</CardFooter>
      </Card>
    </PageContainer>
  );
}

function AccessDenied() {
  const { logout, isPending } = useLogout(buildAuthPath('/admin'));
  return (
    <GateCard
      title={ADMIN_STRINGS.accessDeniedTitle}
      text={ADMIN_STRINGS.accessDeniedText}
      icon={<ShieldAlert className="size-6 text-destructive-text" aria-hidden="true" />}
    >
      <Button onClick={logout} disabled={isPending}>
        {ADMIN_STRINGS.backToLogin}
      </Button>
    </GateCard>
  );
}

export function AdminPage() {
  const { user, isLoading } = useSession();
  if (isLoading) return <PageSpinner label={ADMIN_STRINGS.loading} />;
  if (!user) {
    return (
      <GateCard title={ADMIN_STRINGS.pageTitle} text={ADMIN_STRINGS.loggedOutText}>
        <Button asChild>
          <Link to={buildAuthPath('/admin')}>
            <LogIn aria-hidden="true" />
            {ADMIN_STRINGS.loginButton}
          </Link>
        </Button>
      </GateCard>
    );
  }
  if (!user.isAdmin) return <AccessDenied />;
  return <AdminDashboard />;
}
