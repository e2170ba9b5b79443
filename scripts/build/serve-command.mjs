// How scripts start a checkout's server the way `npm run serve` (and so `npm start`) runs it: the
// compiled bundle with the node flags of package.json's "serve" script, one source of truth for
// both. `serverArgv(dir)` builds the checkout's bundle once per process first, so a benchmark never
// measures a stale one. A checkout from before the compiled server (no build-server.mjs, e.g. a
// baseline for --compare) runs through tsx with the heap limit its `npm start` gave it. The build
// script sits in scripts/build/ now, in scripts/ in older checkouts.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const built = new Set();

/** The node arguments that start `dir`'s server (run with cwd = dir). */
export function serverArgv(dir = '.', { build = true } = {}) {
  const root = resolve(dir);
  const buildScript = ['scripts/build/build-server.mjs', 'scripts/build-server.mjs'].find((path) =>
    existsSync(join(root, path)),
  );
  if (!buildScript) return ['--max-old-space-size=512', '--import', 'tsx', 'server/main.ts'];
  if (build && !built.has(root)) {
    execFileSync(process.execPath, [buildScript], { cwd: root, stdio: 'inherit' });
    built.add(root);
  }
  const serve = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.serve;
  const [command, ...args] = serve.trim().split(/\s+/);
  if (command !== 'node') throw new Error(`package.json's serve script should start with node: ${serve}`);
  return args;
}
