// Skeleton primitive: a pulsing placeholder the size of what is loading, hidden from screen readers
// (the surrounding region says what is loading instead).
import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      aria-hidden="true"
      className={cn('animate-pulse rounded-md bg-muted motion-reduce:animate-none', className)}
      {...props}
    />
  );
}
