// The story's own writing settings in the browser: 'Narrator’s Writing' in the 'Story
// Experience' drawer sets a reply length and creativity for this story, kept across a reload and
// not shared with the player's other stories.
import { expect, test } from '@playwright/test';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, openStoryExperience, signUp } from './helpers';

test('reply length and creativity are set per story and kept', async ({ page }) => {
  await signUp(page);
  await beginStory(page, 'A glassblower in Murano is asked to make a lamp that never goes out');
  const storyUrl = page.url();

  let drawer = await openStoryExperience(page);
  const section = drawer.getByRole('region', { name: STORY_STRINGS.writingSection });
  await expect(section.getByRole('radio', { name: STORY_STRINGS.replyLengths.medium })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await section.getByRole('radio', { name: STORY_STRINGS.replyLengths.short }).click();
  const slider = section.getByRole('slider', { name: STORY_STRINGS.creativity });
  // The save of where the slider rests (on a busy machine it can rest, and be saved, on the way).
  const saved = page.waitForResponse(
    (res) =>
      res.url().endsWith('/settings') &&
      res.request().method() === 'PATCH' &&
      (JSON.parse(res.request().postData() ?? '{}') as { temperature?: number }).temperature === 1.2 &&
      res.ok(),
  );
  await slider.focus();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
  await expect(section.getByText('1.2', { exact: true })).toBeVisible();
  await saved;
  if (process.env.WALK_SCREENSHOTS === '1') await page.screenshot({ path: '/tmp/story-writing-drawer.png' });
  await page.keyboard.press('Escape');

  // The next reply is written with them; a reload shows them kept.
  await page.getByPlaceholder(STORY_STRINGS.inputPlaceholder).fill('I blow the first bulb of glass');
  await page.getByPlaceholder(STORY_STRINGS.inputPlaceholder).press('Enter');
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  await page.reload();
  drawer = await openStoryExperience(page);
  const again = drawer.getByRole('region', { name: STORY_STRINGS.writingSection });
  await expect(again.getByRole('radio', { name: STORY_STRINGS.replyLengths.short })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(again.getByRole('slider', { name: STORY_STRINGS.creativity })).toHaveValue('1.2');
  await page.keyboard.press('Escape');

  // Another story starts from the defaults.
  await beginStory(page, 'A courier crosses the salt flats with a sealed letter');
  expect(page.url()).not.toBe(storyUrl);
  drawer = await openStoryExperience(page);
  await expect(
    drawer
      .getByRole('region', { name: STORY_STRINGS.writingSection })
      .getByRole('radio', { name: STORY_STRINGS.replyLengths.medium }),
  ).toHaveAttribute('aria-checked', 'true');
});
