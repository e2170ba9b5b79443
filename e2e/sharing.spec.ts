// Sharing and preferences in the browser: share a story from its page, read the link logged out
// (also as a Facebook in-app browser, and through a Messenger link), see the error card for an
// unknown id, check the served link-preview tags; stop sharing from the share dialog; preferences disabled for visitors, saved for players.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { PREFERENCES_STRINGS } from '../client/features/preferences/strings';
import { SHARING_STRINGS } from '../client/features/sharing/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, createShareLink, signUp } from './helpers';

const FACEBOOK_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/450.0.0.0;FBBV/1]';
const TITLE = 'The Valley <b>That Moves</b>';

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Shares the story on screen under TITLE and returns the link. */
async function shareFromStoryPage(page: Page): Promise<string> {
  await page.getByRole('button', { name: SHARING_STRINGS.shareTooltip }).click();
  const naming = page.getByRole('dialog', { name: SHARING_STRINGS.nameDialogTitle });
  const title = naming.getByLabel(SHARING_STRINGS.titleLabel);
  // The prefill arrives (the narrator's suggestion: this story has no bookmark yet).
  await expect(title).not.toHaveValue('', { timeout: 10_000 });
  expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toContain('user-scalable=no');
  await title.fill(TITLE);
  await naming.getByRole('button', { name: SHARING_STRINGS.createLink, exact: true }).click();
  const shareDialog = page.getByRole('dialog', { name: SHARING_STRINGS.shareDialogTitle });
  await expect(shareDialog).toBeVisible();
  const link = await shareDialog.getByLabel(SHARING_STRINGS.linkLabel).inputValue();
  expect(link).toMatch(/\/shared\/[A-Za-z0-9_-]{16}$/);
  await expect(shareDialog.getByRole('link', { name: SHARING_STRINGS.openShared })).toHaveAttribute('href', link);
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');
  await expect(shareDialog).toHaveCount(0);
  expect(await page.locator('meta[name="viewport"]').getAttribute('content')).not.toContain('user-scalable=no');
  return link;
}

test('share a story and read it logged out, in a Facebook in-app browser and through a Messenger link', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signUp(page);
  await beginStory(page, 'A cartographer maps a valley that moves at night');
  const opening =
    (await page.getByRole('article', { name: STORY_STRINGS.narrator }).first().innerText())
      .split('\n')
      .find((line) => line.trim().length > 40) ?? '';
  const link = await shareFromStoryPage(page);
  const shareId = link.split('/').pop() ?? '';

  // Sharing also bookmarked the story under the same title.
  await page.goto('/bookmarks');
  await expect(page.getByText(TITLE, { exact: true })).toBeVisible();

  const visitor = await browser.newContext();
  const reader = await visitor.newPage();
  await reader.goto(link);
  await expect(reader.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(reader.getByText(SHARING_STRINGS.sharedBadge, { exact: true })).toBeVisible();
  await expect(reader.getByRole('heading', { name: SHARING_STRINGS.narrative })).toBeVisible();
  await expect(reader.getByText(SHARING_STRINGS.you, { exact: true }).first()).toBeVisible();
  await expect(reader.getByText(opening.trim().slice(0, 40))).toBeVisible();
  await expect(reader.getByText(SHARING_STRINGS.readOnlyNotice)).toBeVisible();
  await expect(reader.getByRole('link', { name: SHARING_STRINGS.startYourStory })).toBeVisible();
  await expect(reader.getByText(SHARING_STRINGS.previewNote)).toHaveCount(0);
  await expectNoSeriousViolations(reader);

  // The page itself carries the link preview, escaped.
  const html = await (await reader.request.get(link)).text();
  expect(html).toContain('<meta property="og:title" content="The Valley &lt;b&gt;That Moves&lt;/b&gt;" />');
  expect(html).toContain('<meta name="twitter:card" content="summary" />');

  // A Messenger link brings the reader to the story.
  await reader.goto(`/fb-redirect.html?id=${shareId}`);
  await expect(reader).toHaveURL(new RegExp(`/shared/${shareId}$`));
  await expect(reader.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await reader.goto('/fb-viewer.html');
  await expect(reader.getByText(SHARING_STRINGS.missingShareId)).toBeVisible();
  await visitor.close();

  const facebook = await browser.newContext({ userAgent: FACEBOOK_UA, viewport: { width: 390, height: 800 } });
  const inApp = await facebook.newPage();
  await inApp.goto(link);
  await expect(inApp.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(inApp.getByText(SHARING_STRINGS.previewNote)).toBeVisible();
  await expect(inApp.getByRole('heading', { name: SHARING_STRINGS.gallery })).toHaveCount(0);
  await facebook.close();
});

test('the owner stops sharing from the share dialog, and the link shows the story was removed', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signUp(page);
  await beginStory(page, 'A choir that sings the tide in');
  const { link, shareDialog } = await createShareLink(page);

  const visitor = await browser.newContext();
  const reader = await visitor.newPage();
  await reader.goto(link);
  await expect(reader.getByText(SHARING_STRINGS.sharedBadge, { exact: true })).toBeVisible();

  await shareDialog.getByRole('button', { name: SHARING_STRINGS.stopSharing }).click();
  await expect(shareDialog.getByText(SHARING_STRINGS.stopConfirmText)).toBeVisible();
  await expectNoSeriousViolations(page);
  await shareDialog.getByRole('button', { name: SHARING_STRINGS.stopConfirm }).click();
  await expect(page.getByText(SHARING_STRINGS.stoppedText, { exact: true })).toBeVisible();
  await expect(shareDialog).toHaveCount(0);

  // A new visit (past any cached copy) finds the story removed by its creator.
  const later = await browser.newContext();
  const stranger = await later.newPage();
  await stranger.goto(link);
  await expect(stranger.getByRole('heading', { level: 1, name: SHARING_STRINGS.notAvailable })).toBeVisible();
  await expect(stranger.getByText(SHARING_STRINGS.notFound)).toBeVisible();
  await visitor.close();
  await later.close();
});

test("an unknown share id shows 'Story Not Available' with the Share ID", async ({ page }) => {
  await page.goto('/shared/AAAAAAAAAAAAAAAA');
  await expect(page.getByRole('heading', { level: 1, name: SHARING_STRINGS.notAvailable })).toBeVisible();
  await expect(page.getByText(SHARING_STRINGS.notFound)).toBeVisible();
  await expect(page.getByText(SHARING_STRINGS.shareId('AAAAAAAAAAAAAAAA'))).toBeVisible();
  await expect(page.getByRole('button', { name: SHARING_STRINGS.tryAgain })).toBeVisible();
  await page.getByRole('link', { name: SHARING_STRINGS.returnHome }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('preferences are disabled for visitors and saved for players', async ({ page }) => {
  await page.goto('/preferences');
  await expect(page.getByRole('link', { name: PREFERENCES_STRINGS.loginLink })).toBeVisible();
  for (const name of ['Content Rating', 'Narrative Style', 'Language Style'])
    await expect(page.getByRole('combobox', { name })).toBeDisabled();
  await expectNoSeriousViolations(page);

  await signUp(page);
  await page.goto('/preferences');
  const style = page.getByRole('combobox', { name: 'Narrative Style' });
  await expect(style).toBeEnabled();
  await expect(page.getByRole('link', { name: PREFERENCES_STRINGS.loginLink })).toHaveCount(0);
  await style.selectOption({ label: 'Dramatic' });
  await expect(page.getByText(PREFERENCES_STRINGS.saved, { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Narrative Style' })).toHaveValue('dramatic');
  await expect(page.getByRole('combobox', { name: 'Content Rating' })).toHaveValue('general');
});
