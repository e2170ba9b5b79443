// The top navigation bar: Home, Current Story, Your Stories, Bookmarks, theme, settings and login/logout. It
// slides away while scrolling down and returns on scroll up or when keyboard focus enters it.
import { Link } from 'react-router';
import { LogIn, LogOut, Settings } from 'lucide-react';
import { Logo } from '@client/components/logo';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { useLogout, useSession } from '@client/features/auth';
import { useHideOnScroll } from '../hooks/use-hide-on-scroll';
import { APP_STRINGS } from '../strings';
import { DeferredMenuLauncher, preloadable } from './deferred-menu';
import { MobileMenu } from './mobile-menu';
import { MAIN_NAV_ITEMS } from './nav-items';
import { NavLinkItem } from './nav-link-item';
import { ThemeIcon } from './theme-icon';

const themeMenuLoader = preloadable(() => import('./theme-menu').then((m) => m.ThemeMenu));
const settingsMenuLoader = preloadable(() => import('./settings-menu').then((m) => m.SettingsMenu));

export function TopNav() {
  const hidden = useHideOnScroll();
  const { user, isLoading, isLoggedIn } = useSession();
  const { logout, isPending } = useLogout();

  return (
    <header
      data-hidden={hidden}
      className={cn(
        'fixed inset-x-0 top-0 z-40 border-b bg-nav backdrop-blur-md transition-transform duration-300 focus-within:translate-y-0 motion-reduce:transition-none',
        hidden && '-translate-y-full',
      )}
    >
      {/* h-16 matches the layout's pt-16, which keeps page content clear of this fixed bar. */}
      <div className="mx-auto flex h-16 max-w-5xl items-center gap-2 px-4">
        <MobileMenu user={user} isLoading={isLoading} onLogout={logout} isLoggingOut={isPending} />
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md font-serif text-xl font-semibold focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <Logo size={32} decorative />
          {APP_STRINGS.productName}
        </Link>

        <nav aria-label={APP_STRINGS.mainNavigation} className="ml-6 hidden items-center gap-1 md:flex">
          {MAIN_NAV_ITEMS.map((item) => (
            <NavLinkItem key={item.to} item={item} />
          ))}
        </nav>

        <div className="ml-auto flex items-center gap-1">
          <DeferredMenuLauncher
            label={APP_STRINGS.themeToggle}
            icon={<ThemeIcon />}
            loader={themeMenuLoader}
            menuProps={{}}
          />
          <div className="hidden items-center gap-1 md:flex">
            <DeferredMenuLauncher
              label={APP_STRINGS.settings}
              icon={<Settings aria-hidden="true" />}
              loader={settingsMenuLoader}
              menuProps={{ isLoggedIn }}
            />
            {isLoading ? null : user ? (
              <Button
                variant="outline"
                size="sm"
                onClick={logout}
                disabled={isPending}
                className="ml-1"
                title={APP_STRINGS.signedInAs(user.username)}
              >
                <LogOut aria-hidden="true" />
                {APP_STRINGS.logout}
              </Button>
            ) : (
              <Button asChild size="sm" className="ml-1">
                <Link to="/auth">
                  <LogIn aria-hidden="true" />
                  {APP_STRINGS.loginRegister}
                </Link>
              </Button>
            )}
          </div>
        </div>
      </div>
    </header>
  );
}
