// Ads in Chromium, as a player meets them: in the chat at the spec's frequency (default 3: after
// the opening, after the 1st reply, then after the 3rd — never under a reply still being written),
// hidden when in-chat ads are switched off (the frequency slider then disabled), the house ad
// leading to the in-app 'Support Taleweaver' page, the operator's sponsor in a new tab with
// rel="sponsored noopener noreferrer", the ad on 'Creating Your Story', none on a shared story,
// and nothing of an ad in what the narrator is sent.
import { expect, test, type Page } from '@playwright/test';
import { ADS_STRINGS } from '../client/features/ads/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, createShareLink, registerThroughUi } from './helpers';

const AD_REGION = `${ADS_STRINGS.label}: ${ADS_STRINGS.title}`;

/** The chat as the page lays it out: Y (the player), N (the narrator), AD, S (a reply still streaming). */
function layout(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('[role="log"] article, [role="log"] [data-ad]'), (el) =>
      el.hasAttribute('data-ad') ? 'AD' : el.hasAttribute('data-streaming') ? 'S' : el.getAttribute('aria-label') === 'You' ? 'Y' : 'N',
    ),
  );
}

async function sendAction(page: Page, text: string) {
  const input = page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);
  await input.fill(text);
  await input.press('Enter');
}

const replyDone = (page: Page) => expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });

test('in-chat ads follow the frequency rule, never split a streaming reply, switch off, and lead to the support page', async ({ page, context }) => {
  test.setTimeout(120_000);
  await registerThroughUi(page);
  await beginStory(page, 'A caravan crosses a desert of glass under two moons');
  const opening = await layout(page);
  // The first counted message (the opening) shows an ad, right after it; the level rises to 2.
  await expect.poll(() => layout(page)).toEqual([...opening.filter((t) => t !== 'AD'), 'AD']);
  const base = opening.filter((t) => t !== 'AD');

  const request = page.waitForRequest((r) => /\/api\/story\/\d+\/continue$/.test(r.url()) && r.method() === 'POST');
  await sendAction(page, 'I follow the brightest moon');
  // The narrator is sent the action only: no ad text ever reaches the prompt.
  expect((await request).postDataJSON()).toEqual({ message: 'I follow the brightest moon' });
  await replyDone(page);
  await expect.poll(() => layout(page)).toEqual([...base, 'AD', 'Y', 'N', 'AD']);

  await sendAction(page, 'I ask the caravan master about the glass');
  await replyDone(page);
  await expect.poll(() => layout(page)).toEqual([...base, 'AD', 'Y', 'N', 'AD', 'Y', 'N']);

  // The third turn makes an ad due as it starts: it waits until the reply is written.
  await sendAction(page, 'I climb the tallest dune to look ahead');
  await expect(page.locator('[data-streaming]')).toHaveCount(1, { timeout: 20_000 });
  while ((await page.locator('[data-streaming]').count()) > 0) {
    const now = await layout(page);
    expect(now.filter((t) => t === 'AD')).toHaveLength(2);
    expect(now.slice(now.indexOf('S') + 1)).toEqual([]);
    await page.waitForTimeout(50);
  }
  await expect.poll(() => layout(page)).toEqual([...base, 'AD', 'Y', 'N', 'AD', 'Y', 'N', 'Y', 'N', 'AD']);

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
  await expect(support.getByRole('link', { name: ADS_STRINGS.home })).toBeVisible();
  await support.close();

  // Switched off in the drawer: the chat's ads go, and the frequency slider is disabled.
  await page.getByRole('button', { name: STORY_STRINGS.storyExperience }).click();
  const drawer = page.getByRole('dialog', { name: STORY_STRINGS.storyExperience });
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
  // Hold the session check back a moment, so the creation screen is on screen long enough to look at.
  await page.route('**/api/user', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto('/story/new?scenario=' + encodeURIComponent('A lantern festival on a frozen river'));
  await expect(page.getByRole('heading', { name: STORY_STRINGS.creatingTitle })).toBeVisible();
  await expect(page.getByRole('region', { name: AD_REGION })).toBeVisible();
  await expect(page).toHaveURL(/\/story\/\d+$/, { timeout: 20_000 });
  await replyDone(page);

  await page.evaluate(() => {
    const key = 'taleweaver-ad-settings';
    localStorage.setItem(key, JSON.stringify({ ...JSON.parse(localStorage.getItem(key) ?? '{}'), showOnLoading: false }));
  });
  await page.goto('/story/new?scenario=' + encodeURIComponent('A second lantern festival, further downstream'));
  await expect(page.getByRole('heading', { name: STORY_STRINGS.creatingTitle })).toBeVisible();
  await page.waitForTimeout(300);
  await expect(page.getByRole('region', { name: AD_REGION })).toHaveCount(0);
});

test.describe('with AD_SPONSOR_URL set', () => {
  test.use({ baseURL: process.env.FAKE_LLM_APP_URL });

  test("'Visit Sponsor' opens the operator's sponsor in a new tab", async ({ page, context }) => {
    await registerThroughUi(page);
    await beginStory(page, 'A night market that only opens in the rain');
    const visit = page.getByRole('region', { name: AD_REGION }).getByRole('link', { name: new RegExp(ADS_STRINGS.visitSponsor) });
    await expect(visit).toHaveAttribute('href', `${process.env.FAKE_SPEECH_URL}/sponsor`);
    await expect(visit).toHaveAttribute('rel', 'sponsored noopener noreferrer');
    const [sponsor] = await Promise.all([context.waitForEvent('page'), visit.click()]);
    await expect(sponsor).toHaveTitle('Sponsor');
    // noopener: the sponsor cannot reach back into the story's tab.
    expect(await sponsor.evaluate(() => window.opener)).toBeNull();
  });
});
