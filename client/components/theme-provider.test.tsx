// Theme: default dark, kept under 'vite-ui-theme', applied as a class on <html>, system follows the OS.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ThemeProvider, useTheme } from './theme-provider';

function ThemeProbe() {
  const { theme, resolvedTheme, setTheme } = useTheme();
  return (
    <div>
      <p>
        {theme}/{resolvedTheme}
      </p>
      <button onClick={() => setTheme('light')}>light</button>
      <button onClick={() => setTheme('system')}>system</button>
    </div>
  );
}

function stubMatchMedia(prefersDark: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    matches: prefersDark,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => media),
  );
  return {
    change(nextDark: boolean) {
      media.matches = nextDark;
      listeners.forEach((listener) => listener());
    },
  };
}

describe('ThemeProvider', () => {
  it('defaults to dark without writing storage', () => {
    render(
      <ThemeProvider>
        <ThemeProbe />
      </ThemeProvider>,
    );
    expect(screen.getByText('dark/dark')).toBeInTheDocument();
    expect(document.documentElement).toHaveClass('dark');
    expect(window.localStorage.getItem('vite-ui-theme')).toBeNull();
  });

  it('stores a chosen theme under vite-ui-theme and swaps the class', async () => {
    render(
      <ThemeProvider>
        <ThemeProbe />
      </ThemeProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'light' }));
    expect(window.localStorage.getItem('vite-ui-theme')).toBe('light');
    expect(document.documentElement).toHaveClass('light');
    expect(document.documentElement).not.toHaveClass('dark');
  });

  it('restores a stored theme and ignores an unknown value', () => {
    window.localStorage.setItem('vite-ui-theme', 'light');
    const { unmount } = render(
      <ThemeProvider>
        <ThemeProbe />
      </ThemeProvider>,
    );
    expect(screen.getByText('light/light')).toBeInTheDocument();
    unmount();

    window.localStorage.setItem('vite-ui-theme', 'sepia');
    render(
      <ThemeProvider>
        <ThemeProbe />
      </ThemeProvider>,
    );
    expect(screen.getByText('dark/dark')).toBeInTheDocument();
  });

  it('follows the system preference, including later changes', () => {
    const system = stubMatchMedia(false);
    window.localStorage.setItem('vite-ui-theme', 'system');
    render(
      <ThemeProvider>
        <ThemeProbe />
      </ThemeProvider>,
    );
    expect(screen.getByText('system/light')).toBeInTheDocument();
    expect(document.documentElement).toHaveClass('light');

    act(() => system.change(true));
    expect(screen.getByText('system/dark')).toBeInTheDocument();
    expect(document.documentElement).toHaveClass('dark');
  });
});
