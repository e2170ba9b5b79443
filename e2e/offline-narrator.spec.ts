// What a new player meets first with no key and no model: the offline demo narrator, in three genres.
// A romance and a historical premise typed on Home and the Space Explorer preset each open in their
// own genre (no runes in a Paris bakery, no magic at Waterloo), and the replies restate the player's
// action as English: an adverb is never taken for a thing, a prepositional phrase never joins the
// object. Screenshots of each story are kept with the run's output for the closing note.
import { expect, test, type Page } from '@playwright/test';
import { HOME_STRINGS } from '../client/features/home/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { STORY_PRESETS } from '../shared/constants';
import { beginStory, gotoHome, signUp, waitForOpening } from './helpers';

const narratorBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.narrator });
const input = (page: Page) => page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);

/** Words that belong to fantasy and horror, never to a bakery romance or a courier at Waterloo. */
const MAGIC = /\b(runes?|spells?|magic|wizards?|dragons?|enchant\w*|sorcer\w*|elves|elf|ghosts?)\b/i;

async function play(page: Page, action: string): Promise<string> {
  const before = await narratorBubbles(page).count();
  await input(page).fill(action);
  await input(page).press('Enter');
  await expect(narratorBubbles(page)).toHaveCount(before + 1, { timeout: 20_000 });
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  return (await narratorBubbles(page).last().innerText()).trim();
}

test('the offline narrator opens each premise in its own genre and reads the action as English', async ({ page }) => {
  test.setTimeout(120_000);
  // Tall enough to show a story's opening and first reply together in each screenshot.
  await page.setViewportSize({ width: 1280, height: 1500 });
  await signUp(page);

  // A romance: Paris, the bakery and the florist come back; no hawk, no runes.
  await beginStory(page, 'I open a bakery in Paris and fall for the florist next door');
  const romance = (await narratorBubbles(page).first().innerText()).trim();
  expect(romance).toMatch(/Paris|bakery|florist/);
  expect(romance).not.toMatch(MAGIC);
  const looked = await play(page, 'I look around carefully.');
  expect(looked.startsWith('You look around carefully.')).toBe(true);
  expect(looked).not.toMatch(/\b(the|a|your) carefully\b/i);
  await page.screenshot({ path: test.info().outputPath('romance.png') });

  // Historical: no magic at Waterloo, and the letter goes into the coat without the coat becoming the object.
  await beginStory(page, 'In 1815 I serve as a courier for the Duke of Wellington before Waterloo');
  const history = (await narratorBubbles(page).first().innerText()).trim();
  expect(history).not.toMatch(MAGIC);
  const slipped = await play(page, 'I quietly slip the letter into my coat and walk towards the old church.');
  expect(slipped.startsWith('You quietly slip the letter into your coat and walk towards the old church.')).toBe(true);
  expect(slipped).not.toMatch(/letter into your coat (seems|gives|is closer)/i);
  expect(slipped).not.toMatch(/\b(my|me)\b/);
  await page.screenshot({ path: test.info().outputPath('historical.png') });

  // Science fiction from a preset: the opening speaks of ships and signals, not of swords.
  await gotoHome(page);
  const preset = STORY_PRESETS.find((p) => p.id === 'space-explorer')!;
  await page.getByRole('button', { name: new RegExp(preset.label) }).click();
  await waitForOpening(page);
  const scifi = (await narratorBubbles(page).first().innerText()).trim();
  expect(scifi).not.toMatch(MAGIC);
  // The player is Captain Imani Reyes: the narrator calls them "you", never a stranger by their name.
  expect(scifi).not.toMatch(/Imani Reyes/);
  expect(scifi).toMatch(
    /\b(ship|hull|deck|signal|scanner|screens?|hologram|synthetic|console|airlock|android|drone|comm|oxygen|readout|station|orbit|gravity|reactor|cryo\w*|robot|viewport|bulkhead|hydroponics|AI)\b/i,
  );
  const answered = await play(page, 'I ask the computer where the signal comes from');
  expect(answered.startsWith('You ask the computer where the signal comes from')).toBe(true);
  await page.screenshot({ path: test.info().outputPath('scifi.png') });
  await expect(page.getByPlaceholder(HOME_STRINGS.scenarioPlaceholder)).toHaveCount(0);
});
