// `npm run bench:story-ui`: how a long story opens and scrolls in a real browser. Builds a story of
// BENCH_TURNS turns (default 1,000: 2,001 messages, narrator replies written by the builtin
// narrator) with BENCH_IMAGES scene pictures (default 200, painted by the builtin painter and
// stored as the jobs store them) straight into an embedded database, serves the built app (`npm
// run build` first), and drives the system Chromium: time until the last message is on screen,
// long tasks while opening, bubbles in the DOM, and frame times while scrolling up through the
// story. Prints figures; asserts nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createBuiltinPainter } from '../../server/ai/image/builtin';
import { toStoredImage } from '../../server/ai/image/stored-image';
import { artStyleFor } from '../../server/ai/image/style-heuristics';
import { composeReply } from '../../server/ai/llm/builtin/narrator';
import { loadEnglish } from '../../server/ai/llm/builtin/action';
import { sceneFromReply } from '../../server/domains/images/scene-prompt';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/kernel/config';
import { openDatabase } from '../../server/db/client';
import { createRepositories } from '../../server/db/repositories';
import { percentile } from './lib/stats';
import { listenAppOnLoopback } from '../../server/test/listen-on-loopback';

const TURNS = Number(process.env.BENCH_TURNS ?? 1000);
const IMAGES = Number(process.env.BENCH_IMAGES ?? 200);
const SCROLL_MS = Number(process.env.BENCH_SCROLL_MS ?? 4000);
const ACTIONS = [
  'I look around',
  'I follow the path north',
  'I ask the stranger who they are',
  'I open the old chest',
  'I listen at the door',
  'I climb higher',
];

async function seedStory(dataDir: string, userId: number): Promise<{ storyId: number; lastMessageId: number }> {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const repos = createRepositories(database.db);
  const premise = 'A lighthouse keeper on a storm-bound island finds a door in the rock that was not there yesterday';
  const start = Date.now() - TURNS * 60_000;
  const { story } = await repos.stories.create({ userId, premise, now: new Date(start), leaseUntil: new Date(start) });
  let lastMessageId = 0;
  const replies: Array<{ id: number; content: string }> = [];
  const english = await loadEnglish();
  // The turns before each action, as the server passes them (continuity reads the player's).
  const recent: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (let turn = 0; turn <= TURNS; turn += 1) {
    const action = turn === 0 ? premise : ACTIONS[turn % ACTIONS.length];
    if (turn > 0) await repos.stories.appendAction(story.id, action, new Date(start + turn * 60_000));
    const content = composeReply(
      { storyId: story.id, turn, attempt: 0, premise, action, recent: recent.slice(-6) },
      english,
    );
    recent.push({ role: 'user', content: action }, { role: 'assistant', content });
    const reply = await repos.stories.saveReply({
      storyId: story.id,
      turn,
      content,
      alternativeTo: null,
      usage: null,
      now: new Date(start + turn * 60_000 + 1000),
    });
    lastMessageId = reply.id;
    replies.push({ id: reply.id, content });
  }
  // Every fifth reply gets its picture (BENCH_IMAGES of them), the newest ones first, as a player who
  // switched pictures on would have them; each is painted and stored exactly as a job does it.
  const painter = createBuiltinPainter({} as never);
  const every = Math.max(1, Math.floor(replies.length / Math.max(1, IMAGES)));
  const pictured = replies.filter((_, i) => i % every === 0).slice(-IMAGES);
  for (const reply of pictured) {
    const scene = sceneFromReply(reply.content);
    const { bytes } = await painter.generate({
      prompt: scene,
      negativePrompt: '',
      sceneText: scene,
      styleSheet: { artStyle: artStyleFor(premise, 'general'), player: '', characters: [] },
      contentRating: 'general',
      seed: 1,
      width: 1024,
      height: 576,
      signal: new AbortController().signal,
    });
    const asset = await toStoredImage(bytes);
    const image = await repos.images.request({
      userId,
      storyId: story.id,
      messageId: reply.id,
      scene,
      now: new Date(),
    });
    if (image)
      await repos.images.complete(
        image.id,
        asset,
        {
          userId,
          storyId: story.id,
          kind: 'image',
          provider: 'builtin',
          model: 'taleweaver-painter',
          imageTokens: 1000,
        },
        new Date(),
      );
  }
  await repos.preferences.upsert(userId, { imageGeneration: IMAGES > 0 }, new Date());
  await database.close();
  return { storyId: story.id, lastMessageId };
}

async function measureScroll(page: Page) {
  return page.evaluate(async (durationMs) => {
    const longTasks: number[] = [];
    const observer = new PerformanceObserver((list) =>
      list.getEntries().forEach((entry) => longTasks.push(entry.duration)),
    );
    observer.observe({ type: 'longtask', buffered: false });
    const frames: number[] = [];
    const started = performance.now();
    let last = started;
    await new Promise<void>((resolve) => {
      const step = (now: number) => {
        frames.push(now - last);
        last = now;
        // About 3,000 px a second: a fast flick upwards, sustained.
        window.scrollBy(0, -50);
        if (now - started < durationMs) requestAnimationFrame(step);
        else resolve();
      };
      requestAnimationFrame(step);
    });
    observer.disconnect();
    return {
      frames: frames.slice(1),
      longTasks,
      scrolledPx: Math.round(document.documentElement.scrollHeight - window.scrollY - window.innerHeight),
    };
  }, SCROLL_MS);
}

/** BENCH_PROFILE=1: a CPU profile of one opening, summed by function (self time), to see where it goes. */
async function profileOpen(page: Page, url: string, lastMessageId: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.goto(url);
  await page.locator(`[data-message-id="${lastMessageId}"]`).waitFor({ state: 'visible', timeout: 60_000 });
  const { profile } = (await cdp.send('Profiler.stop')) as {
    profile: {
      nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
      samples: number[];
      timeDeltas: number[];
    };
  };
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id);
    const key = frame
      ? `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`
      : '?';
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const top = [...self]
    .filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20);
  console.log('CPU profile of one opening, self time:');
  for (const [name, ms] of top) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${name}`);
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'tw-bench-ui-'));
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, BUILTIN_NARRATOR_WORD_DELAY_MS: '0' }),
    serveClient: true,
  };
  // Register through the app, then write the long story directly while the app is closed.
  let database = await openDatabase({ kind: 'pglite', dataDir });
  await database.migrate();
  let app = await buildApp(config, { database, logger: false });
  const username = `bench${Date.now()}`;
  const password = 'benchmark-password';
  const captcha = await app.inject({ method: 'GET', url: '/api/captcha' });
  const cookie = captcha.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const [, a, op, b] = /What is (\d+) (.) (\d+)\?/.exec(captcha.json().question) ?? [];
  const answer = op === '+' ? +a + +b : op === '-' ? +a - +b : +a * +b;
  const registered = await app.inject({
    method: 'POST',
    url: '/api/register',
    headers: { cookie },
    payload: { username, email: `${username}@example.com`, password, captchaAnswer: String(answer) },
  });
  const userId = registered.json().id as number;
  await app.close();
  await database.close();

  const seedStarted = performance.now();
  const { storyId, lastMessageId } = await seedStory(dataDir, userId);
  console.log(
    `seeded ${TURNS} turns (${TURNS * 2 + 1} messages) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );

  database = await openDatabase({ kind: 'pglite', dataDir });
  app = await buildApp(config, { database, logger: false });
  const { url: base } = await listenAppOnLoopback(app);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const login = await context.request.post(`${base}/api/login`, {
      data: { username, password },
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
    });
    if (!login.ok()) throw new Error(`login failed: ${login.status()}`);
    // tsx keeps function names with a `__name` helper that functions sent to the page would miss.
    await context.addInitScript({ content: 'window.__name = (fn) => fn;' });
    if (process.env.BENCH_CSS)
      await context.addInitScript({
        content: `document.addEventListener('DOMContentLoaded', () => { const s = document.createElement('style'); s.textContent = ${JSON.stringify(process.env.BENCH_CSS)}; document.head.append(s); });`,
      });
    const page = await context.newPage();
    // Warm the HTTP cache with the app's code, as a returning player has it.
    await page.goto(`${base}/`);
    await page.waitForLoadState('networkidle');

    // Long tasks while the story opens, buffered from each navigation on.
    await page.addInitScript({
      content:
        "window.__longTasks = []; new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__longTasks.push(e.duration))).observe({ type: 'longtask', buffered: true });",
    });
    if (process.env.BENCH_PROFILE) await profileOpen(page, `${base}/story/${storyId}`, lastMessageId);
    const results: Array<Record<string, number>> = [];
    for (let run = 0; run < 3; run += 1) {
      await page.goto(`${base}/story/${storyId}`);
      await page.locator(`[data-message-id="${lastMessageId}"]`).waitFor({ state: 'visible', timeout: 60_000 });
      const opened = await page.evaluate(() => performance.now());
      const openLongTasks = await page.evaluate(() =>
        ((window as unknown as { __longTasks: number[] }).__longTasks ?? []).slice(),
      );
      const stateFetch = await page.evaluate(
        () => performance.getEntriesByType('resource').find((e) => e.name.includes('/current-state'))?.duration ?? 0,
      );
      // Where the opening time goes: each API call's start and end since navigation.
      const waterfall = await page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((e) => e.name.includes('/api/') || e.name.endsWith('.js'))
          .map(
            (e) =>
              `${new URL(e.name).pathname.replace(/^\/assets\//, '')} ${e.startTime.toFixed(0)}→${e.responseEnd.toFixed(0)}`,
          )
          .join(', '),
      );
      if (run === 0) console.log(`  first run's requests (ms since navigation): ${waterfall}`);
      await page.waitForTimeout(300);
      const bubbles = await page.locator('[role="log"] article').count();
      const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
      const heapMb = await page.evaluate(
        () => ((performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0) / 1e6,
      );
      const scroll = await measureScroll(page);
      results.push({
        openMs: opened,
        openLongTasks: openLongTasks.length,
        openLongestTask: openLongTasks.length ? Math.max(...openLongTasks) : 0,
        images: await page.locator('[role="log"] img').count(),
        stateFetchMs: stateFetch,
        bubbles,
        domNodes,
        heapMb,
        frameP50: percentile(scroll.frames, 50),
        frameP95: percentile(scroll.frames, 95),
        frameMax: Math.max(...scroll.frames),
        framesOver50: scroll.frames.filter((f) => f > 50).length,
        frames: scroll.frames.length,
        longTasks: scroll.longTasks.length,
        scrolledPx: scroll.scrolledPx,
      });
    }
    console.log(
      `story of ${TURNS} turns (${TURNS * 2 + 1} messages) with ${IMAGES} pictures, Chromium ${browser.version()}, 1280x800, warm cache; 3 runs:`,
    );
    for (const r of results) {
      console.log(
        `  open ${r.openMs.toFixed(0)} ms (current-state fetch ${r.stateFetchMs.toFixed(0)} ms, ${r.openLongTasks} long tasks, longest ${r.openLongestTask.toFixed(0)} ms) · ${r.bubbles} bubbles and ${r.images} pictures in the DOM, ${r.domNodes} elements, JS heap ${r.heapMb.toFixed(1)} MB · ` +
          `scroll ${SCROLL_MS / 1000} s over ${r.scrolledPx} px: frame p50 ${r.frameP50.toFixed(1)} ms, p95 ${r.frameP95.toFixed(1)} ms, max ${r.frameMax.toFixed(1)} ms, ${r.framesOver50}/${r.frames} frames over 50 ms, ${r.longTasks} long tasks`,
      );
    }
  } finally {
    await browser.close();
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
