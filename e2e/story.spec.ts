// The story journeys with the builtin narrator: a guest's story starts by itself after
// registering, three streamed turns, a reload that lands on the same story, Enter and Shift+Enter,
// and text that looks like HTML staying text.
import { expect, test, type Page } from '@playwright/test';
import { HOME_STRINGS } from '../client/features/home/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { AUTH_STRINGS } from '../client/features/auth/strings';
import { beginStory, gotoHome, registerThroughUi, signUp, solveCaptcha, uniqueUser } from './helpers';

const narratorBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.narrator });
const playerBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.you });
const input = (page: Page) => page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);

/** Sends an action and checks the reply was seen growing on screen before it was done. */
async function playTurn(page: Page, action: string) {
  const before = await narratorBubbles(page).count();
  // Record every length the streaming bubble shows, whatever the polling rhythm of the test.
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { __streamLengths: number[] }).__streamLengths = seen;
    new MutationObserver(() => {
      const bubble = document.querySelector('[data-streaming]');
      if (bubble) seen.push(bubble.textContent?.length ?? 0);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await input(page).fill(action);
  await input(page).press('Enter');
  await expect(input(page)).toHaveValue('');
  await expect(playerBubbles(page).last()).toHaveText(action);
  await expect(narratorBubbles(page)).toHaveCount(before + 1, { timeout: 20_000 });
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  const lengths = await page.evaluate(() => (window as unknown as { __streamLengths: number[] }).__streamLengths);
  const distinct = new Set(lengths.filter((n) => n > 0));
  // It grew on screen: the page draws a streaming reply at most every 50 ms (delta-batcher.ts), and at
  // the journeys' 4 ms a word an 80-word reply is about six draws, fewer when a loaded machine
  // delivers words in bursts (a gate saw five). Three different partial lengths before the reply was
  // complete still tell streaming from a reply shown whole.
  expect(distinct.size).toBeGreaterThan(2);
  // The input is ready for the next action about 100 ms after the reply.
  await expect(input(page)).toBeFocused();
}

test("a guest's story starts by itself after registering, and plays three streamed turns", async ({ page }) => {
  test.setTimeout(90_000);
  await gotoHome(page);
  const scenario = 'A clockmaker in Prague hears the town clock count thirteen';
  await page.getByPlaceholder(HOME_STRINGS.scenarioPlaceholder).fill(scenario);
  await page.getByPlaceholder(HOME_STRINGS.scenarioPlaceholder).press('Enter');
  await expect(page).toHaveURL(/\/auth\?redirect=%2F$/);

  const user = uniqueUser();
  await page.getByRole('button', { name: AUTH_STRINGS.toRegister }).click();
  const form = page.getByRole('form', { name: AUTH_STRINGS.registerTitle });
  await form.getByLabel(AUTH_STRINGS.usernameLabel, { exact: true }).fill(user.username);
  await form.getByLabel(AUTH_STRINGS.emailLabel, { exact: true }).fill(user.email);
  await form.getByLabel(AUTH_STRINGS.passwordLabel, { exact: true }).fill(user.password);
  await solveCaptcha(page);
  await form.getByRole('button', { name: AUTH_STRINGS.registerSubmit }).click();

  await expect(page.getByText(HOME_STRINGS.resumingTitle, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/story\/\d+$/, { timeout: 20_000 });
  await expect(playerBubbles(page).first()).toHaveText(scenario);
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  await expect(narratorBubbles(page)).toHaveCount(1);
  const storyUrl = page.url();
  expect(await page.evaluate(() => localStorage.getItem('taleweaver-pending-operation'))).toBeNull();

  await playTurn(page, 'I climb the tower stairs');
  await playTurn(page, 'I open the clock face');
  await playTurn(page, 'I whisper to the gears');

  // Exactly once: Home does not start it again, and a reload lands on the same story.
  await page.goto('/');
  await expect(page.getByRole('button', { name: HOME_STRINGS.begin })).toBeVisible();
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(/\/$/);
  await page.goto(storyUrl);
  await expect(playerBubbles(page)).toHaveCount(4);
  await expect(narratorBubbles(page)).toHaveCount(4);
  await page.reload();
  await expect(narratorBubbles(page)).toHaveCount(4);
  await expect(playerBubbles(page).last()).toHaveText('I whisper to the gears');
});

test('Current Story returns to the story; Shift+Enter adds a line; a blank action is not sent', async ({ page }) => {
  await signUp(page);
  await beginStory(page, 'A botanist finds a greenhouse that grows on the moon');
  const storyUrl = page.url();
  // The top bar hides while the page is scrolled down (the story opens at its end); back at the top it shows.
  await page.mouse.wheel(0, -2000);
  await page.getByRole('banner').getByRole('link', { name: 'Home' }).click();
  await page.getByRole('banner').getByRole('link', { name: 'Current Story' }).click();
  await expect(page).toHaveURL(storyUrl);

  await input(page).fill('   ');
  await expect(page.getByRole('button', { name: STORY_STRINGS.send })).toBeDisabled();
  await input(page).press('Enter');
  await expect(playerBubbles(page)).toHaveCount(1);

  await input(page).fill('First line');
  await input(page).press('Shift+Enter');
  await input(page).pressSequentially('second line');
  await expect(input(page)).toHaveValue('First line\nsecond line');
  await input(page).press('Control+Enter');
  await expect(input(page)).toHaveValue('First line\nsecond line\n');
  await input(page).press('Enter');
  await expect(playerBubbles(page).last()).toContainText('second line');
});

test('a typed draft survives a reload of the story page', async ({ page }) => {
  await signUp(page);
  await beginStory(page, 'A lighthouse keeper finds a door in the rock');
  await input(page).fill('I knock three times');
  await page.reload();
  await expect(input(page)).toHaveValue('I knock three times');
});

test('a story containing HTML shows it as text and runs nothing', async ({ page }) => {
  await registerThroughUi(page);
  const scenario = 'A note reads <img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script> in red ink';
  await beginStory(page, scenario);
  await expect(playerBubbles(page).first()).toHaveText(scenario);
  await input(page).fill('<b>bold?</b> <img src=y onerror="window.__xss=3">');
  await input(page).press('Enter');
  await expect(playerBubbles(page).last()).toHaveText('<b>bold?</b> <img src=y onerror="window.__xss=3">');
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(page.locator('main img[src="x"], main img[src="y"], main b')).toHaveCount(0);
});

test('random and preset stories start from Home', async ({ page }) => {
  await signUp(page);
  await gotoHome(page);
  await page.getByRole('switch', { name: HOME_STRINGS.genreMixSwitchLabel }).click();
  await page.getByRole('button', { name: HOME_STRINGS.createRandom }).click();
  await expect(page).toHaveURL(/\/story\/\d+$/, { timeout: 20_000 });
  await expect(playerBubbles(page).first()).toHaveText(
    'Create a story that combines 25% fantasy, 25% scifi, 25% mystery, 25% horror. Surprise me with an unexpected twist!',
  );
  await gotoHome(page);
  await page.getByRole('button', { name: /^Detective Mystery/ }).click();
  await expect(page).toHaveURL(/\/story\/\d+$/, { timeout: 20_000 });
  await expect(playerBubbles(page).first()).toContainText('San Francisco');
});
