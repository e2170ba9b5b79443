// A page that throws shows the error page inside the layout, and navigating elsewhere recovers.
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './route-error-boundary';

function Broken(): never {
  throw new Error('render failed');
}

describe('RouteErrorBoundary', () => {
  it('shows the error page and resets when the path changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { rerender } = render(
      <MemoryRouter>
        <RouteErrorBoundary resetKey="/broken">
          <Broken />
        </RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeInTheDocument();

    rerender(
      <MemoryRouter>
        <RouteErrorBoundary resetKey="/privacy">
          <p>Healthy page</p>
        </RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByText('Healthy page')).toBeInTheDocument();
    vi.restoreAllMocks();
  });
});
