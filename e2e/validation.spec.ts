// The spec's validation messages, shown by the forms before anything is sent, and the server's
// answers the forms relay (taken username, wrong captcha).
import { expect, test } from '@playwright/test';
import { AUTH_MESSAGES } from '../shared/schemas/auth';
import { ACCOUNT_STRINGS } from '../client/features/account/strings';
import { AUTH_STRINGS } from '../client/features/auth/strings';
import { answerFor, openRegister, registerThroughUi, uniqueUser } from './helpers';

test('login form: required username and a 6-character password', async ({ page }) => {
  await page.goto('/auth');
  const form = page.getByRole('form', { name: AUTH_STRINGS.loginTitle });
  await form.getByRole('button', { name: AUTH_STRINGS.loginSubmit, exact: true }).click();
  await expect(form.getByText(AUTH_MESSAGES.usernameOrEmailRequired)).toBeVisible();
  await expect(form.getByText(AUTH_MESSAGES.passwordMin)).toBeVisible();
  await expect(form.getByLabel(AUTH_STRINGS.usernameOrEmailLabel)).toHaveAttribute('aria-invalid', 'true');
});

test('register form: every rule of the spec', async ({ page }) => {
  await openRegister(page);
  const form = page.getByRole('form', { name: AUTH_STRINGS.registerTitle });
  await form.getByLabel(AUTH_STRINGS.usernameLabel, { exact: true }).fill('ab');
  await form.getByLabel(AUTH_STRINGS.emailLabel, { exact: true }).fill('not-an-email');
  await form.getByLabel(AUTH_STRINGS.passwordLabel, { exact: true }).fill('123');
  await form.getByRole('button', { name: AUTH_STRINGS.registerSubmit }).click();
  await expect(form.getByText(AUTH_MESSAGES.usernameMin)).toBeVisible();
  await expect(form.getByText(AUTH_MESSAGES.emailInvalid)).toBeVisible();
  await expect(form.getByText(AUTH_MESSAGES.passwordMin)).toBeVisible();
  await expect(form.getByText(AUTH_MESSAGES.captchaRequired)).toBeVisible();
});

test('register form: a taken username is flagged while typing', async ({ browser }) => {
  const first = await browser.newPage();
  const taken = await registerThroughUi(first);
  await first.close();
  const page = await browser.newPage();
  await openRegister(page);
  await page.getByLabel(AUTH_STRINGS.usernameLabel, { exact: true }).fill(taken.username);
  await expect(page.getByText(AUTH_STRINGS.usernameTaken)).toBeVisible();
  await page.getByLabel(AUTH_STRINGS.usernameLabel, { exact: true }).fill(`${taken.username}zz`);
  await expect(page.getByText(AUTH_STRINGS.usernameAvailable)).toBeVisible();
  await page.close();
});

test('register form: a wrong captcha answer is refused and a new question appears', async ({ page }) => {
  const user = uniqueUser();
  await openRegister(page);
  const form = page.getByRole('form', { name: AUTH_STRINGS.registerTitle });
  await form.getByLabel(AUTH_STRINGS.usernameLabel, { exact: true }).fill(user.username);
  await form.getByLabel(AUTH_STRINGS.emailLabel, { exact: true }).fill(user.email);
  await form.getByLabel(AUTH_STRINGS.passwordLabel, { exact: true }).fill(user.password);
  const question = page.getByText(/What is \d+ [+\-×] \d+\?/);
  await expect(question).toBeVisible();
  const wrong = String(Number(answerFor((await question.textContent()) ?? '')) + 1);
  await page.getByLabel(AUTH_STRINGS.captchaAnswerLabel).fill(wrong);
  await form.getByRole('button', { name: AUTH_STRINGS.registerSubmit }).click();
  await expect(page.getByText(AUTH_STRINGS.registerFailedTitle, { exact: true })).toBeVisible();
  await expect(page.getByText(/captcha/i).first()).toBeVisible();
  await expect(page.getByLabel(AUTH_STRINGS.captchaAnswerLabel)).toHaveValue('');
  await expect(page.getByText(/What is \d+ [+\-×] \d+\?/)).toBeVisible();
});

test('change password: 8 characters and matching confirmation', async ({ page }) => {
  await registerThroughUi(page);
  await page.goto('/account');
  await page.getByRole('button', { name: ACCOUNT_STRINGS.passwordSubmit }).click();
  await expect(page.getByText(AUTH_MESSAGES.currentPasswordRequired)).toBeVisible();
  await page.getByLabel(ACCOUNT_STRINGS.currentPasswordLabel).fill('whatever');
  await page.getByLabel(ACCOUNT_STRINGS.newPasswordLabel, { exact: true }).fill('short');
  await page.getByRole('button', { name: ACCOUNT_STRINGS.passwordSubmit }).click();
  await expect(page.getByText(AUTH_MESSAGES.newPasswordMin)).toBeVisible();
  await page.getByLabel(ACCOUNT_STRINGS.newPasswordLabel, { exact: true }).fill('long enough now');
  await page.getByLabel(ACCOUNT_STRINGS.confirmPasswordLabel).fill('something else');
  await page.getByRole('button', { name: ACCOUNT_STRINGS.passwordSubmit }).click();
  await expect(page.getByText(AUTH_MESSAGES.passwordsDontMatch)).toBeVisible();
});
