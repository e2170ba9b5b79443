// The player in control of a story end to end with the builtin narrator: swiping between
// a reply's versions after 'Try again' (kept across a reload), Undo and Redo of a turn, editing a
// reply and restoring its original from the Versions dialog, branching from an earlier reply into
// a new story (listed in Your Stories and in the original's Branches), and erasing from an action
// with the toast's Undo bringing it back, also after an undo and a new action (the erased action
// comes back, never the turn it replaced).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { APP_STRINGS } from '../client/app/strings';
import { LIBRARY_STRINGS } from '../client/features/library/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { STORY_VERSIONS_STRINGS as V } from '../client/features/story-versions/strings';
import { beginStory, signUp } from './helpers';

/** WALK_SCREENSHOTS=1 saves the menu and the restored turn of the last journey for a reviewer. */
const SCREENSHOTS = process.env.WALK_SCREENSHOTS === '1';

const narratorBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.narrator });
const playerBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.you });
const input = (page: Page) => page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);
const switcher = (page: Page) => page.getByRole('group', { name: V.switcherLabel });

/** A bubble's words only (not its buttons' labels). */
async function wordsOf(bubble: Locator): Promise<string> {
  return (await bubble.locator('p').allTextContents()).join('\n\n');
}

/** Sends an action and waits until its reply is whole ('Try again' shows on it). */
async function playTurn(page: Page, action: string) {
  const before = await narratorBubbles(page).count();
  await input(page).fill(action);
  await input(page).press('Enter');
  await expect(narratorBubbles(page)).toHaveCount(before + 1, { timeout: 20_000 });
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole('button', { name: STORY_STRINGS.tryAgain })).toBeVisible();
}

/** Opens the '⋯' menu of a message (the button beside its bubble) and answers the menu. */
async function openMessageMenu(page: Page, bubble: Locator): Promise<Locator> {
  await bubble.locator('xpath=..').getByRole('button', { name: V.messageActions }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: V.edit })).toBeEnabled();
  return menu;
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test("swipe between a reply's versions after 'Try again', and find the chosen one after a reload", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page);
  await beginStory(page, 'A clockmaker in Prague hears the town clock count thirteen');
  await playTurn(page, 'I climb the tower stairs');
  const first = await wordsOf(narratorBubbles(page).last());
  await expect(switcher(page)).toHaveCount(0);

  await page.getByRole('button', { name: STORY_STRINGS.tryAgain }).click();
  await expect(switcher(page)).toContainText('2 / 2', { timeout: 20_000 });
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  const second = await wordsOf(narratorBubbles(page).last());
  expect(second).not.toBe(first);
  await expect(switcher(page).getByRole('button', { name: V.nextVersion })).toBeDisabled();

  await switcher(page).getByRole('button', { name: V.previousVersion }).click();
  await expect(switcher(page)).toContainText('1 / 2');
  await expect.poll(() => wordsOf(narratorBubbles(page).last())).toBe(first);
  await expect(narratorBubbles(page)).toHaveCount(2);

  await page.reload();
  await expect(switcher(page)).toContainText('1 / 2');
  await expect.poll(() => wordsOf(narratorBubbles(page).last())).toBe(first);
  await switcher(page).getByRole('button', { name: V.nextVersion }).click();
  await expect(switcher(page)).toContainText('2 / 2');
  await expect.poll(() => wordsOf(narratorBubbles(page).last())).toBe(second);
});

test('Undo takes back the last turn and Redo brings it back', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page);
  await beginStory(page, 'A lighthouse keeper finds a door in the rock');
  const undo = page.getByRole('button', { name: V.undo });
  const redo = page.getByRole('button', { name: V.redo });
  // Only the opening: nothing to take back yet.
  await expect(undo).toBeDisabled();
  await expect(redo).toBeDisabled();

  await playTurn(page, 'I knock three times');
  await playTurn(page, 'I step through the door');
  const lastReply = await wordsOf(narratorBubbles(page).last());
  await expect(undo).toBeEnabled();

  await undo.click();
  await expect(playerBubbles(page)).toHaveCount(2);
  await expect(narratorBubbles(page)).toHaveCount(2);
  await expect(playerBubbles(page).last()).toHaveText('I knock three times');
  await expect(page.getByText('I step through the door')).toHaveCount(0);
  await expect(redo).toBeEnabled();

  await redo.click();
  await expect(playerBubbles(page)).toHaveCount(3);
  await expect(narratorBubbles(page)).toHaveCount(3);
  await expect(playerBubbles(page).last()).toHaveText('I step through the door');
  await expect.poll(() => wordsOf(narratorBubbles(page).last())).toBe(lastReply);
  await expect(redo).toBeDisabled();

  // Back to the opening, then a reload still offers Redo.
  await undo.click();
  await expect(playerBubbles(page)).toHaveCount(2);
  await undo.click();
  await expect(playerBubbles(page)).toHaveCount(1);
  await expect(undo).toBeDisabled();
  await page.reload();
  await expect(narratorBubbles(page)).toHaveCount(1);
  await expect(page.getByRole('button', { name: V.redo })).toBeEnabled();
});

test('edit a reply in place, keep it after a reload, and restore the original from Versions', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page);
  await beginStory(page, 'A botanist finds a greenhouse that grows on the moon');
  await playTurn(page, 'I water the silver fern');
  const original = await wordsOf(narratorBubbles(page).last());

  await (await openMessageMenu(page, narratorBubbles(page).last())).getByRole('menuitem', { name: V.edit }).click();
  const editor = page.getByRole('textbox', { name: V.editLabel });
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue(original);
  await editor.fill('The fern drinks, and every leaf turns toward the Earth.');
  // Saved with the editor's shortcut: the row's new height is re-measured by the list a frame or
  // two after the words change, and once that moved the Save button between the mouse's down and
  // up, so no click. The button itself is tested in story-versions-components.test.tsx.
  await editor.press('Control+Enter');
  await expect(editor).toHaveCount(0);
  await expect(narratorBubbles(page).last()).toContainText('The fern drinks, and every leaf turns toward the Earth.');
  await expect(switcher(page)).toContainText('2 / 2');

  await page.reload();
  await expect(narratorBubbles(page).last()).toContainText('The fern drinks, and every leaf turns toward the Earth.');

  await (await openMessageMenu(page, narratorBubbles(page).last())).getByRole('menuitem', { name: V.versions }).click();
  const dialog = page.getByRole('dialog', { name: V.versionsTitle });
  const versions = dialog.getByRole('listitem');
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0).getByRole('heading')).toHaveText(`${V.versionLabel(1)} · ${V.kinds.original}`);
  await expect(versions.nth(1).getByRole('heading')).toHaveText(`${V.versionLabel(2)} · ${V.kinds.edit}`);
  await expect(versions.nth(1)).toContainText(V.shown);
  await expect(versions.nth(0)).toContainText(original.split('\n\n')[0]);
  await expectNoSeriousViolations(page);

  await versions.nth(0).getByRole('button', { name: V.showThisVersion }).click();
  await expect(dialog).toHaveCount(0);
  await expect(switcher(page)).toContainText('1 / 2');
  await expect.poll(() => wordsOf(narratorBubbles(page).last())).toBe(original);
});

test('branch from an earlier reply into a new story, listed in Your Stories and in Branches', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page);
  await beginStory(page, 'A cartographer maps a valley that moves at night');
  const originUrl = page.url();
  await playTurn(page, 'I follow the river north');
  const branchPoint = await wordsOf(narratorBubbles(page).nth(1));
  await playTurn(page, 'I climb the ridge');

  await (
    await openMessageMenu(page, narratorBubbles(page).nth(1))
  )
    .getByRole('menuitem', { name: V.branchFromHere })
    .click();
  await expect(page.getByText(V.branchCreated, { exact: true })).toBeVisible();
  await expect(page).not.toHaveURL(originUrl);
  await expect(page).toHaveURL(/\/story\/\d+$/);
  const branchUrl = page.url();
  // The branch holds the story up to that reply.
  await expect(narratorBubbles(page)).toHaveCount(2);
  await expect(playerBubbles(page)).toHaveCount(2);
  await expect(playerBubbles(page).last()).toHaveText('I follow the river north');
  await expect.poll(() => wordsOf(narratorBubbles(page).last())).toBe(branchPoint);
  await expect(page.getByText('I climb the ridge')).toHaveCount(0);

  await page.getByRole('button', { name: V.branches }).click();
  const family = page.getByRole('dialog', { name: V.branches });
  await expect(family.getByText(V.branchedFrom)).toBeVisible();
  await expect(family.getByText(V.noBranches)).toBeVisible();
  await family.getByRole('link').first().click();
  await expect(page).toHaveURL(originUrl);
  await expect(narratorBubbles(page)).toHaveCount(3);

  await page.getByRole('button', { name: V.branches }).click();
  const branches = page.getByRole('dialog', { name: V.branches });
  const branchLink = branches.getByRole('link', { name: /\(branch\)$/ });
  await expect(branchLink).toHaveCount(1);
  await expect(branchLink).toHaveAttribute('href', new URL(branchUrl).pathname);
  await page.keyboard.press('Escape');

  await page.mouse.wheel(0, -5000);
  await page
    .getByRole('navigation', { name: APP_STRINGS.mainNavigation })
    .getByRole('link', { name: APP_STRINGS.yourStories })
    .click();
  const listed = page.getByRole('list', { name: LIBRARY_STRINGS.listLabel }).getByRole('listitem');
  await expect(listed).toHaveCount(2);
  await expect(listed.getByRole('link', { name: /\(branch\)$/ })).toHaveAttribute('href', new URL(branchUrl).pathname);
});

test("erase from an action, then the toast's Undo brings it back", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page);
  await beginStory(page, 'A note in a bottle washes up with tomorrow’s date');
  await playTurn(page, 'I read the note aloud');
  await playTurn(page, 'I walk to the harbour');

  // The opening cannot be erased.
  const openingMenu = await openMessageMenu(page, narratorBubbles(page).first());
  await expect(openingMenu.getByRole('menuitem', { name: V.eraseFromHere })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await (
    await openMessageMenu(page, playerBubbles(page).nth(1))
  )
    .getByRole('menuitem', { name: V.eraseFromHere })
    .click();
  const confirm = page.getByRole('alertdialog', { name: V.eraseTitle });
  await expect(confirm).toContainText(V.eraseText);
  await confirm.getByRole('button', { name: V.erase, exact: true }).click();
  await expect(confirm).toHaveCount(0);
  await expect(playerBubbles(page)).toHaveCount(1);
  await expect(narratorBubbles(page)).toHaveCount(1);
  await expect(page.getByText('I read the note aloud')).toHaveCount(0);

  const toast = page
    .getByRole('region', { name: /Notifications/ })
    .getByRole('listitem')
    .filter({ hasText: V.erased });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: V.undoErase }).click();
  await expect(playerBubbles(page)).toHaveCount(3);
  await expect(narratorBubbles(page)).toHaveCount(3);
  await expect(playerBubbles(page).nth(1)).toHaveText('I read the note aloud');
  await expect(playerBubbles(page).last()).toHaveText('I walk to the harbour');
});

test("after an undo and a new action, erasing it and the toast's Undo bring back that action, not the undone one", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page);
  await beginStory(page, 'A lighthouse keeper finds a door in the rock');
  await playTurn(page, 'I knock three times');
  await page.getByRole('button', { name: V.undo }).click();
  await expect(playerBubbles(page)).toHaveCount(1);
  await playTurn(page, 'I walk away from the door');

  // Opened as soon as the reply is whole: the input's focus a moment later leaves the menu open.
  const menu = await openMessageMenu(page, playerBubbles(page).last());
  await page.waitForTimeout(300);
  await expect(menu.getByRole('menuitem', { name: V.eraseFromHere })).toBeVisible();
  if (SCREENSHOTS) await page.screenshot({ path: '/tmp/versions-e2e-menu.png' });
  await menu.getByRole('menuitem', { name: V.eraseFromHere }).click();
  const confirm = page.getByRole('alertdialog', { name: V.eraseTitle });
  await confirm.getByRole('button', { name: V.erase, exact: true }).click();
  await expect(playerBubbles(page)).toHaveCount(1);

  const toast = page
    .getByRole('region', { name: /Notifications/ })
    .getByRole('listitem')
    .filter({ hasText: V.erased });
  await toast.getByRole('button', { name: V.undoErase }).click();
  await expect(playerBubbles(page)).toHaveCount(2);
  await expect(playerBubbles(page).last()).toHaveText('I walk away from the door');
  await expect(page.getByText('I knock three times')).toHaveCount(0);
  await expect(page.getByRole('button', { name: V.redo })).toBeDisabled();
  if (SCREENSHOTS) await page.screenshot({ path: '/tmp/versions-e2e-restored.png' });
});
