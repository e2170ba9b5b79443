// Part of `npm run lint`: fails on any import cycle among our source files, type-only imports
// included. import-x/no-cycle (in eslint.config.js) skips type-only imports by design, but a cycle
// through types still ties two modules' designs together, so this counts them: every import,
// export-from and import() that TypeScript's own resolver (tsconfig paths included) maps to one
// of our files is an edge; each strongly connected component of more than one file is a cycle.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '../..');
const configFile = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
const files = parsed.fileNames.filter((file) => !file.includes('/node_modules/') && !file.endsWith('.d.ts'));
const ours = new Set(files);
const cache = ts.createModuleResolutionCache(root, (name) => name, parsed.options);

/** A file's imports that resolve to another of our files. */
function importsOf(file) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets = new Set();
  for (const { fileName } of importedFiles) {
    const found = ts.resolveModuleName(fileName, file, parsed.options, ts.sys, cache).resolvedModule;
    if (found && ours.has(found.resolvedFileName) && found.resolvedFileName !== file)
      targets.add(found.resolvedFileName);
  }
  return [...targets];
}

const graph = new Map(files.map((file) => [file, importsOf(file)]));

// Tarjan's strongly connected components, iterative so a deep chain cannot overflow the stack.
function cycles() {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const found = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      const edges = graph.get(node) ?? [];
      if (next < edges.length) {
        frame[1]++;
        const target = edges[next];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1) found.push(component);
      }
    }
  }
  return found;
}

const found = cycles();
const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
if (found.length === 0) {
  console.log(`import graph: ${graph.size} files, ${edges} imports, 0 cycles (type-only imports included)`);
} else {
  for (const component of found) {
    const names = component.map((file) => relative(root, file)).sort();
    console.error(`import cycle among ${names.length} files (type-only imports included):\n  ${names.join('\n  ')}`);
  }
  process.exitCode = 1;
}
