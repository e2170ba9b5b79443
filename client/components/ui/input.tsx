// Text input primitive; aria-invalid turns the border red so errors are visible without colour alone
// (the message text beside it carries the meaning).
import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';

export const fieldClassName =
  'w-full rounded-md border border-input bg-card/70 px-3 text-base text-foreground shadow-xs transition-[border-color,box-shadow] outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/25 md:text-sm';

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return <input type={type} className={cn(fieldClassName, 'h-10 py-2', className)} {...props} />;
}
