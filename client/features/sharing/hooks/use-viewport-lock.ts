// Locks the viewport against user scaling while the share flow is open: on phones,
// focusing the title field or the link would otherwise zoom the page and leave the dialog off-centre.
// The page's own viewport settings come back when the flow ends.
import { useEffect } from 'react';

const LOCK = 'maximum-scale=1, user-scalable=no';

export function useViewportLock(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const meta = document.querySelector<HTMLMetaElement>('meta[name="viewport"]');
    if (!meta) return;
    const original = meta.getAttribute('content') ?? '';
    meta.setAttribute('content', original ? `${original}, ${LOCK}` : LOCK);
    return () => meta.setAttribute('content', original);
  }, [active]);
}
