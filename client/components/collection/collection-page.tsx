// The page of a player's collection (/stories, /bookmarks): a spinner while the session is read,
// the caller's sign-in prompt for visitors, else the heading (with the page's own buttons, if any)
// and the collection. Also the card shown when the collection is empty, and the list itself.
// Shared by the library and the bookmarks; the session and the prompt come from the caller, so
// this stays below the features.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageContainer, PageSpinner } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { usePageTitle } from '@client/lib/use-page-title';

export interface CollectionPageProps {
  title: string;
  loadingLabel: string;
  session: { isLoading: boolean; isLoggedIn: boolean };
  /** What a visitor sees instead (the auth feature's 'Sign in or Register' prompt). */
  signInPrompt: ReactNode;
  /** Buttons beside the heading (the library's import). */
  headerActions?: ReactNode;
  children: ReactNode;
}

export function CollectionPage({
  title,
  loadingLabel,
  session,
  signInPrompt,
  headerActions,
  children,
}: CollectionPageProps) {
  usePageTitle(title);
  if (session.isLoading) return <PageSpinner label={loadingLabel} />;
  if (!session.isLoggedIn) return signInPrompt;
  const heading = <h1 className="text-3xl font-semibold">{title}</h1>;
  return (
    <PageContainer className="grid gap-6">
      {headerActions ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          {heading}
          {headerActions}
        </div>
      ) : (
        heading
      )}
      {children}
    </PageContainer>
  );
}

/** The card of an empty collection: what will appear here, and where to start. */
export function CollectionEmptyCard({
  title,
  text,
  action,
}: {
  title: string;
  text: string;
  action: { to: string; icon: ReactNode; label: string };
}) {
  return (
    <Card className="grid justify-items-center gap-3 p-10 text-center">
      <h2 className="text-xl font-semibold">{title}</h2>
      <p className="text-muted-foreground">{text}</p>
      <Button asChild>
        <Link to={action.to}>
          {action.icon}
          {action.label}
        </Link>
      </Button>
    </Card>
  );
}

/** The items, one list entry each. */
export function CollectionList<T extends { id: number }>({
  label,
  className,
  busy,
  items,
  render,
}: {
  label: string;
  className: string;
  busy?: boolean;
  items: readonly T[];
  render: (item: T) => ReactNode;
}) {
  return (
    <ul aria-label={label} className={className} aria-busy={busy || undefined}>
      {items.map((item) => (
        <li key={item.id}>{render(item)}</li>
      ))}
    </ul>
  );
}
