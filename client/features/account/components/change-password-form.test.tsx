// Change Password: the shared form schema's messages, and only {currentPassword, newPassword} sent.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { ChangePasswordForm } from './change-password-form';

describe('ChangePasswordForm', () => {
  it('shows the required and length messages', async () => {
    const fetchMock = mockFetch(() => jsonResponse({ success: true }));
    renderWithProviders(<ChangePasswordForm />);
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Current password is required')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription('Current password is required');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says "Passwords don\'t match" on the confirmation field', async () => {
    mockFetch(() => jsonResponse({ success: true }));
    renderWithProviders(<ChangePasswordForm />);
    await userEvent.type(screen.getByLabelText('Current password'), 'old-secret');
    await userEvent.type(screen.getByLabelText('New password'), 'new-secret-1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new-secret-2');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription("Passwords don't match");
  });

  it('sends the two passwords, confirms, and clears the form', async () => {
    const fetchMock = mockFetch(({ url }) =>
      url === '/api/user'
        ? jsonResponse({ message: 'x', code: 'x' }, { status: 401 })
        : jsonResponse({ success: true }),
    );
    renderWithProviders(<ChangePasswordForm />);
    await userEvent.type(screen.getByLabelText('Current password'), 'old-secret');
    await userEvent.type(screen.getByLabelText('New password'), 'new-secret-1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new-secret-1');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));

    expect(await screen.findByText('Password updated successfully')).toBeInTheDocument();
    const change = fetchMock.requests.find((request) => request.url === '/api/settings/password');
    expect(change).toMatchObject({
      method: 'POST',
      body: { currentPassword: 'old-secret', newPassword: 'new-secret-1' },
    });
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });

  it("shows the server's message", async () => {
    mockFetch(() =>
      jsonResponse({ message: 'Current password is incorrect', code: 'INVALID_CREDENTIALS' }, { status: 400 }),
    );
    renderWithProviders(<ChangePasswordForm />);
    await userEvent.type(screen.getByLabelText('Current password'), 'old-secret');
    await userEvent.type(screen.getByLabelText('New password'), 'new-secret-1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'new-secret-1');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
  });
});
