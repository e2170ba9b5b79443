// /auth: one card that toggles between 'Welcome Back' (login) and 'Create Account' (register).
// Once a session exists (just now, or already on arrival) the page sends the user on, in the spec's
// order: pending operation, pending continuation, safe redirect target, /story/new, home.
import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { Logo } from '@client/components/logo';
import { PageContainer, PageSpinner } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';
import { useSession } from '../hooks/use-session';
import { AUTH_STRINGS } from '../strings';
import { isTokenPurchaseRedirect, resolvePostAuthDestination } from '@client/lib/auth-redirect';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

type AuthMode = 'login' | 'register';

export function AuthPage() {
  const [searchParams] = useSearchParams();
  const { user, isLoading } = useSession();
  const [mode, setMode] = useState<AuthMode>('login');
  const isLogin = mode === 'login';
  usePageTitle(isLogin ? AUTH_STRINGS.loginTitle : AUTH_STRINGS.registerTitle);

  if (isLoading) return <PageSpinner label={AUTH_STRINGS.checkingSession} />;
  if (user) return <Navigate to={resolvePostAuthDestination(searchParams)} replace />;

  const tokenPurchase = isTokenPurchaseRedirect(searchParams);
  const description = tokenPurchase
    ? isLogin
      ? AUTH_STRINGS.tokenPurchaseLogin
      : AUTH_STRINGS.tokenPurchaseRegister
    : isLogin
      ? AUTH_STRINGS.loginDescription
      : AUTH_STRINGS.registerDescription;

  return (
    <PageContainer width="narrow">
      <Card>
        <CardHeader className="items-center text-center">
          <Logo size={56} decorative className="mb-2 drop-shadow-md" />
          <CardTitle as="h1">{isLogin ? AUTH_STRINGS.loginTitle : AUTH_STRINGS.registerTitle}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>{isLogin ? <LoginForm /> : <RegisterForm />}</CardContent>
        <CardFooter className="justify-center">
          <Button variant="link" onClick={() => setMode(isLogin ? 'register' : 'login')}>
            {isLogin ? AUTH_STRINGS.toRegister : AUTH_STRINGS.toLogin}
          </Button>
        </CardFooter>
      </Card>
    </PageContainer>
  );
}
