// The container recipe, checked as far as a machine without a container engine can: the Dockerfile's
// command is exactly what `npm run serve` runs, and run as a plain process with the image's settings
// it serves, passes the image's own HEALTHCHECK and drains to exit 0 on SIGTERM; it runs as a
// non-root user under tini. compose.yaml parses and wires two instances, PostgreSQL, Redis and a
// proxy the way docs/operations.md says. (`docker-compose config` was also run by hand: see there.)
// The operator's commands (admin, backup, restore) run from the same build, as they do in the image.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '@server/kernel/config';
import { serverArgv } from '../scripts/build/serve-command.mjs';
import { seededDataDir } from './test/spawn-server';

const run = promisify(execFile);

/** The Dockerfile's instructions of the final stage, continuation lines joined. */
async function finalStage(): Promise<Array<{ op: string; args: string }>> {
  const text = (await readFile('Dockerfile', 'utf8')).replace(/\\\n\s*/g, ' ');
  const lines = text.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
  const instructions = lines.map((line) => {
    const [, op, args] = /^\s*(\w+)\s+(.*)$/.exec(line) ?? [];
    return { op: op.toUpperCase(), args: args.trim() };
  });
  const lastFrom = instructions.map((i) => i.op).lastIndexOf('FROM');
  return instructions.slice(lastFrom);
}

describe('Dockerfile', () => {
  it('runs what `npm run serve` runs, as the node user under tini, with a health check', async () => {
    const stage = await finalStage();
    const one = (op: string) => stage.filter((i) => i.op === op).map((i) => i.args);
    const cmd = JSON.parse(one('CMD')[0]) as string[];
    expect(cmd).toEqual(['node', ...serverArgv('.', { build: false })]);
    expect(JSON.parse(one('ENTRYPOINT')[0])).toEqual(['/usr/bin/tini', '--']);
    expect(one('USER')).toEqual(['node']);
    expect(one('RUN').join('\n')).toContain('npm ci --omit=dev');
    expect(one('COPY').join('\n')).toContain('--from=build /app/dist ./dist');
    expect(one('HEALTHCHECK')[0]).toMatch(/CMD \["node", "-e", ".*\/healthz/);
  });

  it('serves with the image’s settings as a plain process, passes its HEALTHCHECK and exits 0 on SIGTERM', async () => {
    const stage = await finalStage();
    const env: Record<string, string> = {};
    for (const { args } of stage.filter((i) => i.op === 'ENV')) {
      for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g)) env[key] = value;
    }
    expect(env).toMatchObject({ NODE_ENV: 'production', DATA_DIR: '/data', LOG_FORMAT: 'json' });
    const healthcheck = /CMD (\[.*\])$/.exec(stage.find((i) => i.op === 'HEALTHCHECK')!.args)![1];
    const [, ...probeArgs] = JSON.parse(healthcheck) as string[];
    const [, ...serveArgs] = JSON.parse(stage.find((i) => i.op === 'CMD')!.args) as string[];
    serverArgv('.', { build: false }); // the process tier's global setup built dist/server
    expect(existsSync('dist/server/main.js')).toBe(true);

    // The volume as the image's first start leaves it (main.process.test.ts starts on an empty one).
    const dataDir = await seededDataDir('tw-container-');
    const child = spawn(process.execPath, serveArgs, {
      env: {
        ...process.env,
        ...env,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        SERVE_CLIENT: 'false',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let port = 0;
      for (let i = 0; i < 300 && !port; i += 1) {
        port = Number(/ready on http:\/\/localhost:(\d+)/.exec(output)?.[1] ?? 0);
        if (!port) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(port, output).toBeGreaterThan(0);
      // JSON lines, since the image sets LOG_FORMAT=json.
      const ready = output.split('\n').find((line) => line.includes('is ready on'))!;
      expect(JSON.parse(ready)).toMatchObject({ level: 30 });
      await run(process.execPath, probeArgs, { env: { ...process.env, PORT: String(port) } });
      await expect(run(process.execPath, probeArgs, { env: { ...process.env, PORT: '1' } })).rejects.toMatchObject({
        code: 1,
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);

      // The operator's commands run from the same build, as `npm run <name>` runs them in the image.
      const scripts = JSON.parse(await readFile('package.json', 'utf8')).scripts as Record<string, string>;
      const builtCommand = (name: string, args: string[], dir = dataDir) => {
        const [command, ...scriptArgs] = scripts[name].split(/\s+/);
        expect(command).toBe('node');
        return run(process.execPath, [...scriptArgs, ...args], {
          env: { ...process.env, ...env, DATA_DIR: dir, DATABASE_URL: '' },
        });
      };
      await expect(builtCommand('admin', ['grant', 'nobody'])).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('No account is named nobody'),
      });
      const backup = join(dataDir, 'taleweaver.backup.gz');
      await builtCommand('backup', [backup]);
      const restoredDir = join(dataDir, 'restored');
      const restored = await builtCommand('restore', [backup], restoredDir);
      expect(restored.stdout + restored.stderr).not.toMatch(/error/i);
      expect(existsSync(join(restoredDir, 'pgdata', 'PG_VERSION'))).toBe(true);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('compose.yaml', () => {
  it('runs two instances on one PostgreSQL and one Redis behind a proxy that reads readiness', async () => {
    const compose = parse(await readFile('compose.yaml', 'utf8'), { merge: true }) as {
      services: Record<
        string,
        { environment?: Record<string, string>; stop_grace_period?: string; volumes?: string[] }
      >;
    };
    const { app1, app2, proxy, postgres, redis } = compose.services;
    for (const app of [app1, app2]) {
      expect(app.environment).toMatchObject({
        DATABASE_URL: expect.stringMatching(/^postgres:\/\/taleweaver:.*@postgres:5432\/taleweaver$/),
        REDIS_URL: 'redis://redis:6379',
        TRUST_PROXY: '1',
        PUBLIC_URL: expect.stringMatching(/^\$\{PUBLIC_URL:-http/),
        METRICS_TOKEN: expect.any(String),
      });
      // The grace outlasts the drain.
      expect(Number(app.stop_grace_period?.replace(/s$/, '')) * 1000).toBeGreaterThan(
        Number(app.environment?.SHUTDOWN_DRAIN_MS),
      );
    }
    // As written (each ${NAME:-default} at its default), the settings pass the server's own checks.
    const asWritten = Object.fromEntries(
      Object.entries(app1.environment ?? {}).map(([name, value]) => [
        name,
        String(value).replace(/\$\{\w+:-([^}]*)\}/g, (_, fallback: string) => fallback),
      ]),
    );
    expect(() => loadConfig(asWritten)).not.toThrow();
    expect(postgres).toBeDefined();
    expect(redis).toBeDefined();
    const caddyfile = proxy.volumes?.[0].split(':')[0] ?? '';
    const caddy = await readFile(caddyfile, 'utf8');
    expect(caddy).toMatch(/reverse_proxy app1:3000 app2:3000/);
    expect(caddy).toMatch(/health_uri \/readyz/);
    expect(caddy).toMatch(/flush_interval -1/);
    expect(caddy).toMatch(/respond \/metrics 404/);
  });
});
