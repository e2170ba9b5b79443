// The zoom dialog of a scene picture: titled 'Scene Visualization', the full-size
// picture in a 16:9 box (nothing jumps while it loads) and what it shows as the caption.
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { IMAGES_STRINGS } from '../strings';

export interface ImageZoomDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  src: string;
  alt: string;
}

export function ImageZoomDialog({ open, onOpenChange, src, alt }: ImageZoomDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-4xl">
        <DialogHeader>
          <DialogTitle>{IMAGES_STRINGS.sceneVisualization}</DialogTitle>
          {alt ? <DialogDescription>{alt}</DialogDescription> : null}
        </DialogHeader>
        <div className="aspect-video w-full overflow-hidden rounded-lg border bg-muted">
          <img src={src} alt={alt} decoding="async" className="size-full object-contain" />
        </div>
      </DialogContent>
    </Dialog>
  );
}
