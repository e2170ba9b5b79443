// The Story Bible end to end with the builtin narrator: a story imported through 'Your
// Stories' with nothing folded, long enough that its first turn here folds the oldest piece into
// the memory; that piece holds the action naming the horse, so the fold notes the fact. 'Story
// Memory' lists it under 'Story Bible'; pinned there, it goes to the narrator with the next turn,
// whose action never names the horse, and 'What the narrator saw' on that reply shows it as a Fact
// sent as a pinned fact. WALK_SCREENSHOTS=1 saves the pinned fact and the viewer for a reviewer as
// /tmp/bible-e2e-panel.png and /tmp/bible-e2e-context.png.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { STORY_FILE_FORMAT } from '../shared/schemas/story-export';
import type { StoryBible } from '../shared/schemas/story-bible';
import { APP_STRINGS } from '../client/app/strings';
import { LIBRARY_STRINGS } from '../client/features/library/strings';
import { STORY_BIBLE_STRINGS as B, STORY_MEMORY_STRINGS as M } from '../client/features/story-memory/strings';
import { STORY_CARDS_STRINGS as C } from '../client/features/story-cards/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { gotoHome, signUp } from './helpers';

const SCREENSHOTS = process.env.WALK_SCREENSHOTS === '1';
const TITLE = 'The Hill Road';
const PREMISE = 'A rider carries a sealed message across the hill country to the river fort before the autumn floods.';
/** The imported story's first action: the builtin narrator's fold finds "your horse", name, Bramble in it. */
const PLANTING = 'I tell the stable boy that my horse is called Bramble.';
const HORSE = 'your horse';
const NAME = 'name';
/**
 * Turns the file holds after the planting one. The e2e server keeps the default window
 * (LLM_CONTEXT_TOKENS 8,192): with nothing folded yet, about 5,830 tokens of it are room for the
 * verbatim turns, and a fold is due once they fill 90 % of it (5,250). These turns bring about 6,250
 * tokens, so the first turn played here folds, whatever the length of its reply; the first piece
 * folded starts with the planting action.
 */
const FILLER_TURNS = 40;

const PLACES = [
  'the ford',
  'the old mill',
  'the chalk cutting',
  'the shepherd huts',
  'the beech wood',
  'the toll bridge',
];
const SIGHTS = [
  'a line of crows',
  'smoke from a far chimney',
  'a broken cart',
  'a milestone worn smooth',
  'a flock of sheep',
];
const WEATHER = ['a thin rain', 'a low grey sky', 'a cold wind from the north', 'a pale sun', 'drifting mist'];
const capitalised = (text: string) => text[0].toUpperCase() + text.slice(1);

/** Ordinary actions: none names a thing of the player's, so the fold finds no other fact. */
const fillerAction = (n: number) =>
  `I ride on toward ${PLACES[n % PLACES.length]} under ${WEATHER[n % WEATHER.length]}, ` +
  `keeping the message dry inside the coat and watching ${SIGHTS[n % SIGHTS.length]} on the slope. ` +
  'At the next bend I stop to listen for anyone behind on the road, count the miles left to the river fort, ' +
  'and decide whether to rest or press on.';
const fillerReply = (n: number) =>
  `The road climbs past ${PLACES[(n + 2) % PLACES.length]} and ${WEATHER[(n + 1) % WEATHER.length]} settles ` +
  `over the hills. ${capitalised(SIGHTS[(n + 3) % SIGHTS.length])} marks the way, and somewhere below a bell ` +
  'rings twice and falls silent. The hoofbeats sound loud on the stones, and the river fort is still a long ' +
  'day off. A carter passing the other way lifts a hand and says the ford ahead ran high this morning. What do you do?';
const LAST_IMPORTED_TURN = 1 + FILLER_TURNS;

/** A version 3 story file with nothing folded (memoryCovers 0): the planting action, then the filler turns. */
function storyFile(): string {
  const at = new Date().toISOString();
  const message = (role: 'user' | 'assistant', content: string, turn: number) => ({
    role,
    content,
    turn,
    isInitial: false,
    createdAt: at,
  });
  const messages = [
    { ...message('user', PREMISE, 0), isInitial: true },
    message('assistant', fillerReply(0), 0),
    message('user', PLANTING, 1),
    message('assistant', fillerReply(1), 1),
  ];
  for (let turn = 2; turn <= LAST_IMPORTED_TURN; turn += 1)
    messages.push(message('user', fillerAction(turn), turn), message('assistant', fillerReply(turn), turn));
  const story = { title: TITLE, premise: PREMISE, memory: '', memoryCovers: 0, notes: '', createdAt: at };
  return JSON.stringify({ format: STORY_FILE_FORMAT, version: 3, exportedAt: at, story, cards: [], messages });
}

const narratorBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.narrator });
const input = (page: Page) => page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);

/**
 * Sends an action and waits until its reply is whole ('Try again' shows on it); answers the reply's
 * bubble. The builtin narrator opens each reply with the action told back ("I lead…": "You lead…"),
 * which finds the new reply: the chat is windowed, so in a long story the bubbles' count says nothing.
 */
async function playTurn(page: Page, action: string, replyOpening: string): Promise<Locator> {
  await input(page).fill(action);
  await input(page).press('Enter');
  const reply = narratorBubbles(page).filter({ hasText: replyOpening });
  await expect(reply).toHaveCount(1, { timeout: 20_000 });
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  await expect(reply.getByRole('button', { name: STORY_STRINGS.tryAgain })).toBeVisible();
  return reply;
}

/** Opens 'Story Memory'; answers the panel and its 'Story Bible' section. */
async function openStoryMemory(page: Page): Promise<{ panel: Locator; bible: Locator }> {
  await page.getByRole('button', { name: M.tooltip }).click();
  const panel = page.getByRole('dialog', { name: M.title });
  await expect(panel).toBeVisible();
  return { panel, bible: panel.getByRole('region', { name: B.title }) };
}

async function closeStoryMemory(panel: Locator) {
  await panel.getByRole('button', { name: M.cancel }).click();
  await expect(panel).toHaveCount(0);
}

test('a fact from the story shows in the Story Bible; pinned, it goes to the narrator with the next turn', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page);

  // Import the story through 'Your Stories': it opens with every imported turn still verbatim.
  await gotoHome(page);
  await page
    .getByRole('navigation', { name: APP_STRINGS.mainNavigation })
    .getByRole('link', { name: APP_STRINGS.yourStories })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: LIBRARY_STRINGS.pageTitle })).toBeVisible();
  await page.getByLabel(LIBRARY_STRINGS.importLabel).setInputFiles({
    name: 'hill-road.taleweaver.json',
    mimeType: 'application/json',
    buffer: Buffer.from(storyFile()),
  });
  await expect(page.getByText(LIBRARY_STRINGS.imported(TITLE), { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/story\/\d+$/);
  const storyId = Number(/\/story\/(\d+)$/.exec(page.url())![1]);
  await expect(narratorBubbles(page).last()).toContainText(fillerReply(LAST_IMPORTED_TURN));

  // Before any fold the bible is empty.
  let memory = await openStoryMemory(page);
  await expect(memory.bible.getByText(B.empty, { exact: true })).toBeVisible();
  await closeStoryMemory(memory.panel);

  // The first turn here outgrows the verbatim room: the fold after its reply takes the oldest piece,
  // the planting action with it, and notes the fact.
  await playTurn(
    page,
    'I lead the way down to the ford and test the water with a stick.',
    'You lead the way down to the ford',
  );
  await expect
    .poll(
      async () => {
        const answer = await page.request.get(`/api/story/${storyId}/bible`);
        if (!answer.ok()) return [`status ${answer.status()}`];
        return ((await answer.json()) as StoryBible).facts.map((f) => `${f.entity}|${f.attribute}|${f.value}`);
      },
      { timeout: 15_000 },
    )
    .toContain(`${HORSE}|${NAME}|Bramble`);

  // 'Story Bible' lists it under its entity, from the imported turn that said it; pin it.
  memory = await openStoryMemory(page);
  const facts = memory.bible.getByRole('list', { name: B.listLabel });
  const horse = facts.getByRole('listitem', { name: HORSE });
  await expect(horse.getByRole('heading', { name: HORSE })).toBeVisible();
  const fact = horse.getByRole('list', { name: B.entityFactsLabel(HORSE) }).getByRole('listitem');
  await expect(fact).toHaveCount(1);
  await expect(fact.getByText(`${NAME}: Bramble`, { exact: true })).toBeVisible();
  await expect(fact.getByText(B.turn(1), { exact: true })).toBeVisible();
  await expect(memory.bible.getByText(B.pinnedCount(0), { exact: true })).toBeVisible();
  await fact.getByRole('button', { name: B.pinLabel(HORSE, NAME) }).click();
  await expect(fact.getByRole('button', { name: B.unpinLabel(HORSE, NAME) })).toBeEnabled();
  await expect(fact.getByText(B.pinnedBadge, { exact: true })).toBeVisible();
  await expect(memory.bible.getByText(B.pinnedCount(1), { exact: true })).toBeVisible();
  if (SCREENSHOTS) await memory.bible.screenshot({ path: '/tmp/bible-e2e-panel.png' });
  await closeStoryMemory(memory.panel);

  // The next action says nothing of the horse: only the pin brings the fact to the narrator.
  const lastReply = await playTurn(
    page,
    'I study the map by the fire and mark the shortest way to the river fort.',
    'You study the map by the fire',
  );
  await lastReply.getByRole('button', { name: C.contextAction }).click();
  const viewer = page.getByRole('dialog', { name: C.contextTitle });
  await expect(viewer.getByRole('region', { name: C.blocksLabel })).toBeVisible();
  const factRow = viewer
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: `${HORSE}: ${NAME}`, exact: true }) });
  await expect(factRow.getByRole('cell')).toHaveText([
    C.kinds.fact,
    `${HORSE}: ${NAME}`,
    /^\d+$/,
    C.inclusion.full,
    'pinned fact',
  ]);
  if (SCREENSHOTS) {
    await factRow.scrollIntoViewIfNeeded();
    await viewer.screenshot({ path: '/tmp/bible-e2e-context.png' });
  }
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
});
