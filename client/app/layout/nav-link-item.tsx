// One main-navigation link. Links to story pages wait while the session is still being checked,
// showing the spec's 'Please wait' toast instead of a page that would flip a moment later.
import type { MouseEvent } from 'react';
import { NavLink } from 'react-router';
import { cn } from '@client/lib/utils';
import { useAuthGate } from '@client/features/auth';
import type { NavItem } from './nav-items';

export function NavLinkItem({
  item,
  className,
  onNavigate,
}: {
  item: NavItem;
  className?: string;
  onNavigate?: () => void;
}) {
  const authSettled = useAuthGate();
  const { to, label, icon: Icon, needsAuthState } = item;
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (needsAuthState && !authSettled()) {
      event.preventDefault();
      return;
    }
    onNavigate?.();
  };
  return (
    <NavLink
      to={to}
      end={to === '/'}
      onClick={handleClick}
      className={({ isActive }) =>
        cn(
          'inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
          isActive && 'bg-accent text-accent-foreground',
          className,
        )
      }
    >
      <Icon className="size-4" aria-hidden="true" />
      {label}
    </NavLink>
  );
}
