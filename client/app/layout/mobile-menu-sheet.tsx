// The side menu that replaces the top bar's links on small screens: navigation, theme, settings
// pages and login/logout, in a focus-trapped sheet. Loaded on first use by MobileMenu.
import type { RefObject } from 'react';
import { Link } from 'react-router';
import { LogIn, LogOut } from 'lucide-react';
import { THEMES } from '@shared/constants';
import { useTheme } from '@client/components/theme-provider';
import { Button } from '@client/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@client/components/ui/sheet';
import { cn } from '@client/lib/utils';
import type { User } from '@shared/schemas/user';
import { APP_STRINGS } from '../strings';
import { MAIN_NAV_ITEMS, visibleSettingsItems } from './nav-items';
import { NavLinkItem } from './nav-link-item';
import { THEME_OPTIONS } from './theme-options';

export interface MobileMenuProps {
  user: User | null;
  isLoading: boolean;
  onLogout: () => void;
  isLoggingOut: boolean;
}

export interface MobileMenuSheetProps extends MobileMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button lives outside the sheet's code, so focus is handed back to it explicitly. */
  returnFocusRef: RefObject<HTMLButtonElement | null>;
}

function SectionHeading({ id, children }: { id: string; children: string }) {
  return (
    <h3 id={id} className="px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
      {children}
    </h3>
  );
}

export function MobileMenuSheet({
  user,
  isLoading,
  onLogout,
  isLoggingOut,
  open,
  onOpenChange,
  returnFocusRef,
}: MobileMenuSheetProps) {
  const { theme, setTheme } = useTheme();
  const close = () => onOpenChange(false);
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        side="left"
        closeLabel={APP_STRINGS.closeMenu}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusRef.current?.focus();
        }}
      >
        <div className="grid gap-1 pr-8">
          <SheetTitle>{APP_STRINGS.menuTitle}</SheetTitle>
          <SheetDescription>
            {user ? APP_STRINGS.signedInAs(user.username) : APP_STRINGS.menuDescription}
          </SheetDescription>
        </div>

        <nav aria-label={APP_STRINGS.mainNavigation} className="grid gap-1">
          {MAIN_NAV_ITEMS.map((item) => (
            <NavLinkItem key={item.to} item={item} onNavigate={close} className="w-full" />
          ))}
        </nav>

        <section className="grid gap-2" aria-labelledby="mobile-theme-heading">
          <SectionHeading id="mobile-theme-heading">{APP_STRINGS.themeHeading}</SectionHeading>
          <div className="grid grid-cols-3 gap-1 px-1">
            {THEMES.map((option) => {
              const { label, icon: Icon } = THEME_OPTIONS[option];
              return (
                <Button
                  key={option}
                  variant="outline"
                  size="sm"
                  aria-pressed={theme === option}
                  onClick={() => setTheme(option)}
                  className={cn(theme === option && 'border-primary bg-accent text-accent-foreground')}
                >
                  <Icon aria-hidden="true" />
                  {label}
                </Button>
              );
            })}
          </div>
        </section>

        <section className="grid gap-1" aria-labelledby="mobile-settings-heading">
          <SectionHeading id="mobile-settings-heading">{APP_STRINGS.settings}</SectionHeading>
          {visibleSettingsItems(user !== null).map((item) => (
            <NavLinkItem key={item.to} item={item} onNavigate={close} className="w-full" />
          ))}
        </section>

        <div className="mt-auto border-t pt-4">
          {isLoading ? null : user ? (
            <Button
              variant="outline"
              className="w-full"
              disabled={isLoggingOut}
              onClick={() => {
                close();
                onLogout();
              }}
            >
              <LogOut aria-hidden="true" />
              {APP_STRINGS.logout}
            </Button>
          ) : (
            <Button asChild className="w-full">
              <Link to="/auth" onClick={close}>
                <LogIn aria-hidden="true" />
                {APP_STRINGS.loginRegister}
              </Link>
            </Button>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
