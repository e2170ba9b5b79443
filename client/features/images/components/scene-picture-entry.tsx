// A narrator reply's picture in the chat, one entry of the virtualised list:
// - being painted: the 'Generating image...' placeholder, in the 16:9 box the picture will fill;
// - ready: the picture (lazy, thumbnail first), which zooms on click;
// - its checks kept failing, or it would not load: 'Image could not be loaded' with Retry;
// - painting failed: the narrator-side message 'Failed to generate image: {reason}' with Retry,
//   which asks the painter again.
// Retry shows only while pictures are switched on.
import { memo } from 'react';
import { ImageOff, RotateCcw } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { IMAGES_STRINGS } from '../strings';
import type { ScenePicture } from '../types';
import { ZoomableImage } from './zoomable-image';

export interface ScenePictureEntryProps {
  picture: ScenePicture;
  /** The entry's text: 'Generating image...', 'Generated image' or the failure message. */
  text: string;
  canRetry: boolean;
  /** Retry of a failed or stalled picture (the caller knows which call that takes). */
  onRetry: () => void;
  retrying: boolean;
}

function RetryButton({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying} className="font-sans">
      <RotateCcw aria-hidden="true" />
      {IMAGES_STRINGS.retry}
    </Button>
  );
}

export const ScenePictureEntry = memo(function ScenePictureEntry({
  picture,
  text,
  canRetry,
  onRetry,
  retrying,
}: ScenePictureEntryProps) {
  if (picture.status === 'failed') {
    return (
      <div className="flex justify-start">
        <article
          aria-label={IMAGES_STRINGS.sceneVisualization}
          data-picture-state="failed"
          className="grid max-w-[85%] gap-2 rounded-2xl rounded-bl-sm border border-dashed bg-muted/40 px-4 py-3 text-sm sm:max-w-[75%]"
        >
          <p className="flex items-start gap-2 break-words">
            <ImageOff className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span>{text}</span>
          </p>
          {canRetry ? (
            <div>
              <RetryButton onRetry={onRetry} retrying={retrying} />
            </div>
          ) : null}
        </article>
      </div>
    );
  }

  return (
    <figure
      className="mx-auto w-full max-w-xl"
      data-picture-state={picture.status === 'pending' && picture.stalled ? 'stalled' : picture.status}
    >
      {picture.status === 'ready' ? (
        <ZoomableImage
          key={picture.url}
          src={picture.url}
          thumbnail={picture.thumbnail}
          width={picture.width}
          alt={picture.alt || text}
          canRetry={canRetry}
        />
      ) : (
        <div className="flex aspect-video w-full flex-col items-center justify-center gap-3 rounded-xl border border-dashed bg-muted/50 p-4 text-center text-sm text-muted-foreground">
          {picture.stalled ? (
            <>
              <ImageOff className="size-6" aria-hidden="true" />
              <p>{IMAGES_STRINGS.couldNotLoad}</p>
              {canRetry ? <RetryButton onRetry={onRetry} retrying={retrying} /> : null}
            </>
          ) : (
            <>
              <Spinner label={text} className="[&_svg]:size-6" />
              <p aria-hidden="true">{text}</p>
            </>
          )}
        </div>
      )}
    </figure>
  );
});
