// The second half of `npm run bench:bundle`: what the home route costs on the wire from the real
// server. Runs the built app (buildApp over the given dist, an in-memory database) twice on
// loopback, COMPRESSION off ("before") and on ("after"), and measures for each:
// - the bytes of '/' as sent: index.html and the JS and CSS Chromium fetched until the page settled,
//   fetched again with `accept-encoding: gzip, deflate, br` and counted undecoded, body and headers;
//   Chromium's own count of the encoded bodies it received is printed beside them;
// - the load time: `loadEventEnd` of BENCH_LOADS cold loads of '/' (default 20, each in a new
//   browser context, so no cache and new connections), the two servers taken in turn so that a
//   busy machine slows both alike; on loopback, and on a link Chromium emulates (10 Mbit/s down,
//   40 ms round trip), where the bytes saved show. Prints figures; asserts nothing.
import { request as httpGet } from 'node:http';
import type { Browser } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/kernel/config';
import { openDatabase } from '../../server/db/client';
import { median, percentile } from './lib/stats';
import { formatKb, formatMs } from './lib/report';
import { listenAppOnLoopback } from '../../server/test/listen-on-loopback';

const ACCEPT_ENCODING = 'gzip, deflate, br';

interface Link {
  name: string;
  /** Chromium's network emulation (DevTools throttling, applied to the bytes as received); none on loopback. */
  emulate?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}
const LINKS: Link[] = [
  { name: 'loopback' },
  {
    name: '10 Mbit/s, 40 ms RTT',
    emulate: { latency: 40, downloadThroughput: (10e6 / 8) | 0, uploadThroughput: (5e6 / 8) | 0 },
  },
];
const COUNTED = new Set(['document', 'script', 'stylesheet']);

interface Sent {
  body: number;
  headers: number;
  encoding: string;
}

/** One GET as a browser sends it, counting the bytes that arrive, not the bytes they decode to. */
function fetchUndecoded(url: string): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { headers: { 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
      let body = 0;
      res.on('data', (chunk: Buffer) => (body += chunk.length));
      res.on('end', () => {
        const lines = [`HTTP/1.1 ${res.statusCode} ${res.statusMessage}`];
        for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({
          body,
          headers: Buffer.byteLength(lines.join('\r\n') + '\r\n\r\n'),
          encoding: String(res.headers['content-encoding'] ?? 'identity'),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface RouteBytes {
  files: number;
  body: number;
  headers: number;
  encodings: string;
  chromiumBody: number;
  chromiumAcceptEncoding: string;
}

async function homeRouteBytes(browser: Browser, origin: string): Promise<RouteBytes> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const seen: Array<Promise<{ url: string; body: number; acceptEncoding: string }>> = [];
  let counting = true;
  page.on('response', (response) => {
    const request = response.request();
    if (!counting || !COUNTED.has(request.resourceType())) return;
    seen.push(
      Promise.all([request.sizes(), request.allHeaders()]).then(([sizes, headers]) => ({
        url: response.url(),
        body: sizes.responseBodySize,
        acceptEncoding: headers['accept-encoding'] ?? '',
      })),
    );
  });
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  // Settled as in the first table: the route's lazy chunk is in, Home's idle prefetch is not.
  await page.waitForTimeout(500);
  counting = false;
  const received = await Promise.all(seen);
  await context.close();
  const sent = await Promise.all(received.map((r) => fetchUndecoded(r.url)));
  const count = (list: string[]) =>
    [...new Set(list)].map((e) => `${e} ×${list.filter((x) => x === e).length}`).join(', ');
  return {
    files: sent.length,
    body: sent.reduce((sum, s) => sum + s.body, 0),
    headers: sent.reduce((sum, s) => sum + s.headers, 0),
    encodings: count(sent.map((s) => s.encoding)),
    chromiumBody: received.reduce((sum, r) => sum + r.body, 0),
    chromiumAcceptEncoding: received[0]?.acceptEncoding ?? '',
  };
}

async function coldLoad(browser: Browser, origin: string, link: Link): Promise<{ load: number; dcl: number }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (link.emulate) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...link.emulate });
    }
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    // loadEventEnd is set once the load handlers have run, just after Playwright hears `load`.
    await page.waitForFunction(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.loadEventEnd,
    );
    return await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { load: nav.loadEventEnd, dcl: nav.domContentLoadedEventEnd };
    });
  } finally {
    await context.close();
  }
}

const kb = (bytes: number) => formatKb(bytes);
const ms = (value: number) => formatMs(value, 0);

export async function measureWire(browser: Browser, dist: string, loads: number): Promise<void> {
  const database = await openDatabase({ kind: 'pglite-memory' });
  await database.migrate();
  const variants: Array<{
    name: string;
    app: FastifyInstance;
    origin: string;
    load: Map<Link, number[]>;
    dcl: Map<Link, number[]>;
  }> = [];
  try {
    for (const [name, compression] of [
      ['before (COMPRESSION=false)', false],
      ['after (precompressed + @fastify/compress)', true],
    ] as const) {
      const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), serveClient: true, clientDir: dist, compression };
      const app = await buildApp(config, { database, logger: false });
      const { url: origin } = await listenAppOnLoopback(app);
      variants.push({
        name,
        app,
        origin,
        load: new Map(LINKS.map((l) => [l, []])),
        dcl: new Map(LINKS.map((l) => [l, []])),
      });
    }

    console.log(`\nThe home route on the wire from the real server (${dist.replace(process.cwd() + '/', '')}):\n`);
    console.log(
      `| server | files | body bytes sent (${ACCEPT_ENCODING}) | with headers | encodings | Chromium received (bodies) |`,
    );
    console.log('|---|---|---|---|---|---|');
    let acceptEncoding = '';
    for (const variant of variants) {
      const bytes = await homeRouteBytes(browser, variant.origin);
      acceptEncoding = bytes.chromiumAcceptEncoding;
      console.log(
        `| ${variant.name} | ${bytes.files} | ${kb(bytes.body)} | ${kb(bytes.body + bytes.headers)} | ${bytes.encodings} | ${kb(bytes.chromiumBody)} |`,
      );
    }
    console.log(`\nChromium sent accept-encoding: ${acceptEncoding}`);

    // One load each first, not counted: the servers' first answers pay for JIT and file opens.
    for (const variant of variants) await coldLoad(browser, variant.origin, LINKS[0]);
    for (let i = 0; i < loads; i += 1) {
      const order = i % 2 === 0 ? variants : [...variants].reverse();
      for (const link of LINKS) {
        for (const variant of order) {
          const timing = await coldLoad(browser, variant.origin, link);
          variant.load.get(link)?.push(timing.load);
          variant.dcl.get(link)?.push(timing.dcl);
        }
      }
    }
    console.log(
      `\n${loads} cold loads of '/' for each server and link, taken in turn (loadEventEnd, DOMContentLoaded end):\n`,
    );
    console.log('| link | server | load median | load p90 | load min | DOMContentLoaded median |');
    console.log('|---|---|---|---|---|---|');
    for (const link of LINKS) {
      for (const v of variants) {
        const load = v.load.get(link) ?? [];
        const dcl = v.dcl.get(link) ?? [];
        console.log(
          `| ${link.name} | ${v.name} | ${ms(median(load))} | ${ms(percentile(load, 90))} | ${ms(Math.min(...load))} | ${ms(median(dcl))} |`,
        );
      }
    }
  } finally {
    for (const variant of variants) await variant.app.close();
    await database.close();
  }
}
