// The account journey as a new player lives it: register with the captcha, log out, log in with
// the email, see their limits, change the password, and prove the old one no longer works. Also the
// token-purchase link: it ends on /tokens, which says plainly that nothing can be bought yet.
import { expect, test } from '@playwright/test';
import { ACCOUNT_STRINGS } from '../client/features/account/strings';
import { APP_STRINGS } from '../client/app/strings';
import { AUTH_STRINGS } from '../client/features/auth/strings';
import { ALLOWANCE_STRINGS } from '../client/features/allowance/strings';
import { loginThroughUi, registerThroughUi } from './helpers';

test('register, log out, log in with email, change password', async ({ page }) => {
  const user = await registerThroughUi(page);
  await expect(page).toHaveURL(/\/$/);
  const nav = page.getByRole('banner');
  await expect(nav.getByRole('button', { name: APP_STRINGS.logout })).toBeVisible();

  await nav.getByRole('button', { name: APP_STRINGS.logout }).click();
  await expect(page.getByText(AUTH_STRINGS.logoutSuccessTitle, { exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: APP_STRINGS.loginRegister })).toBeVisible();

  await loginThroughUi(page, user.email.toUpperCase(), user.password);
  await expect(page.getByText(AUTH_STRINGS.loginSuccessTitle, { exact: true })).toBeVisible();
  await expect(nav.getByRole('button', { name: APP_STRINGS.logout })).toBeVisible();

  await page.goto('/account');
  await expect(page.getByRole('heading', { name: ACCOUNT_STRINGS.pageTitle })).toBeVisible();
  // 'Your Limits': a new player's use of each quota against the server's default limits; the e2e
  // servers set no monthly token allowance, so there is no token line.
  await expect(page.getByRole('heading', { name: ACCOUNT_STRINGS.limitsSection })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: ACCOUNT_STRINGS.limitStories })).toHaveAttribute(
    'aria-valuetext',
    ACCOUNT_STRINGS.limitOf('0', '1,000'),
  );
  await expect(page.getByRole('progressbar', { name: ACCOUNT_STRINGS.limitShares })).toHaveAttribute(
    'aria-valuetext',
    ACCOUNT_STRINGS.limitOf('0', '200'),
  );
  await expect(page.getByRole('progressbar', { name: ACCOUNT_STRINGS.limitStorage })).toHaveAttribute(
    'aria-valuetext',
    ACCOUNT_STRINGS.limitOf('0 MB', '500 MB'),
  );
  await expect(page.getByText(ACCOUNT_STRINGS.limitOf('0', '1,000'))).toBeVisible();
  await expect(page.getByRole('progressbar', { name: ACCOUNT_STRINGS.limitTokens })).toHaveCount(0);
  await page.getByLabel(ACCOUNT_STRINGS.currentPasswordLabel).fill(user.password);
  await page.getByLabel(ACCOUNT_STRINGS.newPasswordLabel, { exact: true }).fill('an even better secret');
  await page.getByLabel(ACCOUNT_STRINGS.confirmPasswordLabel).fill('an even better secret');
  await page.getByRole('button', { name: ACCOUNT_STRINGS.passwordSubmit }).click();
  await expect(page.getByText(ACCOUNT_STRINGS.passwordSuccessTitle, { exact: true })).toBeVisible();

  // Still signed in here (the session was rotated, not ended).
  await page.reload();
  await expect(page.getByRole('heading', { name: ACCOUNT_STRINGS.pageTitle })).toBeVisible();
  await expect(page.getByText(ACCOUNT_STRINGS.loggedOutText)).toHaveCount(0);

  await nav.getByRole('button', { name: APP_STRINGS.logout }).click();
  await expect(page.getByText(AUTH_STRINGS.logoutSuccessTitle, { exact: true })).toBeVisible();
  await loginThroughUi(page, user.username, user.password);
  await expect(page.getByText('Invalid username or password').first()).toBeVisible();
  await loginThroughUi(page, user.username, 'an even better secret');
  await expect(page.getByText(AUTH_STRINGS.loginSuccessTitle, { exact: true })).toBeVisible();
});

test('change username and see it taken for others', async ({ page }) => {
  const user = await registerThroughUi(page);
  await page.goto('/account');
  const newName = `${user.username}x`;
  await page.getByLabel(ACCOUNT_STRINGS.newUsernameLabel).fill(newName);
  await page.getByRole('button', { name: ACCOUNT_STRINGS.usernameSubmit }).click();
  await expect(page.getByText(ACCOUNT_STRINGS.usernameSuccessTitle, { exact: true })).toBeVisible();
  await expect(page.getByText(newName).first()).toBeVisible();

  await page.getByLabel(ACCOUNT_STRINGS.newUsernameLabel).fill('ab');
  await page.getByRole('button', { name: ACCOUNT_STRINGS.usernameSubmit }).click();
  await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
});

test('account settings ask a logged-out visitor to log in', async ({ page }) => {
  await page.goto('/account');
  await expect(page.getByText(ACCOUNT_STRINGS.loggedOutText)).toBeVisible();
});

test('a token-purchase link leads through registration to /tokens, which sells nothing', async ({ page }) => {
  const authPath = '/auth?redirect=%2Ftokens%3Fpackage%3Dstarter';
  await page.goto(authPath);
  await expect(page.getByText(AUTH_STRINGS.tokenPurchaseLogin)).toBeVisible();

  await registerThroughUi(page, undefined, authPath);
  await expect(page).toHaveURL(/\/tokens\?package=starter$/);
  await expect(page.getByRole('heading', { level: 1, name: ALLOWANCE_STRINGS.pageTitle })).toBeVisible();
  await expect(page.getByText(ALLOWANCE_STRINGS.purchasesUnavailableText)).toBeVisible();
  await expect(page.getByText(ALLOWANCE_STRINGS.chosenPackage('starter'))).toBeVisible();
  // The e2e servers set no USER_MONTHLY_TOKEN_LIMIT, so the allowance is unlimited.
  const allowance = page.getByRole('region', { name: ALLOWANCE_STRINGS.allowanceTitle });
  await expect(allowance.getByText(ALLOWANCE_STRINGS.unlimited, { exact: true })).toBeVisible();
  await expect(allowance.getByText(ALLOWANCE_STRINGS.tokens('0'), { exact: true })).toBeVisible();

  await page.getByRole('main').getByRole('link', { name: ALLOWANCE_STRINGS.accountSettings }).click();
  await expect(page.getByRole('heading', { name: ACCOUNT_STRINGS.pageTitle })).toBeVisible();
  await expect(page.getByRole('heading', { name: ALLOWANCE_STRINGS.allowanceTitle })).toBeVisible();
  await expect(page.getByText(ALLOWANCE_STRINGS.unlimited, { exact: true })).toBeVisible();
});
