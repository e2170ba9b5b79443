// Story cards end to end with the builtin narrator, as a new player meets them: the empty
// 'Story Cards' panel shows the example card; a SillyTavern lorebook imported through the panel's
// file input brings its cards in and lists the entry left out with its reason; an action naming a
// card's key sends that card, as 'What the narrator saw' on the reply shows (Sent, the key in your
// action, the window's use); with the card switched off, the next reply lists it as Not sent because
// it is disabled. Both dialogs pass an axe scan. WALK_SCREENSHOTS=1 saves screenshots for a reviewer
// in /tmp/walk-cards/.
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { STORY_CARD_MESSAGES } from '../shared/schemas/story-cards';
import { STORY_CARDS_STRINGS as S } from '../client/features/story-cards/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, signUp } from './helpers';

const FIXTURE = fileURLToPath(
  new URL('../server/domains/story/cards/formats/fixtures/sillytavern-modern.json', import.meta.url),
);
/** The fixture's one enabled card with keys (Eldoria is always on, The Drowned Chapel disabled). */
const MARA = 'Captain Mara Voss';
/** Its first key, a regular expression; its secondary keys ask for both 'ship' and 'deck'. */
const MARA_KEY = '/\\bMara( Voss)?\\b/i';
const SCREENSHOTS = process.env.WALK_SCREENSHOTS === '1';

const narratorBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.narrator });
const input = (page: Page) => page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);

async function screenshot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `/tmp/walk-cards/${name}.png` });
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
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

async function openStoryCards(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: S.tooltip, exact: true }).click();
  const panel = page.getByRole('dialog', { name: S.title });
  await expect(panel).toBeVisible();
  return panel;
}

/** Opens 'What the narrator saw' on the latest reply; answers the dialog once its blocks are listed. */
async function openLatestContext(page: Page): Promise<Locator> {
  await narratorBubbles(page).last().getByRole('button', { name: S.contextAction }).click();
  const viewer = page.getByRole('dialog', { name: S.contextTitle });
  await expect(viewer.getByRole('region', { name: S.blocksLabel })).toBeVisible();
  return viewer;
}

/** The viewer's row for a block, by its title. */
const blockRow = (viewer: Locator, title: string) =>
  viewer.getByRole('row').filter({ has: viewer.page().getByRole('cell', { name: title, exact: true }) });

async function closeDialog(page: Page, dialog: Locator) {
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
}

test('import a lorebook, see a card sent when its key comes up, and not sent once switched off', async ({ page }) => {
  // The opening and two turns of the narrator, an import and three axe scans.
  test.setTimeout(150_000);
  await signUp(page);
  await beginStory(page, 'A smuggler waits at the harbour of a river kingdom for a ship that is late');

  // An empty story: the panel shows the example card, then takes the lorebook.
  let panel = await openStoryCards(page);
  const example = panel.getByRole('figure', { name: S.exampleLabel });
  await expect(example).toBeVisible();
  await expect(example.getByRole('heading', { name: S.exampleName })).toBeVisible();
  await expect(example.getByText(S.exampleBadge, { exact: true })).toBeVisible();

  await panel.getByLabel(S.importLabel).setInputFiles(FIXTURE);
  await expect(panel.getByText(S.imported(3), { exact: true })).toBeVisible();
  // Six entries left out (the empty one and five settings with no meaning here): folded away.
  await panel.getByText(S.showIgnored(6), { exact: true }).click();
  const ignored = panel.getByRole('list', { name: S.ignoredLabel });
  await expect(ignored.getByRole('listitem').first()).toHaveText(
    S.ignoredEntry('Tide Council (todo)', STORY_CARD_MESSAGES.contentRequired),
  );
  await expect(ignored.getByRole('listitem')).toHaveCount(6);

  const cards = panel.getByRole('list', { name: S.listLabel });
  await expect(cards.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) })).toHaveCount(3);
  await expect(example).toHaveCount(0);
  const mara = cards.getByRole('listitem', { name: MARA });
  await expect(mara.getByRole('list', { name: S.keysLabel(MARA) })).toContainText('Mara( Voss)?');
  await expect(mara.getByRole('switch', { name: S.enabledSwitch(MARA) })).toBeChecked();
  await expect(cards.getByRole('listitem', { name: 'Eldoria' }).getByText(S.alwaysOnBadge)).toBeVisible();
  await expect(cards.getByRole('listitem', { name: 'The Drowned Chapel' }).getByText(S.disabledBadge)).toBeVisible();
  await mara.scrollIntoViewIfNeeded();
  await screenshot(page, '1-panel-imported');
  await expectNoSeriousViolations(page);
  await closeDialog(page, panel);

  // The key (and both secondary keys) in the action: the card goes to the narrator.
  await playTurn(page, 'I ask Captain Mara Voss about her ship and its deck');
  let viewer = await openLatestContext(page);
  const sent = blockRow(viewer, MARA);
  await expect(sent.getByRole('cell')).toHaveText([
    S.kinds.card,
    MARA,
    /^\d+$/,
    S.inclusion.full,
    `key '${MARA_KEY}' in your action`,
  ]);
  // A keyed card goes last, next to the action; an always-on one in the prompt's stable head.
  const rows = viewer.getByRole('row');
  await expect(rows.last().getByRole('cell').first()).toHaveText(S.kinds.action);
  await expect(rows.nth(-2).getByRole('cell').nth(1)).toHaveText(MARA);
  await expect(blockRow(viewer, 'Eldoria').getByRole('cell').nth(3)).toHaveText(S.inclusion.full);
  await expect(blockRow(viewer, 'Eldoria').getByRole('cell').nth(4)).toHaveText('always on');
  await expect(viewer.getByRole('progressbar', { name: S.windowLabel })).toBeVisible();
  const windowText = /^[\d,]+ of [\d,]+ tokens \(\d+%\)$/;
  await expect(viewer.getByText(windowText)).toBeVisible();
  await expect(viewer.getByText(/^Cards: [\d,]+ of [\d,]+ tokens · The reply: [\d,]+ tokens?$/)).toBeVisible();
  await screenshot(page, '2-context-card-sent');
  await expectNoSeriousViolations(page);
  await closeDialog(page, viewer);

  // Switched off in the panel, the card is kept but no longer sent, and the viewer says why.
  panel = await openStoryCards(page);
  const maraSwitch = panel
    .getByRole('list', { name: S.listLabel })
    .getByRole('listitem', { name: MARA })
    .getByRole('switch', { name: S.enabledSwitch(MARA) });
  await maraSwitch.click();
  await expect(maraSwitch).not.toBeChecked();
  await expect(maraSwitch).toBeEnabled();
  await expect(panel.getByRole('listitem', { name: MARA }).getByText(S.disabledBadge)).toBeVisible();
  await closeDialog(page, panel);

  await playTurn(page, 'I wave to Mara Voss from the ship, across the deck');
  viewer = await openLatestContext(page);
  await expect(blockRow(viewer, MARA).getByRole('cell')).toHaveText([
    S.kinds.card,
    MARA,
    /^\d+$/,
    S.inclusion.dropped,
    `disabled (key '${MARA_KEY}' in your action)`,
  ]);
  await expect(viewer.getByText(windowText)).toBeVisible();
  await screenshot(page, '3-context-card-not-sent');
  await expectNoSeriousViolations(page);
  await closeDialog(page, viewer);
});
