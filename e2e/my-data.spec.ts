// 'Your Data' on the account page: a player downloads everything of theirs as JSON, then deletes
// the account (a wrong password is refused in place), lands home signed out, and can no longer log in.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { ACCOUNT_STRINGS } from '../client/features/account/strings';
import { APP_STRINGS } from '../client/app/strings';
import { beginStory, loginThroughUi, signUp } from './helpers';

test('download my data, then delete my account', async ({ page }) => {
  test.setTimeout(90_000);
  const user = await signUp(page);
  await beginStory(page, 'A beekeeper hears the hive sing a name');
  await page.goto('/account');

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: ACCOUNT_STRINGS.download }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^taleweaver-data-.+\.json$/);
  const data = JSON.parse(await readFile((await file.path())!, 'utf8'));
  expect(data.account.username).toBe(user.username);
  expect(data.stories).toHaveLength(1);
  expect(data.stories[0].story.premise).toContain('A beekeeper hears the hive sing a name');

  await page.getByRole('button', { name: ACCOUNT_STRINGS.deleteAccount }).click();
  const dialog = page.getByRole('alertdialog', { name: ACCOUNT_STRINGS.deleteTitle });
  await dialog.getByLabel(ACCOUNT_STRINGS.deletePasswordLabel, { exact: true }).fill('not-my-password');
  await dialog.getByRole('button', { name: ACCOUNT_STRINGS.deleteConfirm }).click();
  await expect(dialog.getByText('That password is not right. Your account was not deleted.')).toBeVisible();
  await dialog.getByLabel(ACCOUNT_STRINGS.deletePasswordLabel, { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: ACCOUNT_STRINGS.deleteConfirm }).click();
  await expect(page.getByText(ACCOUNT_STRINGS.deletedTitle, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByRole('link', { name: APP_STRINGS.loginRegister })).toBeVisible();

  await loginThroughUi(page, user.username, user.password);
  await expect(page.getByText('Invalid username or password').first()).toBeVisible();
});
