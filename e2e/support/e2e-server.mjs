// Starts the built app for the browser tests, as `npm start` runs it (dist/server with the serve
// script's node flags): a fresh embedded database in a temporary DATA_DIR (removed on exit) and a
// loopback port. Requires `npm run build` first.
// `node e2e/support/e2e-server.mjs PORT` uses the builtin narrator (faster words than the default, so
// journeys stay quick while streaming is still visible); `--fake-llm` points the app at a fake
// OpenAI-compatible server (e2e/support/fake-llm.ts) that can fail on demand, and also gives it server
// voices, server transcription and a sponsor from a fake speech server (e2e/support/fake-speech.ts,
// on E2E_SPEECH_PORT). The plain server keeps the defaults (browser voices only, a house ad) but for
// its narrators: two, so that the story drawer offers a pick.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { serverArgv } from '../../scripts/build/serve-command.mjs';

const port = process.argv[2] ?? '3210';
const useFakeLlm = process.argv.includes('--fake-llm');
if (!existsSync('dist/client/index.html') || !existsSync('dist/server/main.js')) {
  console.error('dist is missing: run `npm run build` before the browser tests.');
  process.exit(1);
}

const children = [];
const stop = (signal) => children.forEach((child) => child.kill(signal));
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

// The fake servers print their base URL as their first line.
async function firstLine(stream) {
  const lines = createInterface({ input: stream })[Symbol.asyncIterator]();
  return (await lines.next()).value;
}

async function startFakeLlm() {
  const fake = spawn(process.execPath, ['--import', 'tsx', 'e2e/support/fake-llm.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(fake);
  const line = await firstLine(fake.stdout);
  return { NARRATORS_FILE: fakeCatalogue(line.trim()), FAKE_NARRATOR_KEY: 'sk-e2e-key', LLM_TIMEOUT_MS: '10000' };
}

async function startFakeSpeech() {
  const fake = spawn(
    process.execPath,
    ['--import', 'tsx', 'e2e/support/fake-speech.ts', process.env.E2E_SPEECH_PORT ?? '0'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(fake);
  const line = await firstLine(fake.stdout);
  const baseUrl = line.trim();
  const speech = { BASE_URL: baseUrl, API_KEY: 'sk-e2e-speech-key' };
  return {
    TTS_PROVIDER: 'openai',
    TTS_BASE_URL: speech.BASE_URL,
    TTS_API_KEY: speech.API_KEY,
    TTS_MODEL: 'fake-tts',
    TTS_VOICES: 'nova,onyx',
    STT_PROVIDER: 'openai',
    STT_BASE_URL: speech.BASE_URL,
    STT_API_KEY: speech.API_KEY,
    STT_MODEL: 'fake-whisper',
    AD_SPONSOR_URL: `${new URL(baseUrl).origin}/sponsor`,
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'tw-e2e-'));
/**
 * The plain app offers two narrators (both the builtin one, with different windows), so the story
 * drawer shows its narrator picker (e2e/story-narrator.spec.ts).
 */
function builtinCatalogue() {
  const file = `${dataDir}-narrators.json`;
  const builtin = { provider: 'builtin', contextTokens: 8192 };
  writeFileSync(
    file,
    JSON.stringify({
      default: 'demo',
      narrators: [
        { ...builtin, id: 'demo', label: 'Demo narrator', description: 'The offline demo narrator.' },
        { ...builtin, id: 'long-memory', label: 'Demo narrator, long memory', contextTokens: 32768 },
      ],
    }),
  );
  return file;
}
/**
 * The fake-LLM app's narrators: Quill on the fake server (the default, which fails on demand) and
 * the builtin one, so a failed turn can be tried again with another (e2e/story-faults.spec.ts).
 */
function fakeCatalogue(baseUrl) {
  const file = `${dataDir}-narrators.json`;
  writeFileSync(
    file,
    JSON.stringify({
      default: 'quill',
      narrators: [
        {
          id: 'quill',
          label: 'Quill',
          provider: 'openai',
          baseUrl,
          apiKeyEnv: 'FAKE_NARRATOR_KEY',
          model: 'fake-narrator',
          contextTokens: 8192,
        },
        { id: 'demo', label: 'Demo narrator', provider: 'builtin', contextTokens: 8192 },
      ],
    }),
  );
  return file;
}
const narrator = useFakeLlm
  ? { ...(await startFakeLlm()), ...(await startFakeSpeech()) }
  : // 4 ms a word: a reply still streams over a dozen draws of the page (they come every 50 ms), and
    // the 70 journeys took 271 s against 295 at 12 ms.
    { BUILTIN_NARRATOR_WORD_DELAY_MS: '4', NARRATORS_FILE: builtinCatalogue() };
// The journeys expect an unlimited allowance whatever the shell running them has set. Every journey
// registers from 127.0.0.1, more than the production 30 an hour (and its sign-up forms check names,
// its account pages rename and change emails); the API suites test those limits.
const inheritedEnv = {
  ...process.env,
  REGISTER_MAX_PER_HOUR: '1000',
  CAPTCHA_MAX_PER_MINUTE: '600',
  USERNAME_CHECKS_PER_MINUTE: '600',
  EMAIL_UPDATES_PER_HOUR: '600',
};
delete inheritedEnv.USER_MONTHLY_TOKEN_LIMIT;
const app = spawn(process.execPath, serverArgv('.', { build: false }), {
  stdio: 'inherit',
  env: {
    ...inheritedEnv,
    ...narrator,
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    ADMIN_USERNAMES: 'e2eadmin,e2eboss',
  },
});
children.push(app);
app.on('exit', (code) => {
  stop('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}-narrators.json`, { force: true });
  process.exit(code ?? 0);
});
