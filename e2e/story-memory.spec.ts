// The story memory panel end to end: 'Story Memory' on the story page shows the pinned premise, the
// (still empty) memory and the author's note; notes too long are refused in place; a saved note and
// an edited premise are there when the panel opens again after another turn, and 'What the narrator
// saw' lists the author's note the narrator was sent with its tokens.
import { expect, test } from '@playwright/test';
import { STORY_CARDS_STRINGS } from '../client/features/story-cards/strings';
import { STORY_MEMORY_STRINGS } from '../client/features/story-memory/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, signUp } from './helpers';

test('read and edit the story memory, and find it kept after a turn', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page);
  await beginStory(page, 'A cartographer maps a valley that moves at night');

  await page.getByRole('button', { name: STORY_MEMORY_STRINGS.tooltip }).click();
  const panel = page.getByRole('dialog', { name: STORY_MEMORY_STRINGS.title });
  const premise = panel.getByLabel(STORY_MEMORY_STRINGS.premiseLabel);
  await expect(premise).toHaveValue(/A cartographer maps a valley that moves at night/);
  await expect(panel.getByText(STORY_MEMORY_STRINGS.summaryEmpty)).toBeVisible();

  const notes = panel.getByLabel(STORY_MEMORY_STRINGS.notesLabel);
  await expect(panel.getByText(STORY_MEMORY_STRINGS.notesHint)).toBeVisible();
  await notes.fill('Keep the tone eerie; Ysolde never lies.');
  await expect(panel.getByText(STORY_MEMORY_STRINGS.notesCount(39))).toBeVisible();
  await premise.fill('   ');
  await panel.getByRole('button', { name: STORY_MEMORY_STRINGS.save }).click();
  await expect(panel.getByText('The premise cannot be empty.')).toBeVisible();
  await premise.fill('A cartographer maps a valley that moves only under a full moon');
  await panel.getByRole('button', { name: STORY_MEMORY_STRINGS.save }).click();
  await expect(page.getByText(STORY_MEMORY_STRINGS.saved, { exact: true })).toBeVisible();
  await expect(panel).toHaveCount(0);

  await page.getByPlaceholder(STORY_STRINGS.inputPlaceholder).fill('I follow the river');
  await page.getByPlaceholder(STORY_STRINGS.inputPlaceholder).press('Enter');
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole('article', { name: STORY_STRINGS.narrator })).toHaveCount(2);

  await page.reload();
  await page.getByRole('button', { name: STORY_MEMORY_STRINGS.tooltip }).click();
  await expect(panel.getByLabel(STORY_MEMORY_STRINGS.notesLabel)).toHaveValue(
    'Keep the tone eerie; Ysolde never lies.',
  );
  await expect(panel.getByLabel(STORY_MEMORY_STRINGS.premiseLabel)).toHaveValue(
    'A cartographer maps a valley that moves only under a full moon',
  );
  await panel.getByRole('button', { name: STORY_MEMORY_STRINGS.cancel }).click();
  await expect(panel).toHaveCount(0);

  // The reply after the note was saved was written with it: the context viewer lists it.
  const reply = page.getByRole('article', { name: STORY_STRINGS.narrator }).last();
  await reply.getByRole('button', { name: STORY_CARDS_STRINGS.contextAction }).click();
  const viewer = page.getByRole('dialog', { name: STORY_CARDS_STRINGS.contextTitle });
  const row = viewer.getByRole('row').filter({ hasText: STORY_CARDS_STRINGS.kinds.authorsNote });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(/\d+Sent/);
  if (process.env.WALK_SCREENSHOTS === '1') await page.screenshot({ path: '/tmp/authors-note-context.png' });
});
