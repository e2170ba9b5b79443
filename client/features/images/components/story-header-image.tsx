// The story page's optional header picture, in a 16:9 box reserved from the first
// paint: a spinner with 'Generating image...' while the opening's picture is being painted, the
// picture (click to zoom), 'Image failed to load' when it would not load, or 'No image available'.
import { ImageOff } from 'lucide-react';
import { Spinner } from '@client/components/ui/spinner';
import { IMAGES_STRINGS } from '../strings';
import { ZoomableImage } from './zoomable-image';

export type HeaderPicture = { status: 'ready'; url: string; alt: string } | { status: 'pending' } | { status: 'none' };

export function StoryHeaderImage({ picture }: { picture: HeaderPicture }) {
  return (
    <section aria-label={IMAGES_STRINGS.headerLabel} className="w-full">
      {picture.status === 'ready' ? (
        <ZoomableImage
          key={picture.url}
          src={picture.url}
          alt={picture.alt || IMAGES_STRINGS.headerImageAlt}
          loading="eager"
          sizes="(min-width: 768px) 48rem, 100vw"
          failedText={IMAGES_STRINGS.imageFailedToLoad}
          canRetry={false}
        />
      ) : (
        <div className="flex aspect-video w-full flex-col items-center justify-center gap-3 rounded-xl border border-dashed bg-muted/50 text-sm text-muted-foreground">
          {picture.status === 'pending' ? (
            <>
              <Spinner label={IMAGES_STRINGS.generatingImage} className="[&_svg]:size-7" />
              <p aria-hidden="true">{IMAGES_STRINGS.generatingImage}</p>
            </>
          ) : (
            <>
              <ImageOff className="size-7" aria-hidden="true" />
              <p>{IMAGES_STRINGS.noImageAvailable}</p>
            </>
          )}
        </div>
      )}
    </section>
  );
}
