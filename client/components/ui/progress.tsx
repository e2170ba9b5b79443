// Progress primitive on Radix Progress: role="progressbar" with aria-valuemin, -max and -now, and a
// spoken value text (getValueLabel). The caller names it (aria-label or aria-labelledby). A value
// past max shows as full.
import type { ComponentProps } from 'react';
import { Progress as ProgressPrimitive } from 'radix-ui';
import { cn } from '@client/lib/utils';

export function Progress({
  className,
  indicatorClassName,
  value,
  max = 100,
  ...props
}: Omit<ComponentProps<typeof ProgressPrimitive.Root>, 'value' | 'max'> & {
  value: number;
  max?: number;
  indicatorClassName?: string;
}) {
  const shown = Math.min(Math.max(value, 0), max);
  const percent = (shown / max) * 100;
  return (
    <ProgressPrimitive.Root
      value={shown}
      max={max}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-muted', className)}
      {...props}
    >
      <ProgressPrimitive.Indicator
        className={cn('size-full bg-primary transition-transform motion-reduce:transition-none', indicatorClassName)}
        style={{ transform: `translateX(-${100 - percent}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
