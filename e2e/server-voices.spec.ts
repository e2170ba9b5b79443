// Server voices in Chromium, against the app wired to a fake OpenAI-compatible speech server
// (TTS_PROVIDER=openai, TTS_VOICES=nova,onyx): the picker offers them beside the browser's own;
// Play fetches the latest reply sentence by sentence and the browser plays the MP3 parts as they
// come; a replay is served from the cache (the provider is not asked again); a failing provider
// shows 'Speech Error'. On the default app (TTS unset) nothing about server voices shows.
import { expect, test, type Page } from '@playwright/test';
import { splitSentences } from '../shared/speech/sentences';
import { NARRATION_STRINGS } from '../client/features/narration/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, narrationControls, openStoryExperience, signUp } from './helpers';

const FAKE_SPEECH_URL = process.env.FAKE_SPEECH_URL as string;

interface MediaLog {
  __media: Array<{ event: string; src: string }>;
}

/** Records what every audio element does (play() calls, 'playing', 'ended', 'error'), before the app loads. */
async function recordMedia(page: Page) {
  await page.addInitScript(() => {
    const log: Array<{ event: string; src: string }> = [];
    (window as unknown as MediaLog).__media = log;
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      if (!this.dataset.recorded) {
        this.dataset.recorded = '1';
        for (const event of ['playing', 'ended', 'error'])
          this.addEventListener(event, () => log.push({ event, src: this.currentSrc }));
      }
      log.push({ event: 'play', src: this.src });
      return play.call(this);
    };
  });
}

const media = (page: Page) => page.evaluate(() => (window as unknown as MediaLog).__media.slice());

async function speechRequests(
  page: Page,
): Promise<
  Array<{ path: string; authorization: string | null; json?: { model?: string; voice?: string; input?: string } }>
> {
  const response = await page.request.get(`${FAKE_SPEECH_URL}/__requests`);
  const all = (await response.json()) as Array<{
    path: string;
    authorization: string | null;
    json?: { model?: string; voice?: string; input?: string };
  }>;
  return all.filter((r) => r.path === 'speech');
}

async function openDrawer(page: Page) {
  return narrationControls(await openStoryExperience(page));
}

test.describe('server voices (TTS_PROVIDER set)', () => {
  test.use({ baseURL: process.env.FAKE_LLM_APP_URL });

  test('are offered beside the browser voices, played part by part as they arrive, replayed from the cache, and fail with Speech Error', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.request.post(`${FAKE_SPEECH_URL}/__reset`);
    await recordMedia(page);
    await signUp(page);
    await beginStory(page, 'A bell tower that rings at midnight for no one');
    const reply = await page
      .getByRole('article', { name: STORY_STRINGS.narrator })
      .last()
      .evaluate((article) => Array.from(article.querySelectorAll('p'), (p) => p.textContent ?? '').join('\n\n'));
    const sentences = splitSentences(reply);
    expect(sentences.length).toBeGreaterThan(1);

    const controls = await openDrawer(page);
    await expect(controls.drawer.locator(`optgroup[label="${NARRATION_STRINGS.serverVoices}"] option`)).toHaveText([
      'nova',
      'onyx',
    ]);
    await controls.picker.selectOption('server:nova');
    const mine = (await speechRequests(page)).length;
    await controls.play.click();
    await expect(controls.stop).toBeVisible();

    // The first sentences were asked for in order, in the chosen voice and model, with the key;
    // the browser played the first part while later ones were still to come.
    await expect
      .poll(async () => (await speechRequests(page)).length, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(mine + 2);
    const asked = (await speechRequests(page)).slice(mine);
    expect(asked.map((r) => r.json?.input)).toEqual(sentences.slice(0, asked.length));
    for (const request of asked) {
      expect(request.json).toMatchObject({ model: 'fake-tts', voice: 'nova', response_format: 'mp3' });
      expect(request.authorization).toBe('Bearer sk-e2e-speech-key');
    }
    await expect
      .poll(async () => (await media(page)).filter((m) => m.event === 'playing').length, { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect((await media(page)).filter((m) => m.event === 'error')).toEqual([]);
    expect((await speechRequests(page)).length - mine).toBeLessThan(sentences.length + 1);

    // A replay is served from the cache: the provider is not asked for the first sentence again.
    await controls.stop.click();
    await expect(controls.stop).toHaveCount(0);
    const askedBefore = (await speechRequests(page)).filter((r) => r.json?.input === sentences[0]).length;
    const playingBefore = (await media(page)).filter((m) => m.event === 'playing').length;
    await controls.play.click();
    await expect
      .poll(async () => (await media(page)).filter((m) => m.event === 'playing').length, { timeout: 15_000 })
      .toBeGreaterThan(playingBefore);
    expect((await speechRequests(page)).filter((r) => r.json?.input === sentences[0]).length).toBe(askedBefore);
    await controls.stop.click();

    // A provider failure on a voice not yet cached: 'Speech Error', and playback ends.
    await page.request.post(`${FAKE_SPEECH_URL}/__queue`, { data: { path: 'speech', kind: 'status', status: 500 } });
    await controls.picker.selectOption('server:onyx');
    await controls.play.click();
    await expect(page.getByText(NARRATION_STRINGS.speechErrorTitle, { exact: true })).toBeVisible();
    await expect(page.getByText(NARRATION_STRINGS.speechError).first()).toBeVisible();
    await expect(controls.stop).toHaveCount(0);
  });
});

test('without TTS_PROVIDER nothing about server voices shows', async ({ page }) => {
  await signUp(page);
  await beginStory(page, 'A quiet village at the edge of a salt marsh');
  const features = await page.evaluate(async () => (await fetch('/api/features')).json());
  expect(features.speech).toEqual({ voices: [], transcription: false });
  const controls = await openDrawer(page);
  await expect(controls.drawer.locator('optgroup')).toHaveCount(0);
  await expect(controls.drawer.locator('option[value^="server:"]')).toHaveCount(0);
  await expect(controls.drawer.getByText(NARRATION_STRINGS.serverVoices)).toHaveCount(0);
});
