// Statement renaming for connections sharing PGlite's session: named statements get the
// connection's prefix in every message that names them, byte lengths stay right, unnamed ones and
// the startup message pass through untouched.
import { serialize } from 'pg-protocol';
import { describe, expect, it } from 'vitest';
import { renameStatements } from './pglite-wire.js';

const batch = (...messages: Buffer[]) => new Uint8Array(Buffer.concat(messages));
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('renameStatements', () => {
  it('prefixes a named statement in Parse, Bind, Describe and Close, and tracks it', () => {
    const known = new Set<string>();
    const input = batch(
      serialize.parse({ name: 'save_reply', text: 'select $1::int', types: [] }),
      serialize.bind({ statement: 'save_reply', values: ['7'] }),
      serialize.describe({ type: 'S', name: 'save_reply' }),
      serialize.execute(),
      serialize.sync(),
    );
    const expected = batch(
      serialize.parse({ name: 'c3_save_reply', text: 'select $1::int', types: [] }),
      serialize.bind({ statement: 'c3_save_reply', values: ['7'] }),
      serialize.describe({ type: 'S', name: 'c3_save_reply' }),
      serialize.execute(),
      serialize.sync(),
    );
    expect(text(renameStatements(input, 'c3_', known))).toBe(text(expected));
    expect([...known]).toEqual(['c3_save_reply']);
    renameStatements(batch(serialize.close({ type: 'S', name: 'save_reply' }), serialize.sync()), 'c3_', known);
    expect(known.size).toBe(0);
  });

  it('passes unnamed statements, portals and the startup message through as they are', () => {
    const input = batch(
      serialize.startup({ user: 'postgres', database: 'postgres' }),
      serialize.parse({ text: 'select 1', types: [] }),
      serialize.bind({}),
      serialize.describe({ type: 'P', name: '' }),
      serialize.execute(),
      serialize.sync(),
    );
    const known = new Set<string>();
    expect(renameStatements(input, 'c1_', known)).toBe(input);
    expect(known.size).toBe(0);
  });
});
