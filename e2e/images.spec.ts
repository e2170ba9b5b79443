// Scene images in the browser, as a player meets them: switch pictures on in the 'Story Experience'
// drawer, the next reply shows 'Generating image...' and then its picture (painted by the builtin
// painter through the real job queue), the picture zooms into 'Scene Visualization', the switch
// is remembered by the server, and a shared link shows the 'Story Gallery'.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { IMAGES_STRINGS } from '../client/features/images/strings';
import { SHARING_STRINGS } from '../client/features/sharing/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, createShareLink, signUp } from './helpers';

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('switch pictures on, a new reply gets its picture, zoom it, share it and see the gallery', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUp(page);
  await beginStory(page, 'A lighthouse keeper guards a stormy northern coast at night');
  const log = page.getByRole('log');
  // Pictures are off by default: the opening has none.
  await expect(log.locator('img')).toHaveCount(0);

  await page.getByRole('button', { name: STORY_STRINGS.storyExperience }).click();
  const drawer = page.getByRole('dialog', { name: STORY_STRINGS.storyExperience });
  const toggle = drawer.getByRole('switch', { name: IMAGES_STRINGS.generateToggle });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(drawer.getByText(IMAGES_STRINGS.visualStyleSection)).toBeVisible();
  await expect(drawer.getByLabel(IMAGES_STRINGS.artStyle)).not.toHaveValue('', { timeout: 10_000 });
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);

  await page
    .getByPlaceholder(STORY_STRINGS.inputPlaceholder)
    .fill('I climb to the lamp room and look out at the storm');
  await page.keyboard.press('Enter');
  // The reply's picture is painted behind: first the placeholder, then the picture itself.
  const picture = log.locator('[data-picture-state="ready"] img').last();
  await expect(picture).toBeVisible({ timeout: 30_000 });
  await expect(picture).toHaveAttribute('alt', /\w{3,}/);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  await picture.click();
  const zoom = page.getByRole('dialog', { name: IMAGES_STRINGS.sceneVisualization });
  await expect(zoom).toBeVisible();
  await expect(zoom.locator('img')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(zoom).toHaveCount(0);

  // The switch is the player's own setting, kept on the server: a reload still has it on.
  await page.reload();
  await expect(log.locator('[data-picture-state="ready"] img').last()).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: STORY_STRINGS.storyExperience }).click();
  await expect(page.getByRole('switch', { name: IMAGES_STRINGS.generateToggle })).toBeChecked();
  await page.keyboard.press('Escape');

  // Share: the shared page shows the pictures it was shared with.
  const { link } = await createShareLink(page, 'Storm Light');

  const visitor = await browser.newContext();
  const reader = await visitor.newPage();
  await reader.goto(link);
  await expect(reader.getByRole('heading', { name: SHARING_STRINGS.gallery })).toBeVisible();
  await expect(reader.getByText(SHARING_STRINGS.sceneLabel(1), { exact: true })).toBeVisible();
  const narrativePicture = reader
    .getByRole('img', { name: new RegExp(`^${SHARING_STRINGS.sceneVisualization}`) })
    .first();
  await expect(narrativePicture).toBeVisible();
  await expect
    .poll(() => narrativePicture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  await expectNoSeriousViolations(reader);
  // The link preview names the first picture by its absolute address.
  const html = await (await reader.request.get(link)).text();
  expect(html).toMatch(
    /<meta property="og:image" content="http:\/\/127\.0\.0\.1:\d+\/api\/shared\/[\w-]+\/images\/[0-9a-f]{64}\.webp" \/>/,
  );
  await visitor.close();
});
