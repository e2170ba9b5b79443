// What a turn cost, in the browser, against the fake OpenAI-compatible narrator, which
// reports its cached input as OpenAI does: the quiet 'i' on a reply opens its tokens, cached share
// and cost, kept on reload, and the account page shows this month's spend beside the allowance.
import { expect, test, type Page } from '@playwright/test';
import { ALLOWANCE_STRINGS } from '../client/features/allowance/strings';
import { STORY_CARDS_STRINGS } from '../client/features/story-cards/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, signUp } from './helpers';

test.use({ baseURL: process.env.FAKE_LLM_APP_URL });

/** WALK_SCREENSHOTS=1 saves the open panel and the account page, for a reviewer. */
const SCREENSHOTS = process.env.WALK_SCREENSHOTS === '1';

async function openCost(page: Page) {
  const info = page.getByRole('button', { name: STORY_STRINGS.replyCostLabel });
  await expect(info).toHaveCount(1);
  await info.click();
  const panel = page.getByRole('dialog', { name: STORY_STRINGS.replyCostLabel });
  await expect(panel).toBeVisible();
  return panel;
}

test('each reply shows what it cost, and the account page this month’s spend', async ({ page }) => {
  await signUp(page);
  await beginStory(page, 'A lamplighter in a city of fog finds a door that was not there yesterday');
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });

  let panel = await openCost(page);
  await expect(panel).toContainText(/Tokens sent: [\d,]+ \(\d+% cached\)/);
  await expect(panel).toContainText(/Tokens written: [\d,]+/);
  // A turn costs fractions of a cent at $4 a million: four decimals under a cent, two from one up.
  await expect(panel).toContainText(/Cost: \$0\.\d{2,4}/);
  const shown = await panel.innerText();
  if (SCREENSHOTS) await page.screenshot({ path: '/tmp/turn-cost-panel.png' });
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // Kept with the reply: a reload shows the same figures.
  await page.reload();
  panel = await openCost(page);
  expect(await panel.innerText()).toBe(shown);
  await page.keyboard.press('Escape');

  // 'What the narrator saw' says it too, below what was sent.
  await page
    .getByRole('article', { name: STORY_STRINGS.narrator })
    .last()
    .getByRole('button', { name: STORY_CARDS_STRINGS.contextAction })
    .click();
  const viewer = page.getByRole('dialog', { name: STORY_CARDS_STRINGS.contextTitle });
  const cost = viewer.getByRole('region', { name: STORY_CARDS_STRINGS.costTitle });
  await cost.scrollIntoViewIfNeeded();
  for (const line of shown.split('\n')) await expect(cost).toContainText(line);
  if (SCREENSHOTS) await page.screenshot({ path: '/tmp/turn-cost-context.png' });
  await page.keyboard.press('Escape');

  await page.goto('/account');
  const spent = page.getByText(ALLOWANCE_STRINGS.spentThisMonth, { exact: true });
  await expect(spent).toBeVisible();
  // Written as the 'i' writes a cost: four decimals under a cent.
  await expect(spent.locator('xpath=..')).toContainText(/\$0\.\d{2,4}/);
  if (SCREENSHOTS) await page.screenshot({ path: '/tmp/turn-cost-account.png', fullPage: true });
});
