// Alert primitive: a bordered notice with a title and text. `role="alert"` for errors that appear
// after an action, so screen readers announce them; a plain region otherwise.
import type { ComponentProps } from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '@client/lib/utils';

const alertVariants = cva('grid gap-1 rounded-lg border px-4 py-3 text-sm', {
  variants: {
    variant: {
      default: 'bg-card/80 text-card-foreground',
      destructive: 'border-destructive/60 bg-destructive/10 text-destructive-text',
    },
  },
  defaultVariants: { variant: 'default' },
});

export function Alert({ className, variant, ...props }: ComponentProps<'div'> & VariantProps<typeof alertVariants>) {
  return (
    <div
      role={variant === 'destructive' ? 'alert' : 'status'}
      className={cn(alertVariants({ variant }), className)}
      {...props}
    />
  );
}

export function AlertTitle({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cn('font-semibold', className)} {...props} />;
}

export function AlertDescription({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('leading-relaxed', className)} {...props} />;
}
