// The home route stays light (stack notes: 150 KB gzip of JS and CSS at most): every script and
// stylesheet the browser fetches to show '/' is gzipped here and summed. The story page's drawer,
// narration, voice input and ads code must not be among them: they load with the story page (Home
// prefetches that page 1.5 s after it shows, once idle; what is counted is what '/' needs first).
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { HOME_STRINGS } from '../client/features/home/strings';
import { gotoHome } from './helpers';

const HOME_ROUTE_BUDGET_BYTES = 150 * 1024;

test('the home route loads under 150 KB gzip of JS and CSS, without the story page’s speech and ads code', async ({
  page,
}) => {
  const assets: Array<{ url: string; body: Buffer }> = [];
  const pending: Array<Promise<void>> = [];
  let counting = true;
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (!counting || (type !== 'script' && type !== 'stylesheet')) return;
    pending.push(
      response.body().then(
        (body) => void assets.push({ url: response.url(), body }),
        () => undefined,
      ),
    );
  });
  await gotoHome(page);
  await expect(page.getByPlaceholder(HOME_STRINGS.scenarioPlaceholder)).toBeVisible();
  await page.waitForLoadState('load');
  await page.waitForTimeout(300);
  counting = false;
  await Promise.all(pending);

  const gzipBytes = assets.reduce((sum, asset) => sum + gzipSync(asset.body, { level: 9 }).length, 0);
  test.info().annotations.push({
    type: 'home route',
    description: `${assets.length} files, ${(gzipBytes / 1024).toFixed(1)} KB gzip`,
  });
  expect(assets.length).toBeGreaterThan(0);
  expect(gzipBytes).toBeLessThan(HOME_ROUTE_BUDGET_BYTES);

  const loaded = assets.map((asset) => asset.body.toString('utf8')).join('\n');
  for (const marker of ['speechSynthesis', 'SpeechRecognition', 'MediaRecorder', 'Advertisement Settings']) {
    expect(loaded, `${marker} is loaded by the home route`).not.toContain(marker);
  }
});
