// Part of `npm run lint`: fails on any import cycle among our source files, type-only imports
// included (a cycle through types still ties two modules' designs together). Every import,
// export-from and import() that TypeScript's own resolver (tsconfig paths included) maps to one of
// our files is an edge, in TypeScript and in our JavaScript (.js, .mjs) alike; each strongly
// connected component of more than one file is a cycle. ESLint's import-x/no-cycle did the same for
// value imports alone, at 40 % of ESLint's rule time (docs/benchmarks.md).
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const DECLARATIONS = /\.d\.(m?)ts$/;

/**
 * The file a path stands for: a declaration file for the JavaScript file beside it (TypeScript lists
 * and resolves to the declarations of a typed .js or .mjs), none for a declaration file alone.
 */
function sourceOf(path) {
  if (!DECLARATIONS.test(path)) return path;
  const js = path.replace(DECLARATIONS, '.$1js');
  return existsSync(js) ? js : null;
}

/** The import graph of the TypeScript project at `root` (its tsconfig.json), our JavaScript included. */
function importGraph(root) {
  const configFile = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile);
  const config = { ...configFile.config, compilerOptions: { ...configFile.config.compilerOptions, allowJs: true } };
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const files = [...new Set(parsed.fileNames.filter((file) => !file.includes('/node_modules/')).map(sourceOf))].filter(
    (file) => file !== null,
  );
  const ours = new Set(files);
  const cache = ts.createModuleResolutionCache(root, (name) => name, parsed.options);
  const ourFile = (resolved) => {
    const file = sourceOf(resolved);
    return file !== null && ours.has(file) ? file : null;
  };
  /** A file's imports that resolve to another of our files. */
  const importsOf = (file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      const found = ts.resolveModuleName(fileName, file, parsed.options, ts.sys, cache).resolvedModule;
      const target = found && ourFile(found.resolvedFileName);
      if (target && target !== file) targets.add(target);
    }
    return [...targets];
  };
  return new Map(files.map((file) => [file, importsOf(file)]));
}

// Tarjan's strongly connected components, iterative so a deep chain cannot overflow the stack.
function cyclesOf(graph) {
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

/** The import cycles among the files of the project at `root`, each as its files' paths relative to `root`, sorted. */
export function importCycles(root) {
  const graph = importGraph(root);
  const cycles = cyclesOf(graph).map((component) => component.map((file) => relative(root, file)).sort());
  const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
  return { files: graph.size, edges, cycles };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { files, edges, cycles } = importCycles(resolve(import.meta.dirname, '../..'));
  if (cycles.length === 0) {
    console.log(`import graph: ${files} files, ${edges} imports, 0 cycles (type-only imports included)`);
  } else {
    for (const names of cycles)
      console.error(`import cycle among ${names.length} files (type-only imports included):\n  ${names.join('\n  ')}`);
    process.exitCode = 1;
  }
}
