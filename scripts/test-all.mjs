// `npm test`: every tier, in the cheapest order. Stage 1 runs typecheck, lint and the one
// production build (client and server) side by side; stage 2 the Vitest tiers in one run (fast,
// api on PGlite and, with TEST_DATABASE_URL, on PostgreSQL, and process, whose servers start from
// that build); stage 3 the browser journeys against it. Each tier also runs alone: test:fast,
// test:api, test:process, test:browser (docs/development.md, Tests).
// It ends with one summary line: "N passed, N failed".
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const started = Date.now();
mkdirSync('.tmp', { recursive: true });

function run(name, command, args) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => {
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      process.stdout.write(`\n── ${name} (${seconds}s, exit ${code}) ──\n${output.trimEnd()}\n`);
      resolve(code === 0);
    });
  });
}

function finish(ok, counts) {
  const total = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nnpm test took ${total}s`);
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  process.exit(ok ? 0 : 1);
}

const counts = { passed: 0, failed: 0 };
function addCounts(file, read) {
  if (!existsSync(file)) return;
  const { passed, failed } = read(JSON.parse(readFileSync(file, 'utf8')));
  counts.passed += passed;
  counts.failed += failed;
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const stage1 = await Promise.all([
  run('typecheck', npx, ['tsc', '-p', 'tsconfig.json', '--noEmit']),
  run('lint', npx, ['eslint', '--max-warnings', '0', '.']),
  run('format', npx, ['prettier', '--check', '--log-level', 'warn', '.']),
  run('import-cycles', process.execPath, ['scripts/lint/import-cycles.mjs']),
  run('build', npx, ['vite', 'build', '--logLevel', 'warn']),
  run('build-server', process.execPath, ['scripts/build/build-server.mjs']),
]);
if (stage1.includes(false)) {
  counts.failed += stage1.filter((ok) => !ok).length;
  finish(false, counts);
}

const vitestReport = '.tmp/vitest-results.json';
rmSync(vitestReport, { force: true });
let unitOk = await run('vitest', npx, [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile=' + vitestReport,
]);
// A Vitest that ends without its report (or with no tests) ran nothing, whatever its exit code said:
// that is a failure, never a pass.
if (!existsSync(vitestReport)) {
  console.log('\nvitest ended without its report: counted as a failure');
  unitOk = false;
  counts.failed += 1;
} else if (JSON.parse(readFileSync(vitestReport, 'utf8')).numTotalTests === 0) {
  console.log('\nvitest ran no test: counted as a failure');
  unitOk = false;
}
addCounts(vitestReport, (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests + (unitOk ? 0 : r.numFailedTests === 0 ? 1 : 0),
}));

const e2eOk = await run('playwright', npx, ['playwright', 'test']);
addCounts('.tmp/playwright-results.json', (r) => ({
  passed: r.stats.expected,
  failed: r.stats.unexpected + (r.stats.flaky ?? 0),
}));
if (!e2eOk && !existsSync('.tmp/playwright-results.json')) counts.failed += 1;

finish(unitOk && e2eOk, counts);
