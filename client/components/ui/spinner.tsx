// Loading indicator with a text alternative, so screen readers hear what is being waited for.
import { Loader2 } from 'lucide-react';
import { cn } from '@client/lib/utils';

export function Spinner({ label, className }: { label: string; className?: string }) {
  return (
    <span role="status" className={cn('inline-flex items-center gap-2 text-muted-foreground', className)}>
      <Loader2 className="size-5 animate-spin motion-reduce:animate-none" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
