// What client generators read: the served GET /api/openapi.json passes Redocly's linter (its
// `recommended` rules, as redocly.yaml sets them) with no error and no warning, and the TypeScript
// types generated from it (shared/api/openapi-types.ts, `npm run api:types`) are the committed ones.
import { readFileSync } from 'node:fs';
import { createConfig, lintFromString, loadConfig, type NormalizedProblem } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '@server/test/test-app';
import { OPENAPI_TYPES_FILE, renderOpenApiTypes, ROOT } from '../../../scripts/api/openapi-types';
import { OPENAPI_PATH } from './openapi';

type Operation = { operationId?: string; summary?: string; security?: unknown[]; responses: Record<string, unknown> };
type Document = { paths: Record<string, Record<string, Operation>> };

let ctx: TestContext;
let body: string;
beforeAll(async () => {
  ctx = await createTestApp();
  const res = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(res.statusCode).toBe(200);
  body = res.body;
});
afterAll(() => ctx.close());

/** A problem as one line: the rule, where, and what it says. */
function described(problem: NormalizedProblem): string {
  const where = problem.location.map((location) => location.pointer).join(', ');
  return `${problem.severity} ${problem.ruleId} at ${where}: ${problem.message}`;
}

async function lint(source: string, config: Awaited<ReturnType<typeof loadConfig>>): Promise<string[]> {
  const problems = await lintFromString({ source, absoluteRef: `${ROOT}openapi.json`, config });
  return problems.filter((problem) => !problem.ignored).map(described);
}

function operations(document: Document): Array<[string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, Operation] => [
      `${method.toUpperCase()} ${path}`,
      operation,
    ]),
  );
}

describe('GET /api/openapi.json, linted', () => {
  it("has no problem under Redocly's recommended rules (redocly.yaml)", async () => {
    const config = await loadConfig({ configPath: `${ROOT}redocly.yaml` });
    expect(await lint(body, config)).toEqual([]);
  });

  it('warns under the bare recommended set only where redocly.yaml says why the rule does not fit', async () => {
    const problems = await lint(body, await createConfig({ extends: ['recommended'] }));
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'warn info-license at #/info',
      'warn operation-4xx-response at #/paths/~1healthz/get/responses',
      'warn operation-4xx-response at #/paths/~1healthz/head/responses',
      'warn operation-4xx-response at #/paths/~1readyz/get/responses',
      'warn operation-4xx-response at #/paths/~1readyz/head/responses',
    ]);
  });

  it('would be told of a problem: the linter reads this document', async () => {
    const broken: Document = JSON.parse(body);
    delete broken.paths['/api/register'].post.summary;
    const config = await loadConfig({ configPath: `${ROOT}redocly.yaml` });
    expect(await lint(JSON.stringify(broken), config)).toEqual([
      expect.stringMatching(/^error operation-summary at #\/paths\/~1api~1register\/post\/summary: /),
    ]);
  });

  it('gives every /api operation a 4xx answer (the rule redocly.yaml leaves to this test)', () => {
    const api = operations(JSON.parse(body)).filter(([route]) => / \/api\//.test(route));
    expect(api.length).toBeGreaterThan(100);
    expect(
      api.filter(([, operation]) => !Object.keys(operation.responses).some((status) => status.startsWith('4'))),
    ).toEqual([]);
  });

  it('names every operation once, in camelCase from its method and path', () => {
    const all = operations(JSON.parse(body));
    const ids = all.map(([, operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(all.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(?:[A-Z0-9][a-z0-9]*)*$/);
    const byRoute = Object.fromEntries(all.map(([route, operation]) => [route, operation.operationId]));
    expect(byRoute).toMatchObject({
      'POST /api/register': 'postRegister',
      'HEAD /api/user': 'headUser',
      'POST /api/story/{storyId}/continue': 'postStoryByStoryIdContinue',
      'GET /api/story/{storyId}/messages/{messageId}/speech/{part}': 'getStoryByStoryIdMessagesByMessageIdSpeechByPart',
      'GET /api/openapi.json': 'getOpenapiJson',
      'GET /healthz': 'getHealthz',
    });
  });
});

describe('shared/api/openapi-types.ts', () => {
  it('is what openapi-typescript makes of the served document', async () => {
    const committed = readFileSync(OPENAPI_TYPES_FILE, 'utf8').split('\n');
    const generated = (await renderOpenApiTypes(body)).split('\n');
    // The first line that differs, not a diff of the whole 9,000-line file.
    const found = generated.findIndex((text, index) => committed[index] !== text);
    const at = found === -1 ? generated.length : found;
    const stale =
      found === -1 && committed.length === generated.length ? null : { line: at + 1, generated: generated[at] ?? '' };
    expect(stale, 'out of date: run `npm run api:types`').toBeNull();
  });
});
