// The blocking 'Email Required' dialog: shown only to a logged-in user without an email, not
// dismissable, and gone once a valid email is saved and the refreshed user carries it.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  buildUser,
  jsonResponse,
  mockFetch,
  renderWithProviders,
  unauthenticated,
  waitUntilClickable,
} from '@client/test/utils';
import { EmailRequiredGate } from './email-required-gate';

describe('EmailRequiredGate', () => {
  it('blocks a user without an email until a valid one is saved', async () => {
    let user = buildUser({ email: null });
    const fetchMock = mockFetch(({ url, body }) => {
      if (url === '/api/user') return jsonResponse(user);
      if (url === '/api/update-email') {
        user = { ...user, email: (body as { email: string }).email };
        return jsonResponse(user);
      }
      return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
    });
    renderWithProviders(<EmailRequiredGate />);

    const dialog = await screen.findByRole('dialog', { name: 'Email Required' });
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(dialog).toBeInTheDocument();
    // The modal disables pointer events outside it; send the pointerdown Radix's dismiss logic listens for.
    fireEvent.pointerDown(document.body);
    expect(screen.getByRole('dialog', { name: 'Email Required' })).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Save Email' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(fetchMock.requests.some((request) => request.url === '/api/update-email')).toBe(false);

    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save Email' }));

    expect(await screen.findByText('Email updated')).toBeInTheDocument();
    expect(screen.getByText('Your email has been added to your account.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Email Required' })).not.toBeInTheDocument());
    expect(fetchMock.requests.find((request) => request.url === '/api/update-email')).toMatchObject({
      method: 'POST',
      body: { email: 'ada@example.com' },
    });
  });

  it('stays open and explains a failure', async () => {
    mockFetch(({ url }) =>
      url === '/api/user'
        ? jsonResponse(buildUser({ email: null }))
        : jsonResponse({ message: 'Email is already in use', code: 'CONFLICT' }, { status: 409 }),
    );
    renderWithProviders(<EmailRequiredGate />);
    await waitUntilClickable(await screen.findByRole('dialog', { name: 'Email Required' }));
    await userEvent.type(screen.getByLabelText('Email'), 'taken@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save Email' }));

    expect(await screen.findByText('Failed to update email')).toBeInTheDocument();
    expect(screen.getByText('Email is already in use')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Email Required' })).toBeInTheDocument();
  });

  it('does not appear for a user with an email or for a visitor', async () => {
    const withEmail = mockFetch(() => jsonResponse(buildUser()));
    const { unmount } = renderWithProviders(<EmailRequiredGate />);
    await waitFor(() => expect(withEmail).toHaveBeenCalled());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    unmount();

    const visitor = mockFetch(unauthenticated);
    renderWithProviders(<EmailRequiredGate />);
    await waitFor(() => expect(visitor).toHaveBeenCalled());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
