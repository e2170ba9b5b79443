// Toasts: one visible at a time (a new one replaces the previous), 5000 ms lifetime, F8 hotkey.
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from './toaster';
import { toast, useToastState } from './use-toast';

describe('Toaster', () => {
  it('shows only the newest toast', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'First', description: 'first text' });
    });
    expect(screen.getByText('First')).toBeInTheDocument();

    act(() => {
      toast({ title: 'Second', description: 'second text', variant: 'destructive' });
    });
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(screen.getByText('second text')).toBeInTheDocument();
  });

  it('keeps the store at one toast', () => {
    let count = -1;
    function Counter() {
      count = useToastState().toasts.length;
      return null;
    }
    render(<Counter />);
    act(() => {
      toast({ title: 'A' });
      toast({ title: 'B' });
      toast({ title: 'C' });
    });
    expect(count).toBe(1);
  });

  it('offers the F8 hotkey on the notification region', () => {
    render(<Toaster />);
    expect(screen.getByRole('region', { name: /F8/ })).toBeInTheDocument();
  });

  it('closes a toast after 5000 ms', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: 'Short lived' });
    });
    act(() => vi.advanceTimersByTime(4900));
    expect(screen.getByText('Short lived')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Short lived')).not.toBeInTheDocument();
  });
});
