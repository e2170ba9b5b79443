// Hides the top bar while the reader scrolls down and brings it back on any scroll up, so the story
// gets the whole screen. Near the top it always shows.
import { useEffect, useState } from 'react';

const ALWAYS_VISIBLE_ABOVE_PX = 64;
const MIN_DELTA_PX = 6;

export function useHideOnScroll(): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let lastY = window.scrollY;
    let frame = 0;
    const update = () => {
      frame = 0;
      const y = window.scrollY;
      if (y < ALWAYS_VISIBLE_ABOVE_PX) {
        setHidden(false);
      } else if (Math.abs(y - lastY) >= MIN_DELTA_PX) {
        setHidden(y > lastY);
      } else {
        return;
      }
      lastY = y;
    };
    // One update per animation frame however fast scroll events arrive.
    const handleScroll = () => {
      if (frame === 0) frame = window.requestAnimationFrame(update);
    };
    window.addEventListener('scroll', handleScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', handleScroll);
      if (frame !== 0) window.cancelAnimationFrame(frame);
    };
  }, []);
  return hidden;
}
