// The story library end to end: 'Your Stories' from the top navigation lists the player's stories
// newest played first, finds one by title, renames one in place, opens one, and deletes one after a
// confirmation (its bookmark goes with it); a story exported as Markdown and JSON, and the JSON
// imported back; visitors are offered sign-in.
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { APP_STRINGS } from '../client/app/strings';
import { BOOKMARKS_STRINGS } from '../client/features/bookmarks/strings';
import { LIBRARY_STRINGS } from '../client/features/library/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, signUp } from './helpers';

async function openLibrary(page: Page) {
  // The top bar slides away while a story scrolls down and comes back on the way up.
  await page.mouse.wheel(0, -5000);
  await page
    .getByRole('navigation', { name: APP_STRINGS.mainNavigation })
    .getByRole('link', { name: APP_STRINGS.yourStories })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: LIBRARY_STRINGS.pageTitle })).toBeVisible();
}

const listed = (page: Page) => page.getByRole('list', { name: LIBRARY_STRINGS.listLabel }).getByRole('listitem');

test('find, rename, open and delete stories in Your Stories', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page);
  await beginStory(page, 'A cartographer maps a valley that moves at night');
  const firstId = /\/story\/(\d+)/.exec(page.url())![1];
  await page.getByRole('button', { name: BOOKMARKS_STRINGS.bookmarkTooltip }).click();
  const save = page.getByRole('dialog', { name: BOOKMARKS_STRINGS.saveDialogTitle });
  await save.getByLabel(BOOKMARKS_STRINGS.titleLabel).fill('The moving valley');
  await save.getByRole('button', { name: BOOKMARKS_STRINGS.save }).click();
  await expect(page.getByText(BOOKMARKS_STRINGS.saveSucceeded, { exact: true })).toBeVisible();

  await page.goto('/');
  await beginStory(page, 'A lighthouse keeper finds a door in the rock');
  const secondId = /\/story\/(\d+)/.exec(page.url())![1];

  await openLibrary(page);
  await expect(listed(page)).toHaveCount(2);
  await expect(listed(page).first()).toContainText(LIBRARY_STRINGS.turns(0));
  await expect(listed(page).first().getByRole('link')).toHaveAttribute('href', `/story/${secondId}`);

  // Rename the newest one; a blank title is refused in place.
  await listed(page)
    .first()
    .getByRole('button', { name: /^Rename/ })
    .click();
  const title = listed(page).first().getByLabel(LIBRARY_STRINGS.titleLabel);
  await title.fill('   ');
  await listed(page).first().getByRole('button', { name: LIBRARY_STRINGS.save }).click();
  await expect(listed(page).first().getByText('Please give the story a title.')).toBeVisible();
  await title.fill('The Door in the Rock');
  await listed(page).first().getByRole('button', { name: LIBRARY_STRINGS.save }).click();
  await expect(page.getByText(LIBRARY_STRINGS.renamed, { exact: true })).toBeVisible();
  await expect(listed(page).first().getByRole('link', { name: 'The Door in the Rock' })).toBeVisible();

  // Search by title, then clear the search.
  const search = page.getByRole('searchbox', { name: LIBRARY_STRINGS.searchLabel });
  await search.fill('door in');
  await expect(listed(page)).toHaveCount(1);
  await search.fill('no such story');
  await expect(page.getByText(LIBRARY_STRINGS.noMatches('no such story'))).toBeVisible();
  await search.fill('');
  await expect(listed(page)).toHaveCount(2);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
    [],
  );

  // Open the older story from the library.
  await listed(page).nth(1).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/story/${firstId}$`));
  await expect(page.getByRole('article', { name: STORY_STRINGS.narrator })).toHaveCount(1);

  // Delete it: Cancel keeps it, Delete removes it and its bookmark.
  await openLibrary(page);
  const older = listed(page).nth(1);
  await older.getByRole('button', { name: /^Delete/ }).click();
  let confirm = page.getByRole('alertdialog', { name: LIBRARY_STRINGS.deleteTitle });
  await confirm.getByRole('button', { name: LIBRARY_STRINGS.cancel }).click();
  await expect(listed(page)).toHaveCount(2);
  await listed(page)
    .nth(1)
    .getByRole('button', { name: /^Delete/ })
    .click();
  confirm = page.getByRole('alertdialog', { name: LIBRARY_STRINGS.deleteTitle });
  await expect(confirm).toContainText('This action cannot be undone.');
  await confirm.getByRole('button', { name: LIBRARY_STRINGS.delete }).click();
  await expect(page.getByText(LIBRARY_STRINGS.deleted, { exact: true })).toBeVisible();
  await expect(listed(page)).toHaveCount(1);
  await expect(listed(page).first()).toContainText('The Door in the Rock');
  // It was the current story (opened last): 'Current Story' no longer leads to it.
  await page
    .getByRole('navigation', { name: APP_STRINGS.mainNavigation })
    .getByRole('link', { name: APP_STRINGS.currentStory })
    .click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/bookmarks');
  await expect(page.getByText(BOOKMARKS_STRINGS.emptyTitle)).toBeVisible();
});

test('visitors are offered sign-in on Your Stories', async ({ page }) => {
  await page.goto('/stories');
  // The sign-in dialog opens on arrival; closed, the page says what signing in gives.
  const dialog = page.getByRole('dialog', { name: 'Sign in or Register' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: LIBRARY_STRINGS.pageTitle })).toBeVisible();
  await expect(page.getByText(LIBRARY_STRINGS.loggedOutText)).toBeVisible();
  await expect(page.getByRole('button', { name: LIBRARY_STRINGS.signIn })).toBeVisible();
});

test('export a story as Markdown and JSON, then import the JSON back as a new story', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page);
  await beginStory(page, 'A lighthouse keeper finds a door in the rock');
  await page.getByPlaceholder(STORY_STRINGS.inputPlaceholder).fill('I knock on the door');
  await page.getByPlaceholder(STORY_STRINGS.inputPlaceholder).press('Enter');
  // Read the replies once the second one is whole: 'Try again' shows on the latest reply when it is
  // done (right after Enter nothing streams yet, so waiting for no streaming alone can read too soon).
  const narrator = page.getByRole('article', { name: STORY_STRINGS.narrator });
  await expect(narrator.nth(1).getByRole('button', { name: STORY_STRINGS.tryAgain })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('[data-streaming]')).toHaveCount(0);
  const replies = await narrator.allTextContents();
  await openLibrary(page);

  const card = listed(page).first();
  const title = (await card.getByRole('link').textContent())!.trim();
  await card.getByRole('button', { name: /^Export/ }).click();
  let download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: LIBRARY_STRINGS.exportMarkdown }).click();
  const markdown = await download;
  expect(markdown.suggestedFilename()).toMatch(/\.md$/);
  const text = await readFile((await markdown.path())!, 'utf8');
  expect(text.split('\n')[0]).toBe(`# ${title}`);
  expect(text).toContain('**You:** I knock on the door');

  await card.getByRole('button', { name: /^Export/ }).click();
  download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: LIBRARY_STRINGS.exportJson }).click();
  const json = await download;
  expect(json.suggestedFilename()).toMatch(/\.taleweaver\.json$/);
  const file = (await json.path())!;

  // A file that is not a story is refused with its reason, and nothing is added.
  await page
    .getByLabel(LIBRARY_STRINGS.importLabel)
    .setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": "world"}') });
  await expect(page.getByText(/^This file is not a story exported from Taleweaver, or it is damaged/)).toBeVisible();
  await expect(listed(page)).toHaveCount(1);

  await page.getByLabel(LIBRARY_STRINGS.importLabel).setInputFiles(file);
  await expect(page.getByText(LIBRARY_STRINGS.imported(title), { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/story\/\d+$/);
  await expect(page.getByRole('article', { name: STORY_STRINGS.narrator })).toHaveCount(2);
  expect(await page.getByRole('article', { name: STORY_STRINGS.narrator }).allTextContents()).toEqual(replies);
  await openLibrary(page);
  await expect(listed(page)).toHaveCount(2);
});
