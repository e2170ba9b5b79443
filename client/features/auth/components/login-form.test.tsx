// The login form: shared validation messages, accessible error wiring, the remembered username,
// and the spec's success and failure toasts.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SESSION_STORAGE_KEYS } from '@client/lib/storage-keys';
import { buildUser, jsonResponse, mockFetch } from '@client/test/utils';
import { renderWithProviders } from '@client/test/utils';
import { userQueryKey } from '../api/get-user';
import { LoginForm } from './login-form';

/** Types the login and password as a person would, then presses Login. */
async function submitLogin(login: string, password: string) {
  await userEvent.type(screen.getByLabelText('Username or Email'), login);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
}

describe('LoginForm', () => {
  it('shows the shared validation messages and links them to the fields', async () => {
    const fetchMock = mockFetch(() => jsonResponse(buildUser()));
    renderWithProviders(<LoginForm />);
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));

    const username = screen.getByLabelText('Username or Email');
    const password = screen.getByLabelText('Password');
    expect(await screen.findByText('Username or Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(username).toHaveAccessibleDescription('Username or Email is required');
    expect(password).toHaveAccessibleDescription('Password must be at least 6 characters');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('prefills the username this tab last logged in with', () => {
    window.sessionStorage.setItem(SESSION_STORAGE_KEYS.lastLoginUsername, 'grace');
    renderWithProviders(<LoginForm />);
    expect(screen.getByLabelText('Username or Email')).toHaveValue('grace');
  });

  it('logs in, stores the session user and greets an admin as such', async () => {
    const admin = buildUser({ id: 1, username: 'root', isAdmin: true });
    const fetchMock = mockFetch(() => jsonResponse(admin));
    const onSuccess = vi.fn();
    const { queryClient } = renderWithProviders(<LoginForm onSuccess={onSuccess} />);

    await submitLogin('  root ', 'secret12');

    expect(await screen.findByText('Login Successful')).toBeInTheDocument();
    expect(screen.getByText('Welcome back (Admin)!')).toBeInTheDocument();
    expect(fetchMock.requests[0]).toMatchObject({
      url: '/api/login',
      method: 'POST',
      body: { username: 'root', password: 'secret12' },
    });
    expect(onSuccess).toHaveBeenCalledWith(admin);
    expect(queryClient.getQueryData(userQueryKey)).toEqual(admin);
    expect(window.sessionStorage.getItem(SESSION_STORAGE_KEYS.lastLoginUsername)).toBe('root');
  });

  it("greets a regular user with 'Welcome back'", async () => {
    mockFetch(() => jsonResponse(buildUser()));
    renderWithProviders(<LoginForm />);
    await submitLogin('ada', 'secret12');
    expect(await screen.findByText('Welcome back')).toBeInTheDocument();
  });

  it("shows 'Login Failed' with the server's message", async () => {
    mockFetch(() =>
      jsonResponse({ message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' }, { status: 401 }),
    );
    const onSuccess = vi.fn();
    renderWithProviders(<LoginForm onSuccess={onSuccess} />);
    await submitLogin('ada', 'wrong-password');

    expect(await screen.findByText('Login Failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid username or password')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled());
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it("words its toasts the auth dialog's way inside the dialog", async () => {
    mockFetch(() => jsonResponse(buildUser()));
    renderWithProviders(<LoginForm variant="dialog" />);
    await submitLogin('ada', 'secret12');
    expect(await screen.findByText('Login successful')).toBeInTheDocument();
    expect(screen.getByText('Welcome back!')).toBeInTheDocument();
  });

  it("shows 'Login failed' inside the dialog", async () => {
    mockFetch(() =>
      jsonResponse({ message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' }, { status: 401 }),
    );
    renderWithProviders(<LoginForm variant="dialog" />);
    await submitLogin('ada', 'wrong-password');
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid username or password')).toBeInTheDocument();
  });
});
