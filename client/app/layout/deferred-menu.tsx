// Loads a top-bar menu's code only when someone reaches for it. Menus need Radix's menu and
// floating positioning code (about 20 KB gzip) that a reader who never opens one should not pay
// for on every page load. Hover or focus starts the download; a click then swaps this stand-in
// for the real menu, open, which stays mounted from then on.
// React.lazy is avoided on purpose: a lazy boundary that shows its fallback even for a moment
// makes React 19 hold the reveal for about 300 ms, which made the first open feel sluggish.
import { useState, type ComponentType, type ReactNode } from 'react';
import { Button } from '@client/components/ui/button';

export interface DeferredMenuProps {
  /** The loaded menu starts open, because the click that loaded it meant "open". */
  defaultOpen?: boolean;
}

export interface Preloadable<T> {
  (): Promise<T>;
  /** The loaded value, once the download has finished. */
  loaded: () => T | undefined;
}

/** Wraps a dynamic import so hover can start it early and a click can use it at once. */
export function preloadable<T>(load: () => Promise<T>): Preloadable<T> {
  let pending: Promise<T> | null = null;
  let value: T | undefined;
  const start = () => {
    pending ??= load().then(
      (result) => {
        value = result;
        return result;
      },
      (error: unknown) => {
        // Let the next hover or click try again (for example once the network is back).
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  return Object.assign(start, { loaded: () => value });
}

/** Swaps in a preloadable component on demand; null until it has been asked for and loaded. */
export function useDeferredComponent<P>(loader: Preloadable<ComponentType<P>>) {
  const [Component, setComponent] = useState<ComponentType<P> | null>(null);
  const preload = () => {
    loader().catch(() => undefined);
  };
  const activate = () => {
    const ready = loader.loaded();
    if (ready) {
      setComponent(() => ready);
      return;
    }
    loader().then(
      (component) => setComponent(() => component),
      () => undefined,
    );
  };
  return { Component, preload, activate };
}

export interface DeferredMenuLauncherProps<P extends DeferredMenuProps> {
  label: string;
  icon: ReactNode;
  loader: Preloadable<ComponentType<P>>;
  menuProps: Omit<P, keyof DeferredMenuProps>;
}

export function DeferredMenuLauncher<P extends DeferredMenuProps>({
  label,
  icon,
  loader,
  menuProps,
}: DeferredMenuLauncherProps<P>) {
  const { Component: Menu, preload, activate } = useDeferredComponent(loader);
  if (Menu) {
    const props = { ...menuProps, defaultOpen: true } as P;
    return <Menu {...props} />;
  }
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={label}
      title={label}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={preload}
      onFocus={preload}
      onClick={activate}
    >
      {icon}
    </Button>
  );
}
