// Labels and icons of the three theme choices, shared by the theme menu and the mobile sheet.
import { Monitor, Moon, Sun, type LucideIcon } from 'lucide-react';
import { THEMES, type Theme } from '@shared/constants';
import { APP_STRINGS } from '../strings';

export const THEME_OPTIONS: Record<Theme, { label: string; icon: LucideIcon }> = {
  light: { label: APP_STRINGS.themeLight, icon: Sun },
  dark: { label: APP_STRINGS.themeDark, icon: Moon },
  system: { label: APP_STRINGS.themeSystem, icon: Monitor },
};

export function isTheme(value: string): value is Theme {
  return (THEMES as readonly string[]).includes(value);
}
