// What a first visit downloads: for each built client given (default dist/client), serves it on a
// loopback port (static files, SPA fallback, /api answering 401 as for a visitor), opens routes in
// Debian's Chromium and sums the JS and CSS fetched until the page has settled, raw and gzipped
// (level 9, as a compressing proxy would send it). Then, for the first build given, the home route
// on the wire from the real server, compression off and on (scripts/bench/bundle-wire.ts): bytes
// sent and the median of BENCH_LOADS cold loads (default 20; 0 skips it). Prints tables; asserts nothing.
// Usage: npm run bench:bundle -- [distDir ...]   e.g. a build of the previous commit beside this one.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { measureWire } from './bundle-wire';
import { listenOnLoopback } from '../../server/test/listen-on-loopback';
import { formatKb } from './lib/report';

const ROUTES = ['/', '/story/1', '/shared/test'];
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

async function serve(root: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    if (path.startsWith('/api/')) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"message":"Authentication required","code":"UNAUTHORIZED"}');
      return;
    }
    let file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await listenOnLoopback(server);
  return server;
}

const kb = (bytes: number) => formatKb(bytes);

const dists = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['dist/client']).map((d) => resolve(d));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
console.log('| build | route | files | JS+CSS raw | JS+CSS gzip |');
console.log('|---|---|---|---|---|');
for (const dist of dists) {
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist} has no index.html: build it first`);
  const server = await serve(dist);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const route of ROUTES) {
    const page = await browser.newPage();
    const bodies: Array<Promise<Buffer | null>> = [];
    let counting = true;
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (counting && (type === 'script' || type === 'stylesheet')) bodies.push(response.body().catch(() => null));
    });
    await page.goto(origin + route, { waitUntil: 'load' });
    // Settled: the route's lazy chunk is in; Home's idle prefetch of the story page (1.5 s) is not.
    await page.waitForTimeout(500);
    counting = false;
    const files = (await Promise.all(bodies)).filter((b): b is Buffer => b !== null);
    const raw = files.reduce((sum, b) => sum + b.length, 0);
    const gzip = files.reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0);
    console.log(`| ${dist.replace(process.cwd() + '/', '')} | ${route} | ${files.length} | ${kb(raw)} | ${kb(gzip)} |`);
    await page.close();
  }
  server.close();
}
const loads = Number(process.env.BENCH_LOADS ?? 20);
if (loads > 0) await measureWire(browser, dists[0], loads);
await browser.close();
