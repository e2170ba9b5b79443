// Toasts: one visible at a time (a new one replaces the previous), 5000 ms lifetime, F8 hotkey, an
// optional action button.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Toaster } from './toaster';
import { toast, useToastState } from './use-toast';

// jsdom has no pointer capture, which Radix Toast's swipe handling asks about on a click.
beforeAll(() => {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
});

describe('Toaster', () => {
  it("offers a toast's action button, which acts and closes the toast", async () => {
    const onClick = vi.fn();
    render(<Toaster />);
    act(() => {
      toast({ title: 'Erased from here.', action: { label: 'Undo', altText: 'Bring it back with Redo', onClick } });
    });
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Erased from here.')).not.toBeInTheDocument();
  });

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
