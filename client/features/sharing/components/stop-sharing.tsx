// 'Stop sharing' in the 'Share story' dialog: a second click confirms, then DELETE
// /api/shared/{shareId} turns the link off for everyone ('Story not found or has been removed by
// its creator') and the dialog closes. Sharing again later makes a new link.
import { useState } from 'react';
import { Link2Off } from 'lucide-react';
import { useMutation } from '@tanstack/react-query';
import { successSchema } from '@shared/schemas/common';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/use-toast';
import { apiWrite, errorMessage } from '@client/lib/api-client';
import { SHARING_STRINGS } from '../strings';

export function stopSharing(shareId: string) {
  return apiWrite(`/api/shared/${encodeURIComponent(shareId)}`, { method: 'DELETE', schema: successSchema });
}

export function StopSharing({ shareId, onStopped }: { shareId: string; onStopped: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const stop = useMutation({ mutationFn: stopSharing, meta: { errorToast: false } });

  const handleStop = async () => {
    try {
      await stop.mutateAsync(shareId);
      toast({ title: SHARING_STRINGS.stoppedTitle, description: SHARING_STRINGS.stoppedText });
      onStopped();
    } catch (error) {
      toast({
        title: SHARING_STRINGS.errorTitle,
        description: errorMessage(error, SHARING_STRINGS.stopFailed),
        variant: 'destructive',
      });
    }
  };

  if (!confirming) {
    return (
      <Button
        type="button"
        variant="ghost"
        className="justify-self-start text-muted-foreground"
        onClick={() => setConfirming(true)}
      >
        <Link2Off aria-hidden="true" />
        {SHARING_STRINGS.stopSharing}
      </Button>
    );
  }
  return (
    <div
      role="group"
      aria-label={SHARING_STRINGS.stopSharing}
      className="grid gap-2 rounded-lg border border-destructive/40 p-3"
    >
      <p className="text-sm">{SHARING_STRINGS.stopConfirmText}</p>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="destructive" disabled={stop.isPending} onClick={() => void handleStop()}>
          {stop.isPending ? SHARING_STRINGS.stopping : SHARING_STRINGS.stopConfirm}
        </Button>
        <Button type="button" variant="outline" disabled={stop.isPending} onClick={() => setConfirming(false)}>
          {SHARING_STRINGS.cancel}
        </Button>
      </div>
    </div>
  );
}
