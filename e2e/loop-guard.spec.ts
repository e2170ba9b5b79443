// The loop guard in the browser, against the fake OpenAI-compatible narrator of a story
// stuck in a loop: the reply that repeats the opening streams as usual, then the page says the
// narrator repeated itself and is rewriting, and the new reply takes its place, kept on reload.
import { expect, test, type Page } from '@playwright/test';
import { HOME_STRINGS } from '../client/features/home/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { gotoHome, signUp } from './helpers';

test.use({ baseURL: process.env.FAKE_LLM_APP_URL });

/** WALK_SCREENSHOTS=1 saves the rewrite under way and the reply that replaced it, for a reviewer. */
const SCREENSHOTS = process.env.WALK_SCREENSHOTS === '1';
const STUCK_OPENING = 'The tide rolls in under a low grey sky';

const narratorBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.narrator });
const input = (page: Page) => page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);

test('a reply that repeats the story is rewritten in place, and the page says so while it is', async ({ page }) => {
  await signUp(page);
  await gotoHome(page);
  await page
    .getByPlaceholder(HOME_STRINGS.scenarioPlaceholder)
    .fill('A harbour town where the tide keeps time STUCK_IN_A_LOOP');
  await page.getByRole('button', { name: HOME_STRINGS.begin }).click();
  await expect(page).toHaveURL(/\/story\/\d+$/, { timeout: 20_000 });
  await expect(narratorBubbles(page)).toHaveCount(1);
  await expect(page.locator('[data-streaming]')).toHaveCount(0);
  await expect(narratorBubbles(page).first()).toContainText(STUCK_OPENING);

  await input(page).fill('I walk down to the pier.');
  await input(page).press('Enter');
  const rewriting = page.getByRole('status').filter({ hasText: STORY_STRINGS.rewriting });
  await expect(rewriting).toBeVisible({ timeout: 20_000 });
  // The repeated words stay on screen, dimmed, until the new ones replace them.
  await expect(narratorBubbles(page).last()).toContainText(STUCK_OPENING);
  if (SCREENSHOTS) await page.screenshot({ path: '/tmp/loop-guard-rewriting.png' });

  await expect(rewriting).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('[data-streaming]')).toHaveCount(0);
  await expect(narratorBubbles(page)).toHaveCount(2);
  const replaced = (await narratorBubbles(page).last().innerText()).trim();
  expect(replaced).not.toContain(STUCK_OPENING);
  expect(replaced).toMatch(/What do you do next\?/);
  if (SCREENSHOTS) await page.screenshot({ path: '/tmp/loop-guard-replaced.png' });

  // The server kept the new reply, not the repeat.
  await page.reload();
  await expect(narratorBubbles(page)).toHaveCount(2);
  await expect(narratorBubbles(page).last()).not.toContainText(STUCK_OPENING);
  await expect(narratorBubbles(page).last()).toContainText(replaced.split('\n')[0].slice(0, 40));
});
