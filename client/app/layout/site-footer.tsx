// The quiet footer: the legal pages are always one click away, even for visitors.
import { Link } from 'react-router';
import { APP_STRINGS } from '../strings';

export function SiteFooter() {
  const linkClass =
    'rounded-sm underline-offset-4 hover:text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';
  return (
    <footer className="border-t border-border/60">
      <div className="mx-auto flex max-w-5xl flex-col items-center justify-between gap-2 px-4 py-6 text-sm text-muted-foreground sm:flex-row">
        <p>{APP_STRINGS.footerNote}</p>
        <nav aria-label={APP_STRINGS.settings} className="flex gap-4">
          <Link to="/privacy" className={linkClass}>
            {APP_STRINGS.privacyPolicy}
          </Link>
          <Link to="/terms" className={linkClass}>
            {APP_STRINGS.termsOfService}
          </Link>
        </nav>
      </div>
    </footer>
  );
}
