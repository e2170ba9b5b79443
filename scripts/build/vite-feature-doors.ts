// Build-time import of a client feature through its door: `import { x } from '@client/features/f'`
// becomes an import of the module the door (client/features/f/index.ts) re-exports x from. Source
// code and lint see one door per feature; the bundler sees the modules themselves, so a chunk loads
// only the pieces it uses, not everything a door it touches re-exports (the bundler keeps a door's
// every re-export in the static reach of each importer, and the shell imports several doors).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** `import { a, type B, c as d } from '@client/features/<name>';` (static, named, one statement). */
const DOOR_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*'@client\/features\/([a-z0-9-]+)';?/g;
/** `export { a, b as c } from './path';` in a door (type-only re-exports are left out). */
const DOOR_EXPORT = /export\s+\{([^}]*)\}\s*from\s*'(\.\/[^']+)';?/g;

/** Exported name → the door-relative module that defines it, per feature. */
export function readDoor(source: string): Map<string, { from: string; local: string }> {
  const names = new Map<string, { from: string; local: string }>();
  for (const [, list, from] of source.matchAll(DOOR_EXPORT)) {
    for (const item of list
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const [local, exported = local] = item.split(/\s+as\s+/);
      names.set(exported, { from, local });
    }
  }
  return names;
}

export function featureDoors(featuresDir: string): Plugin {
  const doors = new Map<string, Map<string, { from: string; local: string }>>();
  const door = (feature: string) => {
    let names = doors.get(feature);
    if (!names) {
      names = readDoor(readFileSync(join(featuresDir, feature, 'index.ts'), 'utf8'));
      doors.set(feature, names);
    }
    return names;
  };
  return {
    name: 'taleweaver-feature-doors',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/\.tsx?$/.test(id) || !code.includes('@client/features/')) return null;
      let changed = false;
      const out = code.replace(
        DOOR_IMPORT,
        (statement, typeOnly: string | undefined, list: string, feature: string) => {
          if (typeOnly) return statement;
          const names = door(feature);
          const byModule = new Map<string, string[]>();
          for (const item of list
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean)) {
            if (item.startsWith('type ')) continue;
            const [imported, local = imported] = item.split(/\s+as\s+/);
            const target = names.get(imported);
            // Not a plain re-export: leave the statement as it is (the door itself answers).
            if (!target) return statement;
            const specifier = target.local === local ? local : `${target.local} as ${local}`;
            byModule.set(target.from, [...(byModule.get(target.from) ?? []), specifier]);
          }
          changed = true;
          return [...byModule]
            .map(
              ([from, specifiers]) =>
                `import { ${specifiers.join(', ')} } from '@client/features/${feature}/${from.slice(2)}';`,
            )
            .join(' ');
        },
      );
      return changed ? { code: out, map: null } : null;
    },
  };
}
