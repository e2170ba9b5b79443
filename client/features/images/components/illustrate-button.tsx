// The small button on a narrator bubble without a picture: 'Illustrate this scene' asks the painter
// for one (only offered while scene images are on).
import { ImagePlus } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { IMAGES_STRINGS } from '../strings';

export function IllustrateButton({ onClick, busy }: { onClick: () => void; busy: boolean }) {
  return (
    <Button
      variant="ghost"
      size="icon"
      onClick={onClick}
      disabled={busy}
      aria-label={IMAGES_STRINGS.illustrate}
      title={IMAGES_STRINGS.illustrate}
      className="size-8 text-muted-foreground"
    >
      {busy ? (
        <Spinner label={IMAGES_STRINGS.generatingImage} className="[&_svg]:size-4" />
      ) : (
        <ImagePlus aria-hidden="true" />
      )}
    </Button>
  );
}
