// `npm test`: every tier, packed onto the machine's two cores. First the one production build
// (client and server, seconds). Then two lanes side by side: the Vitest tiers in one run (fast, api
// on PGlite and, with TEST_DATABASE_URL, on PostgreSQL, and process, whose servers start from that
// build); and, one after another, typecheck, lint, format and import cycles, then the browser
// journeys against the build. Each lane alone leaves a core idle part of the time (a database suite
// waits on its database, a journey on its page); side by side they keep both busy
// (docs/benchmarks.md, "Where npm test's time goes"). Each tier also runs alone: test:fast,
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
const built = await Promise.all([
  run('build', npx, ['vite', 'build', '--logLevel', 'warn']),
  run('build-server', process.execPath, ['scripts/build/build-server.mjs']),
]);
if (built.includes(false)) {
  counts.failed += built.filter((ok) => !ok).length;
  finish(false, counts);
}

async function vitestLane() {
  const report = '.tmp/vitest-results.json';
  rmSync(report, { force: true });
  let ok = await run('vitest', npx, [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    '--outputFile=' + report,
  ]);
  // A Vitest that ends without its report (or with no tests) ran nothing, whatever its exit code said:
  // that is a failure, never a pass.
  if (!existsSync(report)) {
    console.log('\nvitest ended without its report: counted as a failure');
    counts.failed += 1;
    return false;
  }
  if (JSON.parse(readFileSync(report, 'utf8')).numTotalTests === 0) {
    console.log('\nvitest ran no test: counted as a failure');
    ok = false;
  }
  addCounts(report, (r) => ({
    passed: r.numPassedTests,
    failed: r.numFailedTests + (ok ? 0 : r.numFailedTests === 0 ? 1 : 0),
  }));
  return ok;
}

async function checksThenBrowserLane() {
  const checks = [
    // TypeScript 7 (native): the same checks as 5.9, which stays for the tools that need its JS API
    // (typescript-eslint). One thread: the other core runs Vitest.
    [
      'typecheck',
      process.execPath,
      ['node_modules/typescript-7/bin/tsc', '-p', 'tsconfig.json', '--noEmit', '--singleThreaded'],
    ],
    ['lint', npx, ['eslint', '--max-warnings', '0', '.']],
    // --cache: a file unchanged since a run that found it formatted is not formatted again (node_modules/.cache).
    ['format', npx, ['prettier', '--check', '--cache', '--log-level', 'warn', '.']],
    ['import-cycles', process.execPath, ['scripts/lint/import-cycles.mjs']],
  ];
  let ok = true;
  for (const [name, command, args] of checks) {
    if (await run(name, command, args)) continue;
    counts.failed += 1;
    ok = false;
  }
  const report = '.tmp/playwright-results.json';
  rmSync(report, { force: true });
  const e2eOk = await run('playwright', npx, ['playwright', 'test']);
  addCounts(report, (r) => ({
    passed: r.stats.expected,
    failed: r.stats.unexpected + (r.stats.flaky ?? 0),
  }));
  if (!e2eOk && !existsSync(report)) counts.failed += 1;
  return ok && e2eOk;
}

const [unitOk, checksAndBrowserOk] = await Promise.all([vitestLane(), checksThenBrowserLane()]);
finish(unitOk && checksAndBrowserOk, counts);
