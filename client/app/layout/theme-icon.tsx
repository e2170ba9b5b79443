// The theme button's icon: a moon when the page is dark, a sun when it is light.
import { Moon, Sun } from 'lucide-react';
import { useTheme } from '@client/components/theme-provider';

export function ThemeIcon() {
  const { resolvedTheme } = useTheme();
  const Icon = resolvedTheme === 'dark' ? Moon : Sun;
  return <Icon aria-hidden="true" />;
}
