// The build-time rewrite of door imports: each name goes to the module its door re-exports it
// from; anything the door does not plainly re-export keeps the door import.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { featureDoors, readDoor } from './vite-feature-doors';

const featuresDir = mkdtempSync(join(tmpdir(), 'tw-doors-'));
mkdirSync(join(featuresDir, 'story'));
writeFileSync(
  join(featuresDir, 'story', 'index.ts'),
  [
    '// The story door.',
    "export { StoryPage } from './components/story-page';",
    "export { forgetStory, storyController as controller } from './state/controller';",
    "export type { StoryMessage } from './types';",
    "export const DOOR_OWN = 'computed in the door';",
  ].join('\n'),
);
afterAll(() => rmSync(featuresDir, { recursive: true, force: true }));

function transform(code: string): string | null {
  const plugin = featureDoors(featuresDir);
  const hook = plugin.transform as (code: string, id: string) => { code: string } | null;
  return hook.call({}, code, '/app/client/app/routes.tsx')?.code ?? null;
}

describe('readDoor', () => {
  it('maps each re-exported name to its module and local name, leaving type-only re-exports out', () => {
    const names = readDoor(
      "export { a, b as c } from './x';\nexport type { T } from './t';\nexport { d } from './y/z';",
    );
    expect([...names]).toEqual([
      ['a', { from: './x', local: 'a' }],
      ['c', { from: './x', local: 'b' }],
      ['d', { from: './y/z', local: 'd' }],
    ]);
  });
});

describe('featureDoors', () => {
  it('sends each name to the module behind the door, renames kept', () => {
    const out = transform(
      "import { StoryPage, controller as story, forgetStory } from '@client/features/story';\nuse(StoryPage, story, forgetStory);",
    );
    expect(out).toBe(
      "import { StoryPage } from '@client/features/story/components/story-page'; " +
        "import { storyController as story, forgetStory } from '@client/features/story/state/controller';\n" +
        'use(StoryPage, story, forgetStory);',
    );
  });

  it('drops type-only names and leaves type-only imports alone', () => {
    expect(transform("import { type StoryMessage, StoryPage } from '@client/features/story';")).toBe(
      "import { StoryPage } from '@client/features/story/components/story-page';",
    );
    expect(transform("import type { StoryMessage } from '@client/features/story';")).toBeNull();
  });

  it('keeps the door import when a name is not a plain re-export', () => {
    const code = "import { StoryPage, DOOR_OWN } from '@client/features/story';";
    expect(transform(code)).toBeNull();
  });

  it('leaves files without door imports untouched', () => {
    expect(transform("import { x } from '@client/lib/x';")).toBeNull();
  });
});
