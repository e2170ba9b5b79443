// The app shell: routes, the 404 page, legal pages, theme persistence, admin gating, redirects
// after login, and an accessibility scan of the main screens.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_STRINGS } from '../client/features/admin/strings';
import { APP_STRINGS } from '../client/app/strings';
import { AUTH_STRINGS } from '../client/features/auth/strings';
import { loginThroughUi, registerThroughUi, signUp, uniqueUser } from './helpers';

test('an unknown path shows the 404 page with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText(APP_STRINGS.notFoundText)).toBeVisible();
  await page.getByRole('link', { name: APP_STRINGS.home }).last().click();
  await expect(page).toHaveURL(/\/$/);
});

for (const path of ['/privacy', '/terms']) {
  test(`${path} has its text and a Home button`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: APP_STRINGS.home }).click();
    await expect(page).toHaveURL(/\/$/);
  });
}

test('theme defaults to dark and the choice is kept in vite-ui-theme', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.getByRole('button', { name: APP_STRINGS.themeToggle }).first().click();
  await page.getByRole('menuitemradio', { name: APP_STRINGS.themeLight }).click();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('light');
  await page.reload();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
});

test('admin page: logged out, a player without rights, and an admin', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.getByText(ADMIN_STRINGS.loggedOutText)).toBeVisible();
  await signUp(page);
  await page.goto('/admin');
  await expect(page.getByText(ADMIN_STRINGS.accessDeniedTitle)).toBeVisible();
  await expect(page.getByText(ADMIN_STRINGS.accessDeniedText)).toBeVisible();
});

test('an admin landing on / is sent to /admin once', async ({ browser }) => {
  // e2e-server.mjs lists "e2eadmin" in ADMIN_USERNAMES and starts on an empty database.
  const page = await browser.newPage();
  await registerThroughUi(page, { ...uniqueUser(), username: 'e2eadmin' });
  const fresh = await browser.newPage({ storageState: await page.context().storageState() });
  await fresh.goto('/');
  await expect(fresh).toHaveURL(/\/admin$/);
  await expect(fresh.getByRole('heading', { name: ADMIN_STRINGS.pageTitle })).toBeVisible();
  // Once per page load: going Home inside the app now stays Home.
  await fresh.getByRole('banner').getByRole('link', { name: APP_STRINGS.home }).click();
  await expect(fresh).toHaveURL(/\/$/);
  await fresh.goto('/?redirect=%2Fterms');
  await expect(fresh).not.toHaveURL(/\/admin/);
});

test('login returns to the page in the redirect parameter, never to another site', async ({ page }) => {
  const user = await registerThroughUi(page);
  await page.getByRole('banner').getByRole('button', { name: APP_STRINGS.logout }).click();
  await expect(page.getByText(AUTH_STRINGS.logoutSuccessTitle, { exact: true })).toBeVisible();
  await page.goto('/auth?redirect=%2Fterms');
  const form = page.getByRole('form', { name: AUTH_STRINGS.loginTitle });
  await form.getByLabel(AUTH_STRINGS.usernameOrEmailLabel).fill(user.username);
  await form.getByLabel(AUTH_STRINGS.passwordLabel, { exact: true }).fill(user.password);
  await form.getByRole('button', { name: AUTH_STRINGS.loginSubmit, exact: true }).click();
  await expect(page).toHaveURL(/\/terms$/);

  await page.getByRole('banner').getByRole('button', { name: APP_STRINGS.logout }).click();
  await expect(page.getByText(AUTH_STRINGS.logoutSuccessTitle, { exact: true })).toBeVisible();
  await page.goto('/auth?redirect=%2F%2Fevil.example%2F');
  await form.getByLabel(AUTH_STRINGS.usernameOrEmailLabel).fill(user.username);
  await form.getByLabel(AUTH_STRINGS.passwordLabel, { exact: true }).fill(user.password);
  await form.getByRole('button', { name: AUTH_STRINGS.loginSubmit, exact: true }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test('after the session expires, the login form is prefilled with the last username (never the password)', async ({
  page,
  context,
}) => {
  const user = await registerThroughUi(page);
  await page.getByRole('banner').getByRole('button', { name: APP_STRINGS.logout }).click();
  // Logged out before /auth is asked for: while the logout is in flight, /auth still sees the
  // session and sends the page home (CI under load, twice).
  await expect(page.getByText(AUTH_STRINGS.logoutSuccessTitle, { exact: true })).toBeVisible();
  await loginThroughUi(page, user.username, user.password);
  await expect(page.getByText(AUTH_STRINGS.loginSuccessTitle, { exact: true })).toBeVisible();
  // The server forgets the session (expiry); the tab still remembers who logged in.
  await context.clearCookies();
  await page.goto('/auth');
  await expect(page.getByLabel(AUTH_STRINGS.usernameOrEmailLabel)).toHaveValue(user.username);
  await expect(page.getByLabel(AUTH_STRINGS.passwordLabel, { exact: true })).toHaveValue('');
});

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const theme of ['dark', 'light']) {
  test(`no serious accessibility violations on the main screens (${theme})`, async ({ page }) => {
    // Six axe scans and a registration: about 25 s alone, more while the other worker runs.
    test.setTimeout(120_000);
    await page.addInitScript((value) => localStorage.setItem('vite-ui-theme', value), theme);
    for (const path of ['/', '/auth', '/privacy', '/no-such-page']) {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await expectNoSeriousViolations(page);
    }
    await page.goto('/auth');
    await page
      .getByRole('button', { name: AUTH_STRINGS.toRegister })
      .or(page.getByRole('link', { name: AUTH_STRINGS.toRegister }))
      .click();
    await expect(page.getByText(/What is \d+/)).toBeVisible();
    await expectNoSeriousViolations(page);
    await signUp(page);
    await page.goto('/account');
    await expect(page.getByRole('main')).toBeVisible();
    await expectNoSeriousViolations(page);
  });
}
