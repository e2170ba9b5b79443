// A story's narrator, picked in the story drawer: the app here offers two (the builtin narrator
// with two windows, e2e/support/e2e-server.mjs); the story starts on the default, the pick is
// described and saved at once, a turn is played on it and 'What the narrator saw' names it, and a
// reload shows it still chosen; and the narrator of new stories, chosen on the preferences page.
import { expect, test, type Page } from '@playwright/test';
import { STORY_CARDS_STRINGS as CARD_STRINGS } from '../client/features/story-cards/strings';
import { PREFERENCES_STRINGS } from '../client/features/preferences/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, openStoryExperience, signUp } from './helpers';

const picker = (page: Page) =>
  page
    .getByRole('dialog', { name: STORY_STRINGS.storyExperience })
    .getByRole('combobox', { name: STORY_STRINGS.narratorPick, exact: true });

test('a player picks a narrator for a story, plays a turn on it, and finds it still picked after a reload', async ({
  page,
}) => {
  await signUp(page);
  await beginStory(page, 'A lighthouse keeper hears a bell under the sea');
  await openStoryExperience(page);
  await expect(picker(page)).toHaveValue('demo');
  await expect(picker(page).locator('option')).toHaveText(['Demo narrator', 'Demo narrator, long memory']);
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/settings') && response.request().method() === 'PATCH',
  );
  await picker(page).selectOption('long-memory');
  expect((await saved).status()).toBe(200);
  await expect(page.getByText(STORY_STRINGS.narratorAbout('', 32768))).toBeVisible();

  await page.keyboard.press('Escape');
  const input = page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);
  await input.fill('I climb down to the water');
  await input.press('Enter');
  await expect(page.getByRole('article', { name: STORY_STRINGS.narrator })).toHaveCount(2, { timeout: 20_000 });
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  // 'What the narrator saw' on the new reply names the narrator that wrote it, the opening's the default.
  const replies = page.getByRole('article', { name: STORY_STRINGS.narrator });
  for (const [reply, label] of [
    [replies.last(), 'Demo narrator, long memory'],
    [replies.first(), 'Demo narrator'],
  ] as const) {
    await reply.getByRole('button', { name: CARD_STRINGS.contextAction }).click();
    const viewer = page.getByRole('dialog', { name: CARD_STRINGS.contextTitle });
    await expect(viewer.getByText(CARD_STRINGS.writtenBy(label), { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
  }

  await page.reload();
  await openStoryExperience(page);
  await expect(picker(page)).toHaveValue('long-memory');
});

test("a player's narrator for new stories, chosen on the preferences page, writes the next story from its opening", async ({
  page,
}) => {
  await signUp(page);
  await page.goto('/preferences');
  const choice = page.getByRole('combobox', { name: PREFERENCES_STRINGS.narratorLabel });
  await expect(choice).toHaveValue('demo');
  await expect(choice).toBeEnabled();
  await choice.selectOption('long-memory');
  await expect(page.getByText(PREFERENCES_STRINGS.saved).first()).toBeVisible();

  await beginStory(page, 'A glassblower breathes a storm into a bottle');
  await openStoryExperience(page);
  await expect(picker(page)).toHaveValue('long-memory');
  await page.keyboard.press('Escape');
  const opening = page.getByRole('article', { name: STORY_STRINGS.narrator }).first();
  await opening.getByRole('button', { name: CARD_STRINGS.contextAction }).click();
  const viewer = page.getByRole('dialog', { name: CARD_STRINGS.contextTitle });
  await expect(viewer.getByText(CARD_STRINGS.writtenBy('Demo narrator, long memory'), { exact: true })).toBeVisible();
});
