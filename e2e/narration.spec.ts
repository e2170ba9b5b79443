// Narration in the browser, as a player meets it, with the browser's speech synthesis replaced by a
// recording stand-in (headless Chromium has no voices): the 'Narrator Voice' picker lists English
// voices first and preselects the preferred one; switching on reads the latest reply sentence by
// sentence; a new reply is read while it is still being written; Pause / Resume / Stop; leaving the
// page cancels speech; the setting survives a reload, and opening the story does not talk by
// itself; axe finds no serious problem with the drawer open.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { splitSentences } from '../shared/speech/sentences';
import { APP_STRINGS } from '../client/app/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { beginStory, narrationControls, openStoryExperience, signUp } from './helpers';

interface SpokenRecord {
  text: string;
  voice: string | null;
  rate: number;
  pitch: number;
  volume: number;
  /** A narrator reply was still being written ([data-streaming] on the page) when this utterance started. */
  streaming: boolean;
}

interface SpeechStub {
  __spoken: SpokenRecord[];
  __cancels: number;
  speechSynthesis: { speaking: boolean };
}

/**
 * Replaces window.speechSynthesis and SpeechSynthesisUtterance before the app loads. It behaves like
 * Chrome where it matters: no voices until 'voiceschanged', one utterance at a time ('start', then
 * 'end' after a while), pause holds the queue until resume, and cancel reports 'interrupted' for the
 * utterance being spoken and 'canceled' for the queued ones.
 */
async function installSpeechStub(page: Page, utteranceMs = 350) {
  await page.addInitScript((duration: number) => {
    type Handler = ((this: unknown, event: Event) => void) | null;
    class StubVoice {
      constructor(
        readonly name: string,
        readonly lang: string,
        readonly isDefault = false,
      ) {}
      get voiceURI() {
        return this.name;
      }
      get localService() {
        return !this.name.startsWith('Google');
      }
      get default() {
        return this.isDefault;
      }
    }
    const allVoices = [
      new StubVoice('Zed', 'de-DE'),
      new StubVoice('Amelie', 'fr-FR'),
      new StubVoice('Google US English', 'en-US'),
      new StubVoice('Alice', 'en-GB', true),
    ];
    let voices: StubVoice[] = [];

    class StubUtterance extends EventTarget {
      text: string;
      voice: StubVoice | null = null;
      lang = '';
      rate = 1;
      pitch = 1;
      volume = 1;
      onstart: Handler = null;
      onend: Handler = null;
      onerror: Handler = null;
      onpause: Handler = null;
      onresume: Handler = null;
      onboundary: Handler = null;
      onmark: Handler = null;
      constructor(text = '') {
        super();
        this.text = text;
      }
    }

    const record = window as unknown as { __spoken: unknown[]; __cancels: number };
    record.__spoken = [];
    record.__cancels = 0;
    const queue: StubUtterance[] = [];
    let current: StubUtterance | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let remaining = 0;
    let startedAt = 0;

    const fire = (utterance: StubUtterance, type: string, extra: Record<string, unknown> = {}) => {
      const event = Object.assign(new Event(type), { utterance, charIndex: 0, elapsedTime: 0, name: '' }, extra);
      utterance.dispatchEvent(event);
      const handler = (utterance as unknown as Record<string, Handler>)[`on${type}`];
      if (typeof handler === 'function') handler.call(utterance, event);
    };

    const synth = Object.assign(new EventTarget(), {
      speaking: false,
      pending: false,
      paused: false,
      onvoiceschanged: null as Handler,
      getVoices: () => voices.slice(),
      speak(utterance: StubUtterance) {
        queue.push(utterance);
        synth.pending = true;
        if (!current && !synth.paused) next();
      },
      cancel() {
        record.__cancels += 1;
        clearTimeout(timer);
        const cut = current;
        const dropped = queue.splice(0);
        current = null;
        synth.speaking = false;
        synth.pending = false;
        if (cut) fire(cut, 'error', { error: 'interrupted' });
        dropped.forEach((u) => fire(u, 'error', { error: 'canceled' }));
      },
      pause() {
        if (synth.paused) return;
        synth.paused = true;
        if (current) {
          clearTimeout(timer);
          remaining -= Date.now() - startedAt;
          fire(current, 'pause');
        }
      },
      resume() {
        if (!synth.paused) return;
        synth.paused = false;
        if (current) {
          startedAt = Date.now();
          timer = setTimeout(endCurrent, Math.max(0, remaining));
          fire(current, 'resume');
        } else next();
      },
    });

    function next() {
      if (current) return;
      current = queue.shift() ?? null;
      synth.pending = queue.length > 0;
      synth.speaking = current !== null;
      if (!current) return;
      record.__spoken.push({
        text: current.text,
        voice: current.voice?.name ?? null,
        rate: current.rate,
        pitch: current.pitch,
        volume: current.volume,
        streaming: document.querySelector('[data-streaming]') !== null,
      });
      fire(current, 'start');
      remaining = duration;
      startedAt = Date.now();
      timer = setTimeout(endCurrent, duration);
    }

    function endCurrent() {
      const done = current;
      current = null;
      synth.speaking = false;
      if (done) fire(done, 'end');
      // Like Chrome: a paused synthesis starts nothing new until resume().
      if (!synth.paused) next();
    }

    Object.defineProperty(window, 'speechSynthesis', { configurable: true, get: () => synth });
    Object.defineProperty(window, 'SpeechSynthesisUtterance', {
      configurable: true,
      writable: true,
      value: StubUtterance,
    });
    // Chrome lists no voices at first and announces them a moment later.
    setTimeout(() => {
      voices = allVoices;
      const event = new Event('voiceschanged');
      synth.dispatchEvent(event);
      if (typeof synth.onvoiceschanged === 'function') synth.onvoiceschanged.call(synth, event);
    }, 150);
  }, utteranceMs);
}

const spoken = (page: Page) => page.evaluate(() => (window as unknown as SpeechStub).__spoken.slice());
const spokenTexts = async (page: Page) => (await spoken(page)).map((r) => r.text);
const clearSpoken = (page: Page) => page.evaluate(() => void ((window as unknown as SpeechStub).__spoken.length = 0));
const cancels = (page: Page) => page.evaluate(() => (window as unknown as SpeechStub).__cancels);

/** The reply's text as the page shows it (its paragraphs, without the bubble's buttons). */
const replyText = (bubble: Locator) =>
  bubble.evaluate((article) => Array.from(article.querySelectorAll('p'), (p) => p.textContent ?? '').join('\n\n'));

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function openDrawer(page: Page) {
  return narrationControls(await openStoryExperience(page));
}

async function closeDrawer(page: Page) {
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: STORY_STRINGS.storyExperience })).toHaveCount(0);
}

test('narration: voices, reading the latest reply, following a new one as it is written, pause, stop, leaving, reload', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await installSpeechStub(page);
  await signUp(page);
  await beginStory(page, 'A lighthouse keeper guards a stormy northern coast at night');
  const storyUrl = page.url();
  const narratorBubbles = page.getByRole('article', { name: STORY_STRINGS.narrator });

  // The picker: English first, then by name; the preferred voice (English, 'Google') preselected.
  let controls = await openDrawer(page);
  const browserOptions = () =>
    controls.picker
      .locator('option[value^="browser:"]')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  await expect
    .poll(browserOptions)
    .toEqual(['browser:Alice', 'browser:Google US English', 'browser:Amelie', 'browser:Zed']);
  await expect(controls.picker).toHaveValue('browser:Google US English');
  await expect(controls.toggle).not.toBeChecked();
  await expect(controls.pause).toBeDisabled();
  await expect(controls.stop).toHaveCount(0);
  await expect(controls.play).toBeEnabled();
  await expectNoSeriousViolations(page);

  // Switching on reads the latest reply, one utterance per sentence, in the preferred voice.
  const opening = await replyText(narratorBubbles.last());
  const openingSentences = splitSentences(opening);
  expect(openingSentences.length).toBeGreaterThan(1);
  await controls.toggle.click();
  await expect(controls.toggle).toBeChecked();
  await expect(controls.stop).toBeVisible();
  await expect.poll(() => spokenTexts(page), { timeout: 20_000 }).toEqual(openingSentences);
  for (const record of await spoken(page))
    expect(record).toMatchObject({ voice: 'Google US English', rate: 0.9, pitch: 1, volume: 1 });
  await expect(controls.stop).toHaveCount(0, { timeout: 5_000 });
  await expect(controls.pause).toBeDisabled();

  // Play, Pause (nothing else is disabled), Resume, Stop.
  await clearSpoken(page);
  await controls.play.click();
  await expect(controls.stop).toBeVisible();
  await controls.pause.click();
  await expect(controls.resume).toBeEnabled();
  await expect(controls.pause).toHaveCount(0);
  await expect(controls.stop).toBeEnabled();
  await expect(controls.play).toBeEnabled();
  await expect(controls.toggle).toBeEnabled();
  await expect(controls.picker).toBeEnabled();
  const whilePaused = (await spoken(page)).length;
  await page.waitForTimeout(900);
  expect((await spoken(page)).length).toBe(whilePaused);
  await controls.resume.click();
  await expect(controls.pause).toBeEnabled();
  if (whilePaused < openingSentences.length)
    await expect.poll(async () => (await spoken(page)).length).toBeGreaterThan(whilePaused);
  await controls.stop.click();
  await expect(controls.stop).toHaveCount(0);
  await expect(controls.pause).toBeDisabled();
  await expect(controls.play).toBeFocused();
  const afterStop = (await spoken(page)).length;
  await page.waitForTimeout(700);
  expect((await spoken(page)).length).toBe(afterStop);
  expect(await page.evaluate(() => (window as unknown as SpeechStub).speechSynthesis.speaking)).toBe(false);
  await closeDrawer(page);

  // A new reply is read while it is written: its first sentence starts before the reply is done.
  await clearSpoken(page);
  const before = await narratorBubbles.count();
  const input = page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);
  await input.fill('I climb to the lamp room and look out at the storm');
  await input.press('Enter');
  await expect.poll(async () => (await spoken(page)).length, { timeout: 20_000 }).toBeGreaterThan(0);
  expect((await spoken(page))[0].streaming).toBe(true);
  await expect(narratorBubbles).toHaveCount(before + 1);
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  const reply = await replyText(narratorBubbles.last());
  await expect.poll(() => spokenTexts(page), { timeout: 30_000 }).toEqual(splitSentences(reply));

  // Leaving the story page cancels speech.
  controls = await openDrawer(page);
  await clearSpoken(page);
  await controls.play.click();
  await expect(controls.stop).toBeVisible();
  await closeDrawer(page);
  const cancelsBefore = await cancels(page);
  await page.getByRole('banner').getByRole('link', { name: APP_STRINGS.bookmarks }).first().click();
  await expect(page).toHaveURL(/\/bookmarks$/);
  await expect.poll(() => cancels(page)).toBeGreaterThan(cancelsBefore);
  expect(await page.evaluate(() => (window as unknown as SpeechStub).speechSynthesis.speaking)).toBe(false);
  const afterLeaving = (await spoken(page)).length;
  await page.waitForTimeout(900);
  expect((await spoken(page)).length).toBe(afterLeaving);

  // The setting survives a reload, and the story opens without talking by itself.
  await page.goto(storyUrl);
  await expect(narratorBubbles.last()).toBeVisible({ timeout: 15_000 });
  await page.waitForTimeout(1000);
  expect(await spoken(page)).toEqual([]);
  controls = await openDrawer(page);
  await expect(controls.toggle).toBeChecked();
  await expect(controls.picker).toHaveValue('browser:Google US English');
  await controls.picker.selectOption('browser:Alice');
  await page.reload();
  controls = await openDrawer(page);
  await expect(controls.toggle).toBeChecked();
  await expect(controls.picker).toHaveValue('browser:Alice');
  await controls.play.click();
  await expect.poll(async () => (await spoken(page))[0]?.voice).toBe('Alice');
  // Checked once the controls have finished fading in from their disabled look.
  await expect(controls.pause).toHaveCSS('opacity', '1');
  await expectNoSeriousViolations(page);
});
