// A new page starts at its top, as after a full page load; links to an #anchor are left to the browser.
import { useEffect } from 'react';
import { useLocation } from 'react-router';

export function useScrollToTop(): void {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
}
