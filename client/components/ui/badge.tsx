// Badge primitive: a small pill that labels something (a role, a state) next to its name.
import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';

export function Badge({ className, ...props }: ComponentProps<'span'>) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border border-primary/40 bg-primary/10 px-2 py-0.5 text-xs font-medium text-primary',
        className,
      )}
      {...props}
    />
  );
}
