// The registration form: CAPTCHA loading and failure, the availability hint, and a CAPTCHA reload
// with a cleared answer after a CAPTCHA-related failure.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '@client/lib/api-client';
import { buildUser, jsonResponse, mockFetch, renderWithProviders, type RecordedRequest } from '@client/test/utils';
import { RegisterForm, shouldReloadCaptcha } from './register-form';

function serverWith(overrides: { register?: () => Response; captcha?: () => Response } = {}) {
  let captchaCount = 0;
  return mockFetch((request: RecordedRequest) => {
    if (request.url === '/api/captcha') {
      captchaCount += 1;
      return overrides.captcha?.() ?? jsonResponse({ success: true, question: `What is ${captchaCount} + 2?` });
    }
    if (request.url.startsWith('/api/check-username')) return jsonResponse({ available: true });
    if (request.url === '/api/register')
      return overrides.register?.() ?? jsonResponse(buildUser({ username: 'newbie' }), { status: 201 });
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
}

async function fillForm(answer = '3') {
  await userEvent.type(screen.getByLabelText('Username'), 'newbie');
  await userEvent.type(screen.getByLabelText('Email'), 'newbie@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'secret12');
  await userEvent.type(screen.getByLabelText('Your answer'), answer);
}

describe('RegisterForm', () => {
  it('shows the CAPTCHA question, the availability hint, and registers', async () => {
    const fetchMock = serverWith();
    renderWithProviders(<RegisterForm />);
    expect(await screen.findByText('What is 1 + 2?')).toBeInTheDocument();
    expect(screen.getByLabelText('Your answer')).toHaveAccessibleDescription('What is 1 + 2?');

    await fillForm();
    expect(await screen.findByText('Username is available', {}, { timeout: 2000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Registration Successful')).toBeInTheDocument();
    expect(screen.getByText('Your account has been created. Welcome to Taleweaver, newbie!')).toBeInTheDocument();
    const register = fetchMock.requests.find((request) => request.url === '/api/register');
    expect(register?.body).toEqual({
      username: 'newbie',
      email: 'newbie@example.com',
      password: 'secret12',
      captchaAnswer: '3',
    });
  });

  it('shows the shared validation messages', async () => {
    serverWith();
    renderWithProviders(<RegisterForm />);
    await userEvent.type(screen.getByLabelText('Username'), 'ab');
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Please solve the CAPTCHA')).toBeInTheDocument();
  });

  it('reloads the CAPTCHA and clears the answer when the server rejects it', async () => {
    const fetchMock = serverWith({
      register: () => jsonResponse({ message: 'Incorrect CAPTCHA answer', code: 'CAPTCHA_FAILED' }, { status: 400 }),
    });
    renderWithProviders(<RegisterForm />);
    await screen.findByText('What is 1 + 2?');
    await fillForm('4');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Registration Failed')).toBeInTheDocument();
    expect(screen.getByText('Incorrect CAPTCHA answer')).toBeInTheDocument();
    expect(await screen.findByText('What is 2 + 2?')).toBeInTheDocument();
    expect(screen.getByLabelText('Your answer')).toHaveValue('');
    expect(fetchMock.requests.filter((request) => request.url === '/api/captcha')).toHaveLength(2);
  });

  it('keeps the CAPTCHA when the failure is about something else', async () => {
    const fetchMock = serverWith({
      register: () => jsonResponse({ message: 'Username is already taken', code: 'CONFLICT' }, { status: 409 }),
    });
    renderWithProviders(<RegisterForm />);
    await screen.findByText('What is 1 + 2?');
    await fillForm();
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Registration Failed')).toBeInTheDocument();
    expect(screen.getByLabelText('Your answer')).toHaveValue('3');
    expect(fetchMock.requests.filter((request) => request.url === '/api/captcha')).toHaveLength(1);
  });

  it("says 'Could not load CAPTCHA' and toasts 'CAPTCHA Error' when the question cannot be loaded", async () => {
    serverWith({ captcha: () => jsonResponse({ message: 'Internal error', code: 'INTERNAL_ERROR' }, { status: 500 }) });
    renderWithProviders(<RegisterForm />);
    expect(await screen.findByText('Could not load CAPTCHA')).toBeInTheDocument();
    expect(screen.getByText('CAPTCHA Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to load CAPTCHA. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Load a new CAPTCHA question' })).toBeEnabled());
  });

  it('decides when a failure calls for a new CAPTCHA', () => {
    expect(shouldReloadCaptcha(new TypeError('Failed to fetch'))).toBe(true);
    expect(
      shouldReloadCaptcha(new ApiRequestError('Failed to fetch: offline', { status: 0, code: 'NETWORK_ERROR' })),
    ).toBe(true);
    expect(shouldReloadCaptcha(new ApiRequestError('captcha expired', { status: 400, code: 'VALIDATION_ERROR' }))).toBe(
      true,
    );
    expect(shouldReloadCaptcha(new ApiRequestError('Wrong answer', { status: 400, code: 'CAPTCHA_FAILED' }))).toBe(
      true,
    );
    expect(
      shouldReloadCaptcha(new ApiRequestError('Email already registered', { status: 409, code: 'CONFLICT' })),
    ).toBe(false);
  });
});
