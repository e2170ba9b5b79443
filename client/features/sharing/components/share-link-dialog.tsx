// 'Share story': the link with a copy button ('Copied!' / 'Link copied to
// clipboard', a check mark for 2 s), the three alternate links for Messenger's in-app browser, and
// 'Open shared story', and 'Stop sharing' to turn the link off.
import { useEffect, useId, useRef, useState } from 'react';
import { Check, Copy, ExternalLink } from 'lucide-react';
import { COPIED_INDICATOR_MS } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/use-toast';
import { MESSENGER_PAGES } from '@client/lib/messenger-pages';
import { SHARING_STRINGS } from '../strings';
import { StopSharing } from './stop-sharing';

export function shareLinks(origin: string, shareId: string) {
  const id = encodeURIComponent(shareId);
  return { page: `${origin}/shared/${id}`, messenger: MESSENGER_PAGES.map((path) => `${origin}${path}?id=${id}`) };
}

export function ShareLinkDialog({ shareId, onClose }: { shareId: string | null; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const links = shareId ? shareLinks(window.location.origin, shareId) : null;

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const handleCopy = async () => {
    if (!links) return;
    try {
      await navigator.clipboard.writeText(links.page);
      setCopied(true);
      toast({ title: SHARING_STRINGS.copiedTitle, description: SHARING_STRINGS.copiedText });
    } catch {
      // Clipboard access can be refused (permissions, insecure origin): leave the link selected instead.
      inputRef.current?.select();
      toast({ title: SHARING_STRINGS.errorTitle, description: SHARING_STRINGS.copyFailed, variant: 'destructive' });
    }
  };

  return (
    <Dialog open={links !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{SHARING_STRINGS.shareDialogTitle}</DialogTitle>
          <DialogDescription>{SHARING_STRINGS.shareDialogText}</DialogDescription>
        </DialogHeader>
        {links ? (
          <div className="grid gap-5">
            <div className="grid gap-2">
              <label htmlFor={inputId} className="text-sm font-medium">
                {SHARING_STRINGS.linkLabel}
              </label>
              <div className="flex gap-2">
                <Input
                  id={inputId}
                  ref={inputRef}
                  readOnly
                  value={links.page}
                  onFocus={(event) => event.currentTarget.select()}
                  className="font-mono text-sm"
                />
                <Button
                  type="button"
                  variant="outline"
                  size="icon"
                  onClick={() => void handleCopy()}
                  aria-label={copied ? SHARING_STRINGS.copiedTitle : SHARING_STRINGS.copyLink}
                >
                  {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
                </Button>
              </div>
            </div>
            <section aria-labelledby={`${inputId}-messenger`} className="grid gap-2">
              <h3 id={`${inputId}-messenger`} className="text-sm font-medium">
                {SHARING_STRINGS.messengerLinksTitle}
              </h3>
              <p className="text-sm text-muted-foreground">{SHARING_STRINGS.messengerLinksText}</p>
              <ul className="grid gap-1">
                {links.messenger.map((url, index) => (
                  <li key={url}>
                    <a
                      href={url}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={`${SHARING_STRINGS.messengerLinkLabels[index]}: ${url}`}
                      className="font-mono text-xs break-all text-primary underline underline-offset-4"
                    >
                      {url}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
            <Button asChild>
              <a href={links.page} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden="true" />
                {SHARING_STRINGS.openShared}
              </a>
            </Button>
            {shareId ? <StopSharing key={shareId} shareId={shareId} onStopped={onClose} /> : null}
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
