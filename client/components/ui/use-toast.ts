// The toast store (shadcn's use-toast pattern): a tiny module-level reducer so any code, even a
// query-cache callback outside React, can raise a toast. Only TOAST_LIMIT (1) toast is kept: a new
// one replaces the previous. Dismissed toasts are removed after a long delay so
// Radix can finish its exit animation; the new toast has already taken the slot by then.
import { useSyncExternalStore, type ReactNode } from 'react';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '@shared/constants';

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** A per-toast lifetime; the Toaster's provider default (5000 ms) applies otherwise. */
  duration?: number;
  /** One button in the toast (an Undo); altText says how to do the same without it, for screen readers. */
  action?: ToastActionInput;
}

export interface ToastActionInput {
  label: string;
  altText: string;
  onClick: () => void;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

interface ToastState {
  toasts: ToastItem[];
}

let state: ToastState = { toasts: [] };
let counter = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setState(next: ToastState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  const timer = setTimeout(() => {
    removalTimers.delete(id);
    setState({ toasts: state.toasts.filter((toastItem) => toastItem.id !== id) });
  }, TOAST_REMOVE_DELAY_MS);
  removalTimers.set(id, timer);
}

export function dismissToast(id?: string): void {
  state.toasts.forEach((toastItem) => {
    if (id === undefined || toastItem.id === id) scheduleRemoval(toastItem.id);
  });
  setState({
    toasts: state.toasts.map((toastItem) =>
      id === undefined || toastItem.id === id ? { ...toastItem, open: false } : toastItem,
    ),
  });
}

export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const item: ToastItem = { ...input, id, open: true };
  // Newest first, then cut to the limit: the previous toast leaves the list, so it leaves the screen.
  const kept = [item, ...state.toasts].slice(0, TOAST_LIMIT);
  state.toasts.forEach((old) => {
    if (!kept.includes(old)) {
      const timer = removalTimers.get(old.id);
      if (timer) clearTimeout(timer);
      removalTimers.delete(old.id);
    }
  });
  setState({ toasts: kept });
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): ToastState {
  return state;
}

export function useToastState(): ToastState {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/** Test helper: forget every toast and timer so tests do not leak into each other. */
export function resetToasts(): void {
  removalTimers.forEach((timer) => clearTimeout(timer));
  removalTimers.clear();
  setState({ toasts: [] });
}
