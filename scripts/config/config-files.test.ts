// The settings are written in three places a reader meets, kept in step: the registry the server
// checks (server/kernel/config/registry.ts), docs/configuration.md and .env.example, both written
// from it by `npm run config`. A variable added to the registry and not to the files, a file edited
// by hand, or an entry without its doc or topic fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTING_ENTRIES } from '@server/kernel/config/registry';
import { SETTING_GROUPS } from '@server/kernel/config/setting';
import { expandProse } from './configuration-doc';
import { renderEnvExample, type NamedSetting } from './env-example';
import { configFiles, PATHS } from './write';

const names = SETTING_ENTRIES.map((entry) => entry.name);
/** The longest one-line doc: a line of .env.example past its '# '. */
const DOC_MAX = 110;

describe('the settings registry', () => {
  it('gives every entry a one-line doc and one of the document topics', () => {
    expect(names.length).toBeGreaterThan(80);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of SETTING_ENTRIES) {
      expect(entry.doc.trim(), entry.name).not.toBe('');
      expect(entry.doc, entry.name).not.toMatch(/\n/);
      expect(entry.doc.length, `${entry.name}'s doc is longer than a line`).toBeLessThanOrEqual(DOC_MAX);
      expect(SETTING_GROUPS, entry.name).toContain(entry.group);
    }
    for (const group of SETTING_GROUPS) {
      const entries = SETTING_ENTRIES.filter((entry) => entry.group === group);
      expect(entries.length, group).toBeGreaterThan(0);
      expect(
        entries.some((entry) => entry.example !== undefined),
        `${group} has an example`,
      ).toBe(true);
    }
  });

  it('holds defaults and examples its own schemas accept', () => {
    for (const entry of SETTING_ENTRIES) {
      for (const value of [entry.default, entry.example]) {
        if (value !== undefined) expect(entry.schema.safeParse(value).success, `${entry.name}=${value}`).toBe(true);
      }
    }
  });

  it('marks every key, token and password secret', () => {
    for (const name of names.filter((n) => /_(API_KEY|TOKEN|SECRET|PASSWORD)$/.test(n))) {
      expect(SETTING_ENTRIES.find((entry) => entry.name === name)?.secret, name).toBe(true);
    }
  });
});

describe('docs/configuration.md and .env.example', () => {
  // Prettier formats the whole document: seconds on a busy machine.
  it('are what npm run config writes from the registry and the prose', async () => {
    const files = await configFiles();
    expect(readFileSync(PATHS.document, 'utf8'), 'run `npm run config`').toBe(files.document);
    expect(readFileSync(PATHS.example, 'utf8'), 'run `npm run config`').toBe(files.example);
  }, 60_000);

  it('list every variable once, and no other', () => {
    const document = readFileSync(PATHS.document, 'utf8');
    const rows = [...document.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((row) => row[1]);
    expect([...rows].sort()).toEqual([...names].sort());
    const example = readFileSync(PATHS.example, 'utf8');
    const lines = [...example.matchAll(/^# ([A-Z0-9_]+)=/gm)].map((line) => line[1]);
    expect([...lines].sort()).toEqual([...names].sort());
  });
});

const port: NamedSetting = {
  name: 'PORT',
  group: 'Server',
  doc: 'The `HTTP` port.',
  default: '3000',
  schema: SETTING_ENTRIES[0].schema,
};
const key: NamedSetting = { ...port, name: 'LLM_API_KEY', doc: 'The key.', default: undefined, secret: true };

describe('the writers', () => {
  it('show a default as the value and leave the others empty, under a header per topic', () => {
    const example = renderEnvExample([port, { ...key, group: 'Narrator' }]);
    expect(example).toContain('# ── Server ─');
    expect(example).toContain('# The HTTP port.\n# PORT=3000\n');
    expect(example).toContain('# The key. (secret)\n# LLM_API_KEY=\n');
    expect(example.indexOf('# ── Server')).toBeLessThan(example.indexOf('# ── Narrator'));
  });

  it('expand each topic marker into its heading, table, prose and example block', () => {
    const prose = [
      '<!-- what this file is -->',
      '# Title',
      ...SETTING_GROUPS.flatMap((group) => [`<!-- settings: ${group} -->`, `${group} prose.`]),
      '## After',
    ].join('\n');
    const document = expandProse(prose, [{ ...port, example: '8080' }, key]);
    expect(document).not.toContain('what this file is');
    expect(document).toContain('### Server\n\n| Variable | Default | Meaning |');
    expect(document).toContain('| `PORT` | `3000` | The `HTTP` port. |');
    expect(document).toContain('| `LLM_API_KEY` _(secret)_ | unset | The key. |');
    expect(document).toMatch(/Server prose\.\nFor example:\n\n```bash\nPORT=8080\n```\n/);
    expect(document.indexOf('Operations prose.')).toBeLessThan(document.indexOf('## After'));
    expect(() => expandProse('# Title\n<!-- settings: Server -->', [port])).toThrow(/once each, in order/);
    expect(() => expandProse('# Title\n<!-- settings: Nowhere -->', [port])).toThrow(/no settings group Nowhere/);
  });
});
