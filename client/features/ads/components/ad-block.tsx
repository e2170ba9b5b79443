// One ad: labelled 'Ad', 'Support Taleweaver', 'Help us continue creating
// immersive experiences' and 'Visit Sponsor', which opens the sponsor (or the in-app support page
// for a house ad) in a new tab. Static: no autoplay, no tracking, nothing the narrator ever sees.
// A named region, so screen readers announce it as an ad; its one link is reachable by keyboard.
import { ExternalLink, HeartHandshake } from 'lucide-react';
import { cn } from '@client/lib/utils';
import { ADS_STRINGS } from '../strings';

export function AdBlock({ href, className }: { href: string; className?: string }) {
  return (
    <section
      aria-label={`${ADS_STRINGS.label}: ${ADS_STRINGS.title}`}
      data-ad=""
      className={cn(
        'mx-auto grid w-full max-w-xl gap-2 rounded-xl border border-dashed border-gold/60 bg-muted/30 px-4 py-3 font-sans',
        className,
      )}
    >
      <div className="flex items-center justify-between gap-3">
        <p className="flex items-center gap-2 font-semibold">
          <HeartHandshake className="size-5 text-gold" aria-hidden="true" />
          {ADS_STRINGS.title}
        </p>
        <span className="rounded border px-1.5 py-0.5 text-xs font-medium tracking-wide text-muted-foreground uppercase">
          {ADS_STRINGS.label}
        </span>
      </div>
      <p className="text-sm text-muted-foreground">{ADS_STRINGS.text}</p>
      <a
        href={href}
        target="_blank"
        rel="sponsored noopener noreferrer"
        className="inline-flex items-center gap-1.5 justify-self-start rounded-md border bg-background px-3 py-1.5 text-sm font-medium shadow-xs hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        {ADS_STRINGS.visitSponsor}
        <ExternalLink className="size-4" aria-hidden="true" />
        <span className="sr-only">{ADS_STRINGS.opensInNewTab}</span>
      </a>
    </section>
  );
}
