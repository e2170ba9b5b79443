// /account: 'Account Settings' with the story allowance card (from the tokens feature), Change
// Username, Change Password, the email form, 'Your Limits' (each account quota's use) and 'Your Data'
// (download everything, delete the account). Logged-out visitors see 'Please log in to access
// settings' and a way to log in that returns here.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Database, HardDrive, KeyRound, LogIn, Mail, UserRound } from 'lucide-react';
import { PageContainer, PageSpinner } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';
import { useSession } from '@client/features/auth';
import { buildAuthPath } from '@client/lib/auth-redirect';
import { StoryAllowanceCard } from '@client/features/allowance';
import { ACCOUNT_STRINGS } from '../strings';
import { AccountLimits } from './account-limits';
import { ChangePasswordForm } from './change-password-form';
import { ChangeUsernameForm } from './change-username-form';
import { EmailForm } from './email-form';
import { MyDataSection } from './my-data-section';

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

function formatDate(value: string): string | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : dateFormat.format(date);
}

function SettingsSection({
  icon,
  title,
  description,
  children,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-xl">
          {icon}
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

export function AccountPage() {
  const { user, isLoading } = useSession();
  usePageTitle(ACCOUNT_STRINGS.pageTitle);

  if (isLoading) return <PageSpinner label={ACCOUNT_STRINGS.checkingSession} />;

  if (!user) {
    return (
      <PageContainer width="narrow">
        <Card>
          <CardHeader>
            <CardTitle as="h1">{ACCOUNT_STRINGS.pageTitle}</CardTitle>
            <CardDescription className="text-base">{ACCOUNT_STRINGS.loggedOutText}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild>
              <Link to={buildAuthPath('/account')}>
                <LogIn aria-hidden="true" />
                {ACCOUNT_STRINGS.loginButton}
              </Link>
            </Button>
          </CardContent>
        </Card>
      </PageContainer>
    );
  }

  const memberSince = formatDate(user.createdAt);
  const iconClass = 'size-5 text-gold';
  return (
    <PageContainer className="grid gap-6">
      <header className="grid gap-2">
        <h1 className="text-3xl font-semibold sm:text-4xl">{ACCOUNT_STRINGS.pageTitle}</h1>
        <p className="text-muted-foreground">
          {ACCOUNT_STRINGS.signedInAs} <strong className="text-foreground">{user.username}</strong>
          {memberSince ? ` · ${ACCOUNT_STRINGS.memberSince} ${memberSince}` : null}
        </p>
      </header>
      <StoryAllowanceCard />
      <SettingsSection
        icon={<UserRound className={iconClass} aria-hidden="true" />}
        title={ACCOUNT_STRINGS.usernameSection}
        description={ACCOUNT_STRINGS.usernameSectionText}
      >
        <ChangeUsernameForm />
      </SettingsSection>
      <SettingsSection
        icon={<KeyRound className={iconClass} aria-hidden="true" />}
        title={ACCOUNT_STRINGS.passwordSection}
        description={ACCOUNT_STRINGS.passwordSectionText}
      >
        <ChangePasswordForm />
      </SettingsSection>
      <SettingsSection
        icon={<Mail className={iconClass} aria-hidden="true" />}
        title={ACCOUNT_STRINGS.emailSection}
        description={ACCOUNT_STRINGS.emailSectionText}
      >
        <EmailForm currentEmail={user.email} />
      </SettingsSection>
      <SettingsSection
        icon={<HardDrive className={iconClass} aria-hidden="true" />}
        title={ACCOUNT_STRINGS.limitsSection}
        description={ACCOUNT_STRINGS.limitsSectionText}
      >
        <AccountLimits />
      </SettingsSection>
      <SettingsSection
        icon={<Database className={iconClass} aria-hidden="true" />}
        title={ACCOUNT_STRINGS.dataSection}
        description={ACCOUNT_STRINGS.dataSectionText}
      >
        <MyDataSection />
      </SettingsSection>
    </PageContainer>
  );
}
