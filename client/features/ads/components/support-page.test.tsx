// The house ad's page: its title, the text on how ads behave, and the way back home.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@client/test/utils';
import { SupportPage } from './support-page';

describe('SupportPage', () => {
  it("shows 'Support Taleweaver', how ads appear and a Home button", () => {
    renderWithProviders(<SupportPage />, { route: '/support' });
    expect(screen.getByRole('heading', { level: 1, name: 'Support Taleweaver' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'How ads appear' })).toBeVisible();
    expect(screen.getByText(/never sends|never seen by the narrator/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(document.title).toContain('Support Taleweaver');
  });
});
