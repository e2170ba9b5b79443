// Theme menu in the top bar: Light, Dark, System, with the current choice checked. Loaded on first
// use through DeferredMenuLauncher.
import { THEMES } from '@shared/constants';
import { useTheme } from '@client/components/theme-provider';
import { Button } from '@client/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { APP_STRINGS } from '../strings';
import type { DeferredMenuProps } from './deferred-menu';
import { ThemeIcon } from './theme-icon';
import { isTheme, THEME_OPTIONS } from './theme-options';

export function ThemeMenu({ defaultOpen = false }: DeferredMenuProps) {
  const { theme, setTheme } = useTheme();
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={APP_STRINGS.themeToggle} title={APP_STRINGS.themeToggle}>
          <ThemeIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>{APP_STRINGS.themeHeading}</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={theme} onValueChange={(value) => isTheme(value) && setTheme(value)}>
          {THEMES.map((option) => {
            const { label, icon: Icon } = THEME_OPTIONS[option];
            return (
              <DropdownMenuRadioItem key={option} value={option}>
                <Icon aria-hidden="true" />
                {label}
              </DropdownMenuRadioItem>
            );
          })}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
