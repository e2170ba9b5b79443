// Narrator failures in the browser, against the app wired to a fake OpenAI-compatible server that
// fails on demand: an HTTP 500 and a stream cut midway both show the error with Retry, and Retry
// answers the same action; 'Try again' adds a version of the reply; an action sent after a failed
// turn replaces the unanswered one; an action the server never received goes back into the input;
// a reload mid-reply waits for the reply instead of offering Retry; a failed narrator can be swapped
// for another before trying again.
import { expect, test, type Page } from '@playwright/test';
import { HOME_STRINGS } from '../client/features/home/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { STORY_VERSIONS_STRINGS } from '../client/features/story-versions/strings';
import { STORY_CARDS_STRINGS as CARD_STRINGS } from '../client/features/story-cards/strings';
import { gotoHome, openStoryExperience, signUp } from './helpers';

test.use({ baseURL: process.env.FAKE_LLM_APP_URL });

// The fake-LLM app offers two narrators (e2e/support/e2e-server.mjs), so a failure names Quill, its default.
const UNAVAILABLE = 'The narrator Quill is unavailable right now. Please try again.';
const narratorBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.narrator });
const playerBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.you });
const input = (page: Page) => page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);

async function startStory(page: Page) {
  await signUp(page);
  await gotoHome(page);
  await page
    .getByPlaceholder(HOME_STRINGS.scenarioPlaceholder)
    .fill('A harbour town where the bells ring on their own');
  await page.getByRole('button', { name: HOME_STRINGS.begin }).click();
  await expect(page).toHaveURL(/\/story\/\d+$/, { timeout: 20_000 });
  await expect(narratorBubbles(page)).toHaveCount(1);
  await expect(page.locator('[data-streaming]')).toHaveCount(0);
}

test('a provider error shows Retry, and Retry answers the same action', async ({ page }) => {
  await startStory(page);
  await input(page).fill('I ring the bell FAIL_ONCE');
  await input(page).press('Enter');
  const alert = page.getByRole('alert').filter({ hasText: UNAVAILABLE });
  await expect(alert).toBeVisible();
  // The action stays in the story; nothing to retype.
  await expect(playerBubbles(page).last()).toHaveText('I ring the bell FAIL_ONCE');
  await expect(narratorBubbles(page)).toHaveCount(1);
  await alert.getByRole('button', { name: STORY_STRINGS.retry }).click();
  await expect(narratorBubbles(page).last()).toContainText('Second time lucky', { timeout: 20_000 });
  await expect(alert).toHaveCount(0);
  await expect(playerBubbles(page)).toHaveCount(2);

  // The reload shows the server's story: one action, one reply each (a reply still being
  // written when the page reloads is picked up once it is saved).
  await page.reload();
  await expect(narratorBubbles(page)).toHaveCount(2);
  await expect(playerBubbles(page)).toHaveCount(2);
});

test('a reload while the narrator writes shows it thinking, then the saved reply', async ({ page }) => {
  await startStory(page);
  await input(page).fill('I wait by the window SLOWLY');
  await input(page).press('Enter');
  await expect(page.locator('[data-streaming]')).toHaveCount(1);
  await page.reload();
  // The action is there and the narrator is still at work: no error, no Retry to press.
  await expect(playerBubbles(page).last()).toHaveText('I wait by the window SLOWLY');
  await expect(page.getByRole('status').filter({ hasText: STORY_STRINGS.thinking })).toHaveCount(1);
  await expect(page.getByText(STORY_STRINGS.thinking, { exact: true }).last()).toBeVisible();
  await expect(page.getByRole('button', { name: STORY_STRINGS.retry })).toHaveCount(0);
  // The server finished the reply the first page was receiving; the reloaded page picks it up.
  // (The opening ends with the same question: the reply is the second bubble, waited for first.)
  await expect(narratorBubbles(page)).toHaveCount(2, { timeout: 20_000 });
  await expect(narratorBubbles(page).last()).toContainText('What do you do next?');
  await expect(page.getByText(STORY_STRINGS.thinking, { exact: true })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(input(page)).toBeEnabled();
});

test('a new story has its address before its opening is written, so a reload comes back to it', async ({ page }) => {
  await signUp(page);
  await gotoHome(page);
  await page.getByPlaceholder(HOME_STRINGS.scenarioPlaceholder).fill('A lighthouse that keeps its own hours SLOWLY');
  await page.getByRole('button', { name: HOME_STRINGS.begin }).click();
  await expect(page.locator('[data-streaming]')).toHaveCount(1, { timeout: 20_000 });
  await expect(page).toHaveURL(/\/story\/\d+$/);
  const address = page.url();
  await page.reload();
  await expect(page).toHaveURL(address);
  await expect(playerBubbles(page).first()).toHaveText('A lighthouse that keeps its own hours SLOWLY');
  await expect(narratorBubbles(page)).toHaveCount(1, { timeout: 20_000 });
  await expect(narratorBubbles(page)).toContainText('What do you do next?');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a stream cut midway drops the half reply, shows Retry, and Retry recovers', async ({ page }) => {
  await startStory(page);
  await input(page).fill('I step onto the old pier DROP_ONCE');
  await input(page).press('Enter');
  const alert = page.getByRole('alert').filter({ hasText: STORY_STRINGS.retry });
  await expect(alert).toBeVisible({ timeout: 20_000 });
  await expect(narratorBubbles(page)).toHaveCount(1);
  await alert.getByRole('button', { name: STORY_STRINGS.retry }).click();
  await expect(narratorBubbles(page).last()).toContainText('Second time lucky', { timeout: 20_000 });
});

test("'Try again' writes the latest reply anew, keeping the earlier one as a version", async ({ page }) => {
  await startStory(page);
  await input(page).fill('I wave at the ferryman');
  await input(page).press('Enter');
  // The reply is whole once it carries its server id: right after Enter nothing streams yet, so
  // "nothing streaming" alone once let the id be read off a reply still being written (none yet).
  await expect(narratorBubbles(page)).toHaveCount(2, { timeout: 20_000 });
  await expect(narratorBubbles(page).last()).toHaveAttribute('data-message-id', /^\d+$/, { timeout: 20_000 });
  await expect(page.locator('[data-streaming]')).toHaveCount(0);
  const replaced = await narratorBubbles(page).last().getAttribute('data-message-id');
  await narratorBubbles(page).last().getByRole('button', { name: STORY_STRINGS.tryAgain }).click();
  // The new reply is the same message's second version: its count shows once it is saved.
  const versions = page.getByRole('group', { name: STORY_VERSIONS_STRINGS.switcherLabel });
  await expect(versions).toContainText('2 / 2', { timeout: 20_000 });
  await expect(narratorBubbles(page).last()).toHaveAttribute('data-message-id', replaced ?? '');
  await expect(narratorBubbles(page)).toHaveCount(2);
  await page.reload();
  await expect(narratorBubbles(page)).toHaveCount(2);
  await expect(versions).toContainText('2 / 2');
});

test("an action sent after a failed turn takes the unanswered one's place: never two actions in a row", async ({
  page,
}) => {
  await startStory(page);
  // The fake narrator fails an action's first time only, across journeys: this one's words are its own.
  await input(page).fill('I count the boats FAIL_ONCE');
  await input(page).press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: UNAVAILABLE })).toBeVisible();
  await expect(playerBubbles(page)).toHaveCount(2);
  await input(page).fill("I knock on the harbour master's door");
  await input(page).press('Enter');
  await expect(playerBubbles(page).last()).toHaveText("I knock on the harbour master's door");
  await expect(playerBubbles(page)).toHaveCount(2);
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  await expect(narratorBubbles(page)).toHaveCount(2);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.reload();
  await expect(narratorBubbles(page)).toHaveCount(2);
  await expect(playerBubbles(page)).toHaveCount(2);
  await expect(page.getByText('I count the boats FAIL_ONCE')).toHaveCount(0);
  await expect(playerBubbles(page).last()).toHaveText("I knock on the harbour master's door");
});

test('an action the server never received goes back into the input', async ({ page }) => {
  await startStory(page);
  await page.route('**/api/story/*/continue', (route) => route.abort('connectionrefused'));
  await input(page).fill('I climb the lighthouse');
  await input(page).press('Enter');
  await expect(page.getByText(/^Failed to fetch/).first()).toBeVisible();
  await expect(input(page)).toHaveValue('I climb the lighthouse');
  await expect(playerBubbles(page)).toHaveCount(1);
  await page.unroute('**/api/story/*/continue');
  await input(page).press('Enter');
  await expect(playerBubbles(page).last()).toHaveText('I climb the lighthouse');
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  await expect(narratorBubbles(page)).toHaveCount(2);
});

test('a failed turn still offers Retry after a reload', async ({ page }) => {
  await startStory(page);
  await input(page).fill('I read the harbour log FAIL_ONCE');
  await input(page).press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: UNAVAILABLE })).toBeVisible();
  await page.reload();
  const alert = page.getByRole('alert').filter({ hasText: STORY_STRINGS.unanswered });
  await expect(alert).toBeVisible();
  await expect(playerBubbles(page).last()).toHaveText('I read the harbour log FAIL_ONCE');
  await alert.getByRole('button', { name: STORY_STRINGS.retry }).click();
  await expect(narratorBubbles(page).last()).toContainText('Second time lucky', { timeout: 20_000 });
  await expect(alert).toHaveCount(0);
});

test('a failed turn can be tried again with another narrator, which then writes the story', async ({ page }) => {
  await startStory(page);
  await input(page).fill('I hail the ferry FAIL_ONCE');
  await input(page).press('Enter');
  const alert = page.getByRole('alert').filter({ hasText: UNAVAILABLE });
  await expect(alert).toBeVisible();
  // Only the narrators that did not fail are offered.
  const other = alert.getByRole('combobox', { name: STORY_STRINGS.switchNarratorLabel });
  await expect(other.locator('option')).toHaveText(['Demo narrator']);
  await alert.getByRole('button', { name: STORY_STRINGS.switchAndRetry }).click();
  await expect(alert).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  await expect(narratorBubbles(page)).toHaveCount(2);
  // The builtin narrator wrote the answer (the fake one would have said 'Second time lucky'), and
  // 'What the narrator saw' names it.
  await expect(narratorBubbles(page).last()).not.toContainText('Second time lucky');
  await narratorBubbles(page).last().getByRole('button', { name: CARD_STRINGS.contextAction }).click();
  const viewer = page.getByRole('dialog', { name: CARD_STRINGS.contextTitle });
  await expect(viewer.getByText(CARD_STRINGS.writtenBy('Demo narrator'), { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await openStoryExperience(page);
  await expect(
    page
      .getByRole('dialog', { name: STORY_STRINGS.storyExperience })
      .getByRole('combobox', { name: STORY_STRINGS.narratorPick, exact: true }),
  ).toHaveValue('demo');
});
