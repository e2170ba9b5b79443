// Browser journeys: Playwright drives the system Chromium (no browser download) against the built
// app, started by e2e/support/e2e-server.mjs on a loopback port with a fresh embedded database.
import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3210);
/** The app wired to the fake narrator; specs reach it through FAKE_LLM_APP_URL. */
export const fakeLlmPort = port + 1;
process.env.FAKE_LLM_APP_URL = `http://127.0.0.1:${fakeLlmPort}`;
/** That app's fake speech server (server voices, transcription, sponsor page); specs read its /__requests. */
const fakeSpeechPort = port + 2;
process.env.FAKE_SPEECH_URL = `http://127.0.0.1:${fakeSpeechPort}`;
// Debian's chromium-headless-shell (the same Chromium release, its rendering engine without the
// desktop browser around it; what Playwright itself runs headless) when installed, else Debian's
// chromium. Measured here on three spec files, two workers: 124 CPU seconds against 187.
const executablePath =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ??
  '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright-results.json' }]],
  // A journey is a whole user flow in a real browser; on a busy 2-core machine 30 s was too tight for the longer ones.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  outputDir: '.tmp/test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Measured on the 2-core CI machine (story-versions journeys, CPU seconds of the whole run): a
    // trace with screenshots recorded a screencast of every journey, 235 s; without its screenshots
    // (the DOM snapshots stay, and a failure still gets its own screenshot) and with reduced motion
    // (the app's animations last 1 ms, as a player who asks for that sees them), 158 s.
    trace: { mode: 'retain-on-failure', screenshots: false },
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // A fake microphone (a beeping tone) that needs no prompt, for the voice-input journeys.
        // Harmless to the others: nothing else opens a media device.
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [
    {
      command: `node e2e/support/e2e-server.mjs ${port}`,
      url: `http://127.0.0.1:${port}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    // The same app with a fake OpenAI-compatible narrator that fails on demand (e2e/story-faults.spec.ts),
    // and fake server voices and transcription (e2e/narration.spec.ts, e2e/voice-input.spec.ts).
    {
      command: `E2E_SPEECH_PORT=${fakeSpeechPort} node e2e/support/e2e-server.mjs ${fakeLlmPort} --fake-llm`,
      url: `http://127.0.0.1:${fakeLlmPort}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
