// Bookmarks end to end: save progress from the story, find it on Home, open it (recovered and
// highlighted), edit and delete it on the Bookmarks page; the logged-out dialogs; bad bookmark links.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { BOOKMARKS_STRINGS } from '../client/features/bookmarks/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { AUTH_STRINGS } from '../client/features/auth/strings';
import { APP_STRINGS } from '../client/app/strings';
import { beginStory, registerThroughUi, signUp } from './helpers';

async function saveProgress(page: Page, title: string, description = '') {
  await page.getByRole('button', { name: BOOKMARKS_STRINGS.bookmarkTooltip }).click();
  const dialog = page.getByRole('dialog', { name: BOOKMARKS_STRINGS.saveDialogTitle });
  await dialog.getByLabel(BOOKMARKS_STRINGS.titleLabel).fill(title);
  if (description) await dialog.getByLabel(BOOKMARKS_STRINGS.descriptionOptional).fill(description);
  await dialog.getByRole('button', { name: BOOKMARKS_STRINGS.save }).click();
  await expect(page.getByText(BOOKMARKS_STRINGS.saveSucceeded, { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('bookmark a story, find it on Home, open it highlighted, edit and delete it', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page);
  await beginStory(page, 'A cartographer maps a valley that moves at night');
  const storyId = /\/story\/(\d+)/.exec(page.url())?.[1];
  const bookmarked = await page
    .getByRole('article', { name: STORY_STRINGS.narrator })
    .last()
    .getAttribute('data-message-id');

  // A blank title is refused in the dialog.
  await page.getByRole('button', { name: BOOKMARKS_STRINGS.bookmarkTooltip }).click();
  const dialog = page.getByRole('dialog', { name: BOOKMARKS_STRINGS.saveDialogTitle });
  await dialog.getByRole('button', { name: BOOKMARKS_STRINGS.save }).click();
  await expect(dialog.getByText('Please enter a title for your bookmark.')).toBeVisible();
  await dialog.getByRole('button', { name: BOOKMARKS_STRINGS.cancel }).click();
  await saveProgress(page, 'The moving valley', 'Right after the opening');

  // Continue the story, then come back to the bookmark from Home.
  await page.getByPlaceholder(STORY_STRINGS.inputPlaceholder).fill('I follow the river');
  await page.getByPlaceholder(STORY_STRINGS.inputPlaceholder).press('Enter');
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  await page.goto('/');
  const resume = page.getByRole('region', { name: BOOKMARKS_STRINGS.resumeTitle });
  const link = resume.getByRole('link', { name: /The moving valley/ });
  await expect(link).toBeVisible();
  await expect(link).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/story/${storyId}\\?messageId=${bookmarked}$`));
  const highlighted = page.locator(`[data-message-id="${bookmarked}"]`);
  await expect(highlighted).toHaveAttribute('data-highlighted', 'true');
  await expect(highlighted).toBeInViewport();
  await expect(highlighted).not.toHaveAttribute('data-highlighted', 'true', { timeout: 4000 });
  await expect(page.getByRole('article', { name: STORY_STRINGS.you })).toHaveCount(2);
  await expectNoSeriousViolations(page);

  // Manage it on the Bookmarks page.
  await page.goto('/');
  await page.getByRole('link', { name: BOOKMARKS_STRINGS.manageBookmarks }).click();
  await expect(page).toHaveURL(/\/bookmarks$/);
  await expect(page.getByRole('heading', { name: BOOKMARKS_STRINGS.pageTitle })).toBeVisible();
  await expect(page.getByText('Right after the opening')).toBeVisible();
  await expect(page.getByRole('link', { name: 'The moving valley' })).toHaveAttribute(
    'href',
    `/story/${storyId}?messageId=${bookmarked}`,
  );
  await expectNoSeriousViolations(page);

  await page.getByRole('button', { name: BOOKMARKS_STRINGS.editLabel('The moving valley') }).click();
  const form = page.getByRole('form', { name: BOOKMARKS_STRINGS.editLabel('The moving valley') });
  await form.getByLabel(BOOKMARKS_STRINGS.titleLabel).fill('   ');
  await form.getByRole('button', { name: BOOKMARKS_STRINGS.save }).click();
  await expect(form.getByText('Please enter a title for your bookmark.')).toBeVisible();
  await form.getByLabel(BOOKMARKS_STRINGS.titleLabel).fill('The valley, renamed');
  await form.getByLabel(BOOKMARKS_STRINGS.descriptionLabel).fill('');
  await form.getByRole('button', { name: BOOKMARKS_STRINGS.save }).click();
  await expect(page.getByText(BOOKMARKS_STRINGS.updated, { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'The valley, renamed' })).toBeVisible();
  await expect(page.getByText('Right after the opening')).toHaveCount(0);

  await page.getByRole('button', { name: BOOKMARKS_STRINGS.deleteLabel('The valley, renamed') }).click();
  const confirm = page.getByRole('alertdialog', { name: BOOKMARKS_STRINGS.deleteTitle });
  await expect(confirm).toContainText(
    'Are you sure you want to delete "The valley, renamed"? This action cannot be undone.',
  );
  await confirm.getByRole('button', { name: BOOKMARKS_STRINGS.cancel }).click();
  await expect(page.getByRole('link', { name: 'The valley, renamed' })).toBeVisible();
  await page.getByRole('button', { name: BOOKMARKS_STRINGS.deleteLabel('The valley, renamed') }).click();
  await confirm.getByRole('button', { name: BOOKMARKS_STRINGS.delete }).click();
  await expect(page.getByText(BOOKMARKS_STRINGS.deleted, { exact: true })).toBeVisible();
  await expect(page.getByText(BOOKMARKS_STRINGS.emptyTitle)).toBeVisible();
  await page.getByRole('link', { name: BOOKMARKS_STRINGS.goHome }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(BOOKMARKS_STRINGS.resumeEmpty)).toBeVisible();
  // The start screen with the genre mix open, logged in.
  await page.getByRole('button', { name: /Genre Mix/ }).click();
  await page.getByRole('switch').click();
  await expectNoSeriousViolations(page);
});

test('logged out, the Bookmarks page offers sign in and stays on /bookmarks', async ({ page }) => {
  const user = await registerThroughUi(page);
  await page.getByRole('banner').getByRole('button', { name: APP_STRINGS.logout }).click();
  // Logged out before /bookmarks is asked for: a navigation while the logout is in flight can cancel it.
  await expect(page.getByText(AUTH_STRINGS.logoutSuccessTitle, { exact: true })).toBeVisible();
  await page.goto('/bookmarks');
  const dialog = page.getByRole('dialog', { name: AUTH_STRINGS.dialogTitle });
  await dialog.getByLabel(AUTH_STRINGS.usernameOrEmailLabel).fill(user.username);
  await dialog.getByLabel(AUTH_STRINGS.passwordLabel, { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: AUTH_STRINGS.loginSubmit, exact: true }).click();
  await expect(page).toHaveURL(/\/bookmarks$/);
  await expect(page.getByText(BOOKMARKS_STRINGS.emptyTitle)).toBeVisible();
});

test('a session that ended asks to log in before saving, then reopens Save Progress', async ({ page, context }) => {
  const user = await signUp(page);
  await beginStory(page, 'A night train that stops at stations nobody remembers');
  await context.clearCookies();
  await page.getByRole('button', { name: BOOKMARKS_STRINGS.bookmarkTooltip }).click();
  const save = page.getByRole('dialog', { name: BOOKMARKS_STRINGS.saveDialogTitle });
  await save.getByLabel(BOOKMARKS_STRINGS.titleLabel).fill('Night train');
  await save.getByRole('button', { name: BOOKMARKS_STRINGS.save }).click();
  const auth = page.getByRole('dialog', { name: BOOKMARKS_STRINGS.authTitle });
  await expect(auth).toBeVisible();
  await expect(auth.getByText(BOOKMARKS_STRINGS.authText)).toBeVisible();
  await auth.getByLabel(AUTH_STRINGS.usernameOrEmailLabel).fill(user.username);
  await auth.getByLabel(AUTH_STRINGS.passwordLabel, { exact: true }).fill(user.password);
  await auth.getByRole('button', { name: AUTH_STRINGS.loginSubmit, exact: true }).click();
  await expect(save).toBeVisible();
  await expect(save.getByLabel(BOOKMARKS_STRINGS.titleLabel)).toHaveValue('Night train');
  await save.getByRole('button', { name: BOOKMARKS_STRINGS.save }).click();
  await expect(page.getByText(BOOKMARKS_STRINGS.saveSucceeded, { exact: true })).toBeVisible();
});

test('bad bookmark links: a non-numeric message id, and a message the story does not have', async ({ page }) => {
  await signUp(page);
  await beginStory(page, 'A beekeeper whose bees spell words in the air');
  const storyPath = new URL(page.url()).pathname;
  await page.goto(`${storyPath}?messageId=abc`);
  await expect(page.getByText(STORY_STRINGS.invalidBookmark, { exact: true })).toBeVisible();
  await expect(page.getByRole('article', { name: STORY_STRINGS.narrator })).toHaveCount(1);

  await page.goto(`${storyPath}?messageId=999999`);
  await expect(page.getByRole('heading', { name: STORY_STRINGS.recoveryErrorTitle })).toBeVisible();
  await expect(page.getByText('Message not found in this story').first()).toBeVisible();
  await expect(page.getByText('Message ID: 999999')).toBeVisible();
  await expect(page.getByRole('link', { name: STORY_STRINGS.returnToBookmarks })).toHaveAttribute('href', '/bookmarks');
  await expect(page.getByRole('link', { name: STORY_STRINGS.startNewStory })).toHaveAttribute('href', '/');
  await expectNoSeriousViolations(page);
});
