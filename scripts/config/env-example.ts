// `.env.example` written from the settings' groups (server/kernel/config CONFIG_GROUPS) and their
// rows in docs/configuration.md: every variable commented out at its default, under its topic, with
// the first sentence of what the document says of it. `npm run config:example` writes the file; a
// test fails when the file, the document or the schema have drifted apart.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface DocumentedSetting {
  name: string;
  /** The document's default cell, as written (`3000`, unset, per provider, …). */
  defaultCell: string;
  meaning: string;
}

/** A line of the example at most, past the '# ': the first sentence, cut at a word. */
const MEANING_MAX = 110;

/** The settings table of docs/configuration.md: a row per variable, in its order. */
export function documentedSettings(markdown: string): DocumentedSetting[] {
  return [...markdown.matchAll(/^\| `([A-Z0-9_]+)`\s*\|([^|]*)\|(.*)\|\s*$/gm)].map((row) => ({
    name: row[1],
    defaultCell: row[2].trim(),
    meaning: row[3].trim(),
  }));
}

/** What a sentence ends with, and the one after it too when the first says little ("That window."). */
const SENTENCE_END = /\.(\s|$)/g;
const SHORT_SENTENCE = 40;

function firstSentence(text: string): string {
  const plain = text.replace(/`/g, '');
  const ends = [...plain.matchAll(SENTENCE_END)].map((m) => m.index + 1);
  const end = ends[0] !== undefined && ends[0] < SHORT_SENTENCE && ends[1] !== undefined ? ends[1] : ends[0];
  const sentence = end === undefined ? plain : plain.slice(0, end);
  if (sentence.length <= MEANING_MAX) return sentence;
  const cut = sentence.slice(0, MEANING_MAX);
  return `${cut.slice(0, cut.lastIndexOf(' '))} …`;
}

/** The example's value for a default cell: a literal default as it is, anything else left empty. */
function exampleValue(defaultCell: string): string {
  const literal = /^`([^`]*)`/.exec(defaultCell);
  return literal ? literal[1] : '';
}

export function renderEnvExample(
  groups: ReadonlyArray<{ title: string; names: readonly string[] }>,
  documented: DocumentedSetting[],
): string {
  const byName = new Map(documented.map((setting) => [setting.name, setting]));
  const sections = groups.map(({ title, names }) => {
    const lines = names.flatMap((name) => {
      const setting = byName.get(name);
      if (!setting) throw new Error(`${name} has no row in docs/configuration.md`);
      return [`# ${firstSentence(setting.meaning)}`, `# ${name}=${exampleValue(setting.defaultCell)}`, ''];
    });
    return [`# ── ${title} ${'─'.repeat(Math.max(3, 96 - title.length))}`, '', ...lines].join('\n').trimEnd();
  });
  const head = [
    '# Taleweaver settings: every one is optional, and each is shown at its default, commented out.',
    '# What each does, in full: docs/configuration.md. Written by `npm run config:example`.',
  ].join('\n');
  return `${head}\n\n${sections.join('\n\n')}\n`;
}

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { CONFIG_GROUPS } = await import('../../server/kernel/config');
  const documented = documentedSettings(readFileSync(`${ROOT}docs/configuration.md`, 'utf8'));
  writeFileSync(`${ROOT}.env.example`, renderEnvExample(CONFIG_GROUPS, documented));
  console.log('wrote .env.example');
}
