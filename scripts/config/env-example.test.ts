// The settings are written in three places a reader meets, kept in step: the schema the server
// checks (CONFIG_GROUPS), docs/configuration.md's table, and .env.example. A variable added to one
// and not the others, or an example not rewritten after the document changed, fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_GROUPS } from '@server/kernel/config';
import { documentedSettings, renderEnvExample, ROOT } from './env-example';

const documented = documentedSettings(readFileSync(`${ROOT}docs/configuration.md`, 'utf8'));
const schemaNames = CONFIG_GROUPS.flatMap((group) => group.names);

describe('the settings', () => {
  it('are each documented once in docs/configuration.md, and the document holds no other', () => {
    const names = documented.map((setting) => setting.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...schemaNames].sort());
    expect(schemaNames.length).toBeGreaterThan(80);
  });

  it('are in .env.example as npm run config:example writes it from the groups and the document', () => {
    const example = readFileSync(`${ROOT}.env.example`, 'utf8');
    expect(example, 'run `npm run config:example`').toBe(renderEnvExample(CONFIG_GROUPS, documented));
    for (const name of schemaNames) expect(example).toMatch(new RegExp(`^# ${name}=`, 'm'));
  });

  it('show a literal default as the value, and leave the others empty', () => {
    const example = renderEnvExample(
      [{ title: 'Server', names: ['PORT', 'DATABASE_URL'] }],
      [
        {
          name: 'PORT',
          defaultCell: '`3000`',
          meaning: 'The HTTP port the server listens on, for every request. More.',
        },
        { name: 'DATABASE_URL', defaultCell: 'unset', meaning: '`postgres://…` switches to PostgreSQL.' },
      ],
    );
    expect(example).toContain('# The HTTP port the server listens on, for every request.\n# PORT=3000\n');
    expect(example).toContain('# postgres://… switches to PostgreSQL.\n# DATABASE_URL=\n');
    expect(() => renderEnvExample([{ title: 'Server', names: ['NOWHERE'] }], [])).toThrow(/NOWHERE has no row/);
  });
});
