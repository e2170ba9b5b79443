// Table primitives (shadcn style) for figures: a horizontally scrollable frame that stays keyboard
// reachable, and cells whose numbers line up (tabular digits, right-aligned when numeric).
import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';

/**
 * Wide tables scroll sideways on phones. The frame is focusable and named so keyboard users can
 * scroll it too (axe's scrollable-region-focusable); `label` names it for screen readers.
 */
export function TableFrame({ className, label, ...props }: ComponentProps<'div'> & { label: string }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={cn('w-full overflow-x-auto rounded-lg border', className)}
      {...props}
    />
  );
}

export function Table({ className, ...props }: ComponentProps<'table'>) {
  return <table className={cn('w-full caption-bottom border-collapse text-sm', className)} {...props} />;
}

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
  return <caption className={cn('px-3 py-2 text-left text-xs text-muted-foreground', className)} {...props} />;
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('bg-muted/60', className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

export function TableFooter({ className, ...props }: ComponentProps<'tfoot'>) {
  return <tfoot className={cn('border-t bg-muted/60 font-medium', className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('border-b transition-colors', className)} {...props} />;
}

export function TableHead({ className, numeric = false, ...props }: ComponentProps<'th'> & { numeric?: boolean }) {
  return (
    <th
      className={cn(
        'h-10 px-3 text-left align-middle text-xs font-semibold whitespace-nowrap text-muted-foreground',
        numeric && 'text-right',
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, numeric = false, ...props }: ComponentProps<'td'> & { numeric?: boolean }) {
  return (
    <td
      className={cn('px-3 py-2 align-middle whitespace-nowrap', numeric && 'text-right tabular-nums', className)}
      {...props}
    />
  );
}
