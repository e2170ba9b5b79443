// A picture in a fixed 16:9 box that opens the 'Scene Visualization' zoom dialog when clicked. The
// box is sized before any byte arrives, so text around it never moves (and the virtualised chat
// measures it right the first time). Lazy by default; the small thumbnail is the source, with the
// full picture offered through srcset for wide or dense screens and shown whole in the dialog.
// A picture that cannot be loaded says so, with Retry when the caller allows it.
import { useState, type ReactNode } from 'react';
import { ImageOff, RotateCcw } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { IMAGES_STRINGS } from '../strings';
import { ImageZoomDialog } from './image-zoom-dialog';

export interface ZoomableImageProps {
  src: string;
  thumbnail?: string;
  /** Width of the full picture, for srcset (the thumbnail is 320 px wide). */
  width?: number;
  alt: string;
  /** The layout width the picture is shown at (srcset's sizes). */
  sizes?: string;
  loading?: 'lazy' | 'eager';
  /** What a failed load says ('Image could not be loaded' by default). */
  failedText?: string;
  canRetry?: boolean;
  className?: string;
  /** Shown over the box (a caption, a badge). */
  children?: ReactNode;
}

const THUMBNAIL_WIDTH = 320;

export function ZoomableImage({
  src,
  thumbnail,
  width,
  alt,
  sizes = '(min-width: 640px) 36rem, 100vw',
  loading = 'lazy',
  failedText = IMAGES_STRINGS.couldNotLoad,
  canRetry = true,
  className,
  children,
}: ZoomableImageProps) {
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');
  // Bumped by Retry: a new <img> element starts the load again.
  const [attempt, setAttempt] = useState(0);
  const [zoomed, setZoomed] = useState(false);
  const srcSet =
    thumbnail && thumbnail !== src
      ? `${thumbnail} ${THUMBNAIL_WIDTH}w, ${src} ${width && width > THUMBNAIL_WIDTH ? width : 1024}w`
      : undefined;

  return (
    <div
      className={cn('relative aspect-video w-full overflow-hidden rounded-xl border bg-muted', className)}
      data-image-state={state}
    >
      {state === 'loading' ? (
        <div className="absolute inset-0 animate-pulse bg-muted motion-reduce:animate-none" aria-hidden="true" />
      ) : null}
      {state === 'failed' ? (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-4 text-center text-sm text-muted-foreground">
          <ImageOff className="size-6" aria-hidden="true" />
          <p>{failedText}</p>
          {canRetry ? (
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                setState('loading');
                setAttempt((n) => n + 1);
              }}
            >
              <RotateCcw aria-hidden="true" />
              {IMAGES_STRINGS.retry}
            </Button>
          ) : null}
        </div>
      ) : (
        <button
          type="button"
          onClick={() => setZoomed(true)}
          aria-haspopup="dialog"
          title={IMAGES_STRINGS.zoomLabel}
          className="absolute inset-0 block size-full cursor-zoom-in focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset"
        >
          <img
            key={attempt}
            src={thumbnail ?? src}
            srcSet={srcSet}
            sizes={srcSet ? sizes : undefined}
            alt={alt}
            loading={loading}
            decoding="async"
            onLoad={() => setState('loaded')}
            onError={() => setState('failed')}
            className={cn(
              'size-full object-cover transition-opacity duration-300 motion-reduce:transition-none',
              state === 'loaded' ? 'opacity-100' : 'opacity-0',
            )}
          />
        </button>
      )}
      {children}
      <ImageZoomDialog open={zoomed} onOpenChange={setZoomed} src={src} alt={alt} />
    </div>
  );
}
