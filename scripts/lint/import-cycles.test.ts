// The import-cycle count that `npm run lint` runs: a cycle through value imports, one through a
// type-only import, one among JavaScript files (one of them typed by a declaration file beside it)
// and one through a tsconfig path alias are each found; a project of one-way imports has none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module without declarations, as lint runs it.
import { importCycles } from './import-cycles.mjs';

const TSCONFIG = {
  compilerOptions: {
    module: 'ESNext',
    moduleResolution: 'Bundler',
    allowImportingTsExtensions: true,
    noEmit: true,
    baseUrl: '.',
    paths: { '@lib/*': ['lib/*'] },
  },
  include: ['lib', 'app'],
};

const roots: string[] = [];
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tw-cycles-'));
  roots.push(root);
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('import cycles', () => {
  it('finds none where every import points one way, and counts the files and imports', () => {
    const root = project({
      'lib/a.ts': "import { b } from './b';\nexport const a = b;\n",
      'lib/b.ts': 'export const b = 1;\n',
      'app/main.ts': "import { a } from '@lib/a';\nconsole.log(a);\n",
      'app/worker.js': "import { wire } from './wire.js';\nwire();\n",
      'app/wire.js': 'export function wire() {}\n',
    });
    expect(importCycles(root)).toEqual({ files: 5, edges: 3, cycles: [] });
  });

  it('finds a cycle of value imports, of a type-only import, through an alias, and among JavaScript files', () => {
    const root = project({
      'lib/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'lib/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      'lib/shape.ts': "import type { Size } from './size';\nexport interface Shape { size: Size }\n",
      'lib/size.ts': "import { type Shape } from './shape';\nexport type Size = number;\nexport type Of = Shape;\n",
      'app/page.ts': "import { view } from '@lib/view';\nexport const page = () => view;\n",
      'lib/view.ts': "export { page as view } from '../app/page';\n",
      'app/worker.js': "import { wire } from './wire.js';\nexport const worker = () => wire;\n",
      'app/wire.js': "import { worker } from './worker.js';\nexport const wire = () => worker;\n",
      'app/wire.d.ts': 'export declare const wire: () => unknown;\n',
    });
    expect(importCycles(root).cycles.sort()).toEqual([
      ['app/page.ts', 'lib/view.ts'],
      ['app/wire.js', 'app/worker.js'],
      ['lib/a.ts', 'lib/b.ts'],
      ['lib/shape.ts', 'lib/size.ts'],
    ]);
  });
});
