// Change Username and the account email form: their requests, toasts and the refreshed user.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildUser, jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { userQueryKey } from '@client/features/auth';
import { ChangeUsernameForm } from './change-username-form';
import { EmailForm } from './email-form';

describe('ChangeUsernameForm', () => {
  it('requires at least 3 characters', async () => {
    const fetchMock = mockFetch(() => jsonResponse(buildUser()));
    renderWithProviders(<ChangeUsernameForm />);
    await userEvent.type(screen.getByLabelText('New username'), 'ab');
    await userEvent.click(screen.getByRole('button', { name: 'Update Username' }));
    expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('renames, confirms and refreshes the session user', async () => {
    let user = buildUser({ username: 'ada' });
    const fetchMock = mockFetch(({ url, body }) => {
      if (url === '/api/settings/username') user = { ...user, username: (body as { newUsername: string }).newUsername };
      return jsonResponse(user);
    });
    const { queryClient } = renderWithProviders(<ChangeUsernameForm />);
    await userEvent.type(screen.getByLabelText('New username'), 'countess');
    await userEvent.click(screen.getByRole('button', { name: 'Update Username' }));

    expect(await screen.findByText('Username Updated')).toBeInTheDocument();
    expect(screen.getByText('Your username has been successfully updated')).toBeInTheDocument();
    expect(fetchMock.requests.find((request) => request.url === '/api/settings/username')?.body).toEqual({
      newUsername: 'countess',
    });
    await waitFor(() => expect(queryClient.getQueryData(userQueryKey)).toMatchObject({ username: 'countess' }));
    expect(screen.getByLabelText('New username')).toHaveValue('');
  });

  it("shows 'Username Update Failed' with the server's message", async () => {
    mockFetch(() => jsonResponse({ message: 'Username is already taken', code: 'CONFLICT' }, { status: 409 }));
    renderWithProviders(<ChangeUsernameForm />);
    await userEvent.type(screen.getByLabelText('New username'), 'grace');
    await userEvent.click(screen.getByRole('button', { name: 'Update Username' }));
    expect(await screen.findByText('Username Update Failed')).toBeInTheDocument();
    expect(screen.getByText('Username is already taken')).toBeInTheDocument();
  });
});

describe('EmailForm', () => {
  it('shows the current email and updates it', async () => {
    const fetchMock = mockFetch(({ body }) =>
      jsonResponse(buildUser({ email: (body as { email?: string } | null)?.email ?? 'ada@example.com' })),
    );
    renderWithProviders(<EmailForm currentEmail="ada@example.com" />);
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New email'), 'ada@lovelace.org');
    await userEvent.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText('Email Updated')).toBeInTheDocument();
    expect(screen.getByText('Your email has been successfully updated')).toBeInTheDocument();
    expect(fetchMock.requests.find((request) => request.url === '/api/update-email')?.body).toEqual({
      email: 'ada@lovelace.org',
    });
  });

  it("shows 'Email Update Failed' on an error", async () => {
    mockFetch(() => jsonResponse({ message: 'Email is already in use', code: 'CONFLICT' }, { status: 409 }));
    renderWithProviders(<EmailForm currentEmail={null} />);
    expect(screen.getByText('No email on file')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New email'), 'taken@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText('Email Update Failed')).toBeInTheDocument();
    expect(screen.getByText('Email is already in use')).toBeInTheDocument();
  });
});
