// Ads in Chromium, as a player meets them: in the chat at the spec's frequency (the level rising
// from 1: after the 1st, 2nd and 3rd replies, not the 4th — never under a reply still being written),
// hidden when in-chat ads are switched off (the frequency slider then disabled), the house ad
// leading to the in-app 'Support Taleweaver' page, the operator's sponsor in a new tab with
// rel="sponsored noopener noreferrer", the ad on 'Creating Your Story', none on a shared story,
// and nothing of an ad in what the narrator is sent.
import { expect, test, type Page } from '@playwright/test';
import { ADS_STRINGS } from '../client/features/ads/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, createShareLink, openStoryExperience, registerThroughUi, signUp } from './helpers';

const AD_REGION = `${ADS_STRINGS.label}: ${ADS_STRINGS.title}`;

/** The chat as the page lays it out: Y (the player), N (the narrator), AD, S (a reply still streaming). */
function layout(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('[role="log"] article, [role="log"] [data-ad]'), (el) =>
      el.hasAttribute('data-ad')
        ? 'AD'
        : el.hasAttribute('data-streaming')
          ? 'S'
          : el.getAttribute('aria-label') === 'You'
            ? 'Y'
            : 'N',
    ),
  );
}

const narratorBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.narrator });

/** Sends an action; answers a function that waits until its reply has been written. */
async function sendAction(page: Page, text: string) {
  const before = await narratorBubbles(page).count();
  const input = page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);
  await input.fill(text);
  // Sendable: the narrator is not writing (Enter would otherwise keep the text in the input).
  await expect(page.getByRole('button', { name: STORY_STRINGS.send })).toBeEnabled({ timeout: 20_000 });
  await input.press('Enter');
  await expect(input).toHaveValue('');
  return async () => {
    await expect(narratorBubbles(page)).toHaveCount(before + 1, { timeout: 20_000 });
    await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  };
}

/**
 * Watches every change of the chat from inside the page: while a reply streams, no ad may appear and
 * nothing may follow the streaming reply. Counts the streams it saw, so the check cannot pass unseen.
 */
async function watchStreamingReplies(page: Page) {
  await page.addInitScript(() => {
    const watch = { streams: 0, violations: [] as string[] };
    (window as unknown as { __adWatch: typeof watch }).__adWatch = watch;
    let adsAtStart: number | null = null;
    const check = () => {
      const tokens = Array.from(document.querySelectorAll('[role="log"] article, [role="log"] [data-ad]'), (el) =>
        el.hasAttribute('data-ad') ? 'AD' : el.hasAttribute('data-streaming') ? 'S' : 'M',
      );
      const streaming = tokens.indexOf('S');
      const ads = tokens.filter((t) => t === 'AD').length;
      if (streaming < 0) {
        adsAtStart = null;
        return;
      }
      if (adsAtStart === null) {
        adsAtStart = ads;
        watch.streams += 1;
      }
      if (ads > adsAtStart) watch.violations.push(`an ad appeared while a reply streamed: ${tokens.join(' ')}`);
      if (tokens.slice(streaming + 1).length > 0)
        watch.violations.push(`something follows the streaming reply: ${tokens.join(' ')}`);
    };
    new MutationObserver(check).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-streaming', 'data-ad'],
    });
  });
}

const adWatch = (page: Page) =>
  page.evaluate(() => (window as unknown as { __adWatch: { streams: number; violations: string[] } }).__adWatch);

const replyDone = (page: Page) => expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });

test('in-chat ads follow the frequency rule, never split a streaming reply, switch off, and lead to the support page', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  // Tall enough that the windowed chat keeps every bubble of this short story in the page.
  await page.setViewportSize({ width: 1280, height: 6000 });
  await watchStreamingReplies(page);
  await signUp(page);
  await beginStory(page, 'A caravan crosses a desert of glass under two moons');
  // The opening was being written as the chat opened: it does not count, so no ad yet.
  const base = await layout(page);
  expect(base).not.toContain('AD');

  // Level 1: the first turn makes an ad due as it starts; it waits until the reply is written,
  // never showing under a reply still streaming. The level rises to 2, then 3.
  const streamsBefore = (await adWatch(page)).streams;
  const request = page.waitForRequest((r) => /\/api\/story\/\d+\/continue$/.test(r.url()) && r.method() === 'POST');
  const firstReply = await sendAction(page, 'I follow the brightest moon');
  // The narrator is sent the action only: no ad text ever reaches the prompt.
  expect((await request).postDataJSON()).toEqual({ message: 'I follow the brightest moon' });
  await firstReply();
  await expect.poll(() => layout(page)).toEqual([...base, 'Y', 'N', 'AD']);

  await (
    await sendAction(page, 'I ask the caravan master about the glass')
  )();
  await expect.poll(() => layout(page)).toEqual([...base, 'Y', 'N', 'AD', 'Y', 'N', 'AD']);
  // Both replies were watched as they streamed, and no ad showed before either was written.
  const watched = await adWatch(page);
  expect(watched.streams - streamsBefore).toBe(2);
  expect(watched.violations).toEqual([]);

  // Level 3: the count reaches it as the third reply appears.
  await (
    await sendAction(page, 'I climb the tallest dune to look ahead')
  )();
  await expect.poll(() => layout(page)).toEqual([...base, 'Y', 'N', 'AD', 'Y', 'N', 'AD', 'Y', 'N', 'AD']);

  // Level 4: two counted events in this turn are not enough.
  await (
    await sendAction(page, 'I signal the caravan to follow')
  )();
  await page.waitForTimeout(300);
  expect(await layout(page)).toEqual([...base, 'Y', 'N', 'AD', 'Y', 'N', 'AD', 'Y', 'N', 'AD', 'Y', 'N']);
  expect((await adWatch(page)).violations).toEqual([]);

  // The ad itself: labelled, the spec's texts, a house ad for the support page in a new tab.
  const ad = page.getByRole('region', { name: AD_REGION }).last();
  await expect(ad).toContainText(ADS_STRINGS.label);
  await expect(ad).toContainText(ADS_STRINGS.text);
  const visit = ad.getByRole('link', { name: new RegExp(ADS_STRINGS.visitSponsor) });
  await expect(visit).toHaveAttribute('href', '/support');
  await expect(visit).toHaveAttribute('target', '_blank');
  await expect(visit).toHaveAttribute('rel', 'sponsored noopener noreferrer');
  await visit.focus();
  await expect(visit).toBeFocused();
  const [support] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
  await expect(support.getByRole('heading', { level: 1, name: ADS_STRINGS.supportPageTitle })).toBeVisible();
  await expect(support.locator('#main').getByRole('link', { name: ADS_STRINGS.home })).toBeVisible();
  await support.close();

  // Switched off in the drawer: the chat's ads go, and the frequency slider is disabled.
  const drawer = await openStoryExperience(page);
  await expect(drawer.getByRole('heading', { name: ADS_STRINGS.settingsSection })).toBeVisible();
  const slider = drawer.getByRole('slider', { name: ADS_STRINGS.frequency });
  await expect(slider).toBeEnabled();
  await drawer.getByRole('switch', { name: ADS_STRINGS.showInChat }).click();
  await expect(slider).toBeDisabled();
  await expect(page.locator('[data-ad]')).toHaveCount(0);
  await drawer.getByRole('switch', { name: ADS_STRINGS.showInChat }).click();
  await expect(slider).toBeEnabled();
  await expect(page.locator('[data-ad]')).toHaveCount(3);
  await page.keyboard.press('Escape');

  // A shared story never shows ads.
  const { link } = await createShareLink(page, 'Glass desert');
  await page.goto(link);
  await expect(page.getByText('Glass desert').first()).toBeVisible();
  await expect(page.locator('[data-ad]')).toHaveCount(0);
  await expect(page.getByText(ADS_STRINGS.visitSponsor)).toHaveCount(0);
});

test("'Creating Your Story' shows an ad unless the player turned loading-screen ads off", async ({ page }) => {
  await registerThroughUi(page);
  // The session check is held back until the creation screen has been looked at, so that screen
  // (shown while the session is being checked) stays up for as long as the test needs it.
  let release = () => {};
  await page.route('**/api/user', async (route) => {
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    await route.continue();
  });
  const creating = async (scenario: string) => {
    const features = page.waitForResponse((response) => response.url().endsWith('/api/features'));
    await page.goto('/story/new?scenario=' + encodeURIComponent(scenario));
    await expect(page.getByRole('heading', { name: STORY_STRINGS.creatingTitle })).toBeVisible();
    return features;
  };

  await creating('A lantern festival on a frozen river');
  await expect(page.getByRole('region', { name: AD_REGION })).toBeVisible();
  release();
  await expect(page).toHaveURL(/\/story\/\d+$/, { timeout: 20_000 });
  await replyDone(page);

  await page.evaluate(() => {
    const key = 'taleweaver-ad-settings';
    localStorage.setItem(
      key,
      JSON.stringify({ ...JSON.parse(localStorage.getItem(key) ?? '{}'), showOnLoading: false }),
    );
  });
  // Once the server has said ads exist, the ad would show at once: it does not.
  await (await creating('A second lantern festival, further downstream')).finished();
  await page.waitForTimeout(300);
  await expect(page.getByRole('region', { name: AD_REGION })).toHaveCount(0);
  release();
});

test.describe('with AD_SPONSOR_URL set', () => {
  test.use({ baseURL: process.env.FAKE_LLM_APP_URL });

  test("'Visit Sponsor' opens the operator's sponsor in a new tab", async ({ page, context }) => {
    await signUp(page);
    await beginStory(page, 'A night market that only opens in the rain');
    // The first turn is the first counted event: its reply is followed by an ad.
    await (
      await sendAction(page, 'I buy a lantern from the first stall')
    )();
    const visit = page
      .getByRole('region', { name: AD_REGION })
      .getByRole('link', { name: new RegExp(ADS_STRINGS.visitSponsor) });
    await expect(visit).toHaveAttribute('href', `${process.env.FAKE_SPEECH_URL}/sponsor`);
    await expect(visit).toHaveAttribute('rel', 'sponsored noopener noreferrer');
    const [sponsor] = await Promise.all([context.waitForEvent('page'), visit.click()]);
    await expect(sponsor).toHaveTitle('Sponsor');
    // noopener: the sponsor cannot reach back into the story's tab.
    expect(await sponsor.evaluate(() => window.opener)).toBeNull();
  });
});
