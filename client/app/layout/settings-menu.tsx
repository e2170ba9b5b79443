// Settings menu in the top bar: Story Preferences, Account Settings (logged in only), Privacy
// Policy, Terms of Service. Loaded on first use through DeferredMenuLauncher.
import { Fragment } from 'react';
import { Link } from 'react-router';
import { Settings } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { APP_STRINGS } from '../strings';
import type { DeferredMenuProps } from './deferred-menu';
import { visibleSettingsItems } from './nav-items';

export interface SettingsMenuProps extends DeferredMenuProps {
  isLoggedIn: boolean;
}

export function SettingsMenu({ isLoggedIn, defaultOpen = false }: SettingsMenuProps) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={APP_STRINGS.settings} title={APP_STRINGS.settings}>
          <Settings aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {visibleSettingsItems(isLoggedIn).map(({ to, label, icon: Icon, group }, index, items) => (
          <Fragment key={to}>
            {index > 0 && items[index - 1].group !== group ? <DropdownMenuSeparator /> : null}
            <DropdownMenuItem asChild>
              <Link to={to}>
                <Icon aria-hidden="true" />
                {label}
              </Link>
            </DropdownMenuItem>
          </Fragment>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
