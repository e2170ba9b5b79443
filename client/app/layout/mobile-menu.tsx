// The small-screen menu button. The sheet behind it is loaded on first use (hover or focus starts
// the download), like the desktop menus, and stays mounted afterwards so it can animate closed.
import { useRef, useState } from 'react';
import { Menu } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { APP_STRINGS } from '../strings';
import { preloadable, useDeferredComponent } from './deferred-menu';
import type { MobileMenuProps } from './mobile-menu-sheet';

const sheetLoader = preloadable(() => import('./mobile-menu-sheet').then((m) => m.MobileMenuSheet));

export function MobileMenu(props: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { Component: Sheet, preload, activate } = useDeferredComponent(sheetLoader);
  return (
    <>
      <Button
        ref={buttonRef}
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-label={APP_STRINGS.openMenu}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => {
          activate();
          setOpen(true);
        }}
      >
        <Menu aria-hidden="true" />
      </Button>
      {Sheet ? <Sheet {...props} open={open} onOpenChange={setOpen} returnFocusRef={buttonRef} /> : null}
    </>
  );
}
