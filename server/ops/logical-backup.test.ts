// The backup file's checks, before a restore writes anything: a whole file is read back with its
// row counts; a missing, non-gzip, foreign, cut, flipped, end-less, altered or over-long file is
// refused with a message that names what is wrong.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupFileLines, verifyLines, writeBackupFile } from './logical-backup';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-backup-file-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const HEADER = JSON.stringify({
  format: 'taleweaver-backup',
  version: 1,
  migration: 28,
  migrationTag: '0028_admin_grants',
  createdAt: '2026-11-27T00:00:00.000Z',
  database: 'pglite',
});
const BODY = [
  HEADER,
  JSON.stringify({ table: 'users', columns: ['id', 'username'] }),
  JSON.stringify(['1', 'ada']),
  JSON.stringify(['2', 'line\nbreak \u2028 and\r']),
  JSON.stringify({ table: 'sessions', columns: ['token_hash'] }),
];
const trailerFor = (body: string[]) =>
  JSON.stringify({
    end: true,
    tables: 2,
    rows: 2,
    sha256: createHash('sha256')
      .update(body.map((line) => `${line}\n`).join(''))
      .digest('hex'),
  });

async function* from(lines: string[]) {
  yield* lines;
}
let n = 0;
async function file(content: Buffer | string): Promise<string> {
  n += 1;
  const path = join(dir, `file-${n}.gz`);
  await writeFile(path, content);
  return path;
}
const gz = (lines: string[]) => gzipSync(lines.map((line) => `${line}\n`).join(''));
const verify = (path: string) => verifyLines(backupFileLines(path), path);

describe('backup files', () => {
  it('reads a whole file back: header and rows per table', async () => {
    const path = join(dir, 'whole.gz');
    await writeBackupFile(path, from([...BODY, trailerFor(BODY)]));
    const { header, counts } = await verify(path);
    expect(header).toMatchObject({ migration: 28, migrationTag: '0028_admin_grants' });
    expect([...counts]).toEqual([
      ['users', 2],
      ['sessions', 0],
    ]);
  });

  it('refuses a file that is missing, not a backup, damaged, cut or altered', async () => {
    const good = gz([...BODY, trailerFor(BODY)]);
    const flipped = Buffer.from(good);
    flipped[Math.floor(good.length / 2)] ^= 0xff;
    const altered = [...BODY];
    altered[2] = JSON.stringify(['1', 'eve']);
    const cases: Array<[string, string, RegExp]> = [
      ['missing', join(dir, 'nothing-here.gz'), /^No backup file at /],
      ['not gzip', await file('{"format":"taleweaver-backup"}\n'), /is not a Taleweaver backup \(not a gzip file\)/],
      ['foreign', await file(gz(['{"format":"something-else"}', '[1]'])), /its first line is not a backup header/],
      ['empty', await file(gzipSync('')), /is empty: it is not a Taleweaver backup/],
      ['newer format', await file(gz([HEADER.replace('"version":1', '"version":2')])), /a backup of format 2/],
      ['cut in half', await file(good.subarray(0, Math.floor(good.length / 2))), /is damaged or truncated/],
      ['flipped byte', await file(flipped), /is damaged/],
      ['no end line', await file(gz(BODY)), /is truncated \(it has no end line\)/],
      ['altered row', await file(gz([...altered, trailerFor(BODY)])), /checksum does not match/],
      ['after the end', await file(gz([...BODY, trailerFor(BODY), '["3","x"]'])), /has lines after its end/],
    ];
    for (const [name, path, message] of cases) await expect(verify(path), name).rejects.toThrow(message);
  });
});
