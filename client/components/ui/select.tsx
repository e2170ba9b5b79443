// Select primitive: a styled native <select>. Native on purpose: it is keyboard- and screen-reader-
// complete on every platform (including the mobile pickers), and costs no JavaScript.
import type { ComponentProps } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from '@client/lib/utils';
import { fieldClassName } from './input';

export function Select({ className, children, ...props }: ComponentProps<'select'>) {
  return (
    <div className="relative">
      <select className={cn(fieldClassName, 'h-10 appearance-none py-2 pr-9', className)} {...props}>
        {children}
      </select>
      <ChevronDown
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden="true"
      />
    </div>
  );
}
