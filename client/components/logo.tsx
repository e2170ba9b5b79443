// The Taleweaver logo image. If it fails to load it steps aside (no broken-image icon) and tells the
// caller, which decides whether that deserves a toast.
import { useState } from 'react';
import { PRODUCT_NAME } from '@shared/constants';
import { cn } from '@client/lib/utils';

export const LOGO_SRC = '/logo.svg';

export interface LogoProps {
  size?: number;
  className?: string;
  /** Decorative logos (next to the product name) get an empty alt so the name is not read twice. */
  decorative?: boolean;
  onLoadError?: () => void;
}

export function Logo({ size = 40, className, decorative = false, onLoadError }: LogoProps) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return (
    <img
      src={LOGO_SRC}
      width={size}
      height={size}
      alt={decorative ? '' : `${PRODUCT_NAME} logo`}
      className={cn('shrink-0 select-none', className)}
      onError={() => {
        setFailed(true);
        onLoadError?.();
      }}
    />
  );
}
