// Light / dark / system theme: default dark, kept in localStorage under
// 'vite-ui-theme', applied as a class on <html>. public/theme-init.js applies the same choice
// before React loads so the page never flashes the wrong theme.
import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { DEFAULT_THEME, THEMES, type Theme } from '@shared/constants';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { readItem, writeItem } from '@client/lib/storage';

export type ResolvedTheme = 'light' | 'dark';

interface ThemeContextValue {
  theme: Theme;
  resolvedTheme: ResolvedTheme;
  setTheme: (theme: Theme) => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);
const DARK_QUERY = '(prefers-color-scheme: dark)';

function isTheme(value: string | null): value is Theme {
  return value !== null && (THEMES as readonly string[]).includes(value);
}

export function readStoredTheme(storageKey: string = LOCAL_STORAGE_KEYS.theme): Theme {
  const stored = readItem(storageKey);
  return isTheme(stored) ? stored : DEFAULT_THEME;
}

function subscribeToSystemTheme(onChange: () => void): () => void {
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  if (!media) return () => undefined;
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/** Without matchMedia (old browsers, tests) the product default, dark, wins. */
function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY).matches : true;
}

export interface ThemeProviderProps {
  children: ReactNode;
  storageKey?: string;
}

export function ThemeProvider({ children, storageKey = LOCAL_STORAGE_KEYS.theme }: ThemeProviderProps) {
  const [theme, setThemeState] = useState<Theme>(() => readStoredTheme(storageKey));
  const prefersDark = useSyncExternalStore(subscribeToSystemTheme, systemPrefersDark, () => true);
  const resolvedTheme: ResolvedTheme = theme === 'system' ? (prefersDark ? 'dark' : 'light') : theme;

  useEffect(() => {
    const root = document.documentElement;
    root.classList.remove('light', 'dark');
    root.classList.add(resolvedTheme);
  }, [resolvedTheme]);

  const setTheme = useCallback(
    (next: Theme) => {
      writeItem(storageKey, next);
      setThemeState(next);
    },
    [storageKey],
  );

  const value = useMemo(() => ({ theme, resolvedTheme, setTheme }), [theme, resolvedTheme, setTheme]);
  return <ThemeContext value={value}>{children}</ThemeContext>;
}

export function useTheme(): ThemeContextValue {
  const context = use(ThemeContext);
  if (!context) throw new Error('useTheme must be used inside ThemeProvider');
  return context;
}
