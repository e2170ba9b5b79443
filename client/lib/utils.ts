// Class-name helper for the ui/ primitives: clsx for conditions, tailwind-merge so a caller's class
// wins over a primitive's default instead of both landing in the DOM.
import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
