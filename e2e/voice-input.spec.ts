// Voice input in Chromium. On the default app (no server transcription) the browser's own
// recogniser is used: a stub webkitSpeechRecognition installed before the page loads answers
// 'look behind the door' when the test speaks, or fails with 'not-allowed', or is missing
// altogether. On the app wired to the fake OpenAI-compatible speech server (STT_PROVIDER set) the
// microphone records through MediaRecorder from Chromium's fake device and the server's transcript
// comes back. Either way the words join what was typed and are never sent by themselves.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { DEFAULT_TRANSCRIPT } from '../server/test/fake-speech-server';
import { STORY_STRINGS } from '../client/features/story/strings';
import { VOICE_INPUT_STRINGS } from '../client/features/voice-input/strings';
import { beginStory, registerThroughUi, signUp } from './helpers';

type StubMode = 'result' | 'not-allowed' | 'none';

interface RecognitionRecord {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  starts: number;
}

const input = (page: Page) => page.getByPlaceholder(STORY_STRINGS.inputPlaceholder);
const playerBubbles = (page: Page) => page.getByRole('article', { name: STORY_STRINGS.you });
const micButton = (page: Page) => page.getByRole('button', { name: VOICE_INPUT_STRINGS.speak });

/** Replaces the browser's recogniser before any page script runs (or removes it, for 'none'). */
async function installRecognitionStub(page: Page, mode: StubMode) {
  await page.addInitScript((stubMode: StubMode) => {
    const target = window as unknown as Record<string, unknown>;
    if (stubMode === 'none') {
      delete target.SpeechRecognition;
      delete target.webkitSpeechRecognition;
      return;
    }
    class StubRecognition extends EventTarget {
      lang = '';
      continuous = true;
      interimResults = true;
      maxAlternatives = 0;
      private ended = false;

      start() {
        const previous = target.__recognition as { starts?: number } | undefined;
        target.__recognition = {
          lang: this.lang,
          continuous: this.continuous,
          interimResults: this.interimResults,
          maxAlternatives: this.maxAlternatives,
          starts: (previous?.starts ?? 0) + 1,
        };
        if (stubMode === 'result') {
          // The words are 'heard' only when the test says so, so the listening state lasts as long
          // as the test needs to see it, however busy the machine is.
          target.__speak = () => {
            if (this.ended) return;
            const results = [
              Object.assign([{ transcript: 'look behind the door', confidence: 0.93 }], { isFinal: true }),
            ];
            this.dispatchEvent(Object.assign(new Event('result'), { resultIndex: 0, results }));
            this.finish();
          };
          return;
        }
        setTimeout(() => {
          if (this.ended) return;
          this.dispatchEvent(Object.assign(new Event('error'), { error: 'not-allowed' }));
          this.finish();
        }, 400);
      }

      stop() {
        setTimeout(() => this.finish(), 0);
      }

      abort() {
        this.finish();
      }

      private finish() {
        if (this.ended) return;
        this.ended = true;
        this.dispatchEvent(new Event('end'));
      }
    }
    for (const name of ['SpeechRecognition', 'webkitSpeechRecognition']) {
      Object.defineProperty(window, name, { configurable: true, writable: true, value: StubRecognition });
    }
  }, mode);
}

async function grantMicrophone(context: BrowserContext, page: Page) {
  await context.grantPermissions(['microphone'], { origin: new URL(page.url()).origin });
}

async function startStoryWithDraft(page: Page, context: BrowserContext, draft: string) {
  await signUp(page);
  await beginStory(page, 'A lighthouse keeper finds a door in the rock below the lamp room');
  await grantMicrophone(context, page);
  await expect(playerBubbles(page)).toHaveCount(1);
  await input(page).fill(draft);
}

test.describe('voice input with the browser recogniser (no server transcription)', () => {
  test('the words heard join the typed action, with the spec settings, and are not sent', async ({ page, context }) => {
    await installRecognitionStub(page, 'result');
    await startStoryWithDraft(page, context, 'I lift the lantern');

    await micButton(page).click();
    // Listening: the toggle is pressed and says how to stop.
    const stop = page.getByRole('button', { name: VOICE_INPUT_STRINGS.stop });
    await expect(stop).toHaveAttribute('aria-pressed', 'true');
    // The toggle shows 'listening' from the click ('starting'), before the microphone check lets the recogniser start.
    await page.waitForFunction(() => typeof (window as unknown as { __speak?: unknown }).__speak === 'function');
    await page.evaluate(() => (window as unknown as { __speak: () => void }).__speak());

    await expect(input(page)).toHaveValue('I lift the lantern look behind the door');
    await expect(micButton(page)).toHaveAttribute('aria-pressed', 'false');
    await expect(input(page)).toBeFocused();
    const recognition = await page.evaluate(
      () => (window as unknown as { __recognition: RecognitionRecord }).__recognition,
    );
    expect(recognition).toEqual({
      lang: 'en-US',
      continuous: false,
      interimResults: false,
      maxAlternatives: 1,
      starts: 1,
    });

    // Never sent by itself: still one action in the story, and the words wait in the input.
    await page.waitForTimeout(300);
    await expect(playerBubbles(page)).toHaveCount(1);
    await expect(input(page)).toHaveValue('I lift the lantern look behind the door');
    // The draft is kept like anything typed.
    await page.reload();
    await expect(input(page)).toHaveValue('I lift the lantern look behind the door');
  });

  test("a 'not-allowed' recognition error asks for microphone access and keeps the draft", async ({
    page,
    context,
  }) => {
    await installRecognitionStub(page, 'not-allowed');
    await startStoryWithDraft(page, context, 'I knock twice');

    await micButton(page).click();
    await expect(page.getByText(VOICE_INPUT_STRINGS.permissionTitle, { exact: true })).toBeVisible();
    await expect(page.getByText(VOICE_INPUT_STRINGS.permissionText, { exact: true })).toBeVisible();
    await expect(micButton(page)).toHaveAttribute('aria-pressed', 'false');
    await expect(input(page)).toHaveValue('I knock twice');
  });

  test('a browser without SpeechRecognition is pointed to Chrome and keeps the draft', async ({ page, context }) => {
    await installRecognitionStub(page, 'none');
    await startStoryWithDraft(page, context, 'I wait for the tide');

    await micButton(page).click();
    await expect(page.getByText(VOICE_INPUT_STRINGS.recognitionUnsupportedTitle, { exact: true })).toBeVisible();
    await expect(page.getByText(VOICE_INPUT_STRINGS.recognitionUnsupportedText, { exact: true })).toBeVisible();
    await expect(input(page)).toHaveValue('I wait for the tide');
  });
});

// Needs the second e2e app (FAKE_LLM_APP_URL) started with STT_PROVIDER pointing at
// e2e/support/fake-speech.ts; the first assertion says so plainly when it is not.
test.describe('voice input with server transcription (MediaRecorder and the fake speech server)', () => {
  test.use({ baseURL: process.env.FAKE_LLM_APP_URL });

  test('records from the microphone, stops on the second click, and the transcript joins the typed action', async ({
    page,
    context,
  }) => {
    await registerThroughUi(page);
    const features = await page.evaluate(
      async () => (await fetch('/api/features')).json() as Promise<{ speech: { transcription: boolean } }>,
    );
    expect(
      features.speech.transcription,
      'the FAKE_LLM_APP_URL app must run with server transcription (STT_PROVIDER → e2e/support/fake-speech.ts)',
    ).toBe(true);
    await beginStory(page, 'A lighthouse keeper finds a door in the rock below the lamp room');
    await grantMicrophone(context, page);
    await input(page).fill('I lift the lantern');

    const upload = page.waitForRequest(
      (request) => request.url().endsWith('/api/speech/transcriptions') && request.method() === 'POST',
    );
    await micButton(page).click();
    const stop = page.getByRole('button', { name: VOICE_INPUT_STRINGS.stop });
    await expect(stop).toHaveAttribute('aria-pressed', 'true');
    // Let Chromium's fake device fill a second or so of audio.
    await page.waitForTimeout(1200);
    await stop.click();

    const request = await upload;
    expect(request.headers()['content-type']).toMatch(/^audio\/webm/);
    expect(request.headers()['x-requested-with']).toBe('XMLHttpRequest');
    await expect(input(page)).toHaveValue(`I lift the lantern ${DEFAULT_TRANSCRIPT}`, { timeout: 15_000 });
    await expect(micButton(page)).toHaveAttribute('aria-pressed', 'false');
    await expect(input(page)).toBeFocused();
    await expect(playerBubbles(page)).toHaveCount(1);
  });
});
