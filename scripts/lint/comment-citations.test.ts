// Comments stand on their own: none cites an issue or a section of the spec by number, which a
// newcomer with a clone cannot read. Each says the rule it means instead.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['client', 'server', 'shared', 'scripts', 'e2e'];
const SOURCE = /\.(ts|tsx|mjs|js|sql)$/;
const CITATION = /\b(spec (sections?|§) ?\d|[Ss]ections? \d+ of the spec|[Ii]ssues? #?\d+)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** A line's comment part: after `//` or `--`, or the whole line inside a block comment. */
function commentOf(line: string): string | null {
  const trimmed = line.trim();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*')) return trimmed;
  const slashes = line.indexOf('//');
  if (slashes !== -1) return line.slice(slashes);
  return trimmed.startsWith('--') ? trimmed : null;
}

describe('comments', () => {
  it('cite no issue and no spec section by number', () => {
    const files = ROOTS.flatMap(sources);
    const citing = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => {
          const comment = commentOf(line);
          return comment && CITATION.test(comment) ? [`${file}:${index + 1}: ${comment.trim()}`] : [];
        }),
    );
    expect(files.length).toBeGreaterThan(500);
    expect(citing).toEqual([]);
  });

  it('finds a citation when there is one', () => {
    // Put together here, so that this file holds none itself.
    const issue = ['issue', '12'].join(' ');
    const section = ['spec section', '4'].join(' ');
    expect(commentOf(`  const a = 1; // as ${issue} says`)).toMatch(CITATION);
    expect(commentOf(` * the rule of ${section}`)).toMatch(CITATION);
    expect(commentOf(`-- ${issue} quota`)).toMatch(CITATION);
    expect(commentOf("const url = 'http://x//y'; // the product's rule")).not.toMatch(CITATION);
  });
});
