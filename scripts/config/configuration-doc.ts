// docs/configuration.md written from the settings registry and the hand-written prose of
// docs/configuration.prose.md. Each `<!-- settings: Group -->` marker of the prose becomes the
// group's heading and table (name, default, one-line doc; secrets marked); the prose after the
// marker stays under that heading, up to the next marker or the next `## ` heading, and the group's
// example block (the registry's example values) closes it. Everything else is the prose as written.
import prettier from 'prettier';
import { SETTING_GROUPS, type SettingGroup } from '../../server/kernel/config/setting';
import type { NamedSetting } from './env-example';

const MARKER = /^<!-- settings: (.*) -->$/;

/** A table cell: Markdown's cell separator escaped. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

function defaultCell(entry: NamedSetting): string {
  if (entry.default === undefined) return entry.unsetDoc ?? 'unset';
  return entry.default === '' ? 'empty' : `\`${entry.default}\``;
}

function table(entries: readonly NamedSetting[]): string[] {
  return [
    '| Variable | Default | Meaning |',
    '| --- | --- | --- |',
    ...entries.map(
      (entry) =>
        `| \`${entry.name}\`${entry.secret ? ' _(secret)_' : ''} | ${cell(defaultCell(entry))} | ${cell(entry.doc)} |`,
    ),
  ];
}

function exampleBlock(entries: readonly NamedSetting[]): string[] {
  const examples = entries.filter((entry) => entry.example !== undefined);
  if (examples.length === 0) return [];
  return ['For example:', '', '```bash', ...examples.map((entry) => `${entry.name}=${entry.example}`), '```', ''];
}

/** The document, before formatting: the prose with each group's marker expanded. */
export function expandProse(prose: string, entries: readonly NamedSetting[]): string {
  const lines = prose.split('\n');
  // The prose file's own opening comment (what it is) is not part of the document.
  const start = lines.findIndex((line) => line.startsWith('# '));
  const out: string[] = [];
  const seen: string[] = [];
  let open: SettingGroup | null = null;
  const close = () => {
    if (open) out.push(...exampleBlock(entries.filter((entry) => entry.group === open)));
    open = null;
  };
  for (const line of lines.slice(start)) {
    const marker = MARKER.exec(line);
    if (marker) {
      close();
      const group = SETTING_GROUPS.find((name) => name === marker[1]);
      if (!group) throw new Error(`docs/configuration.prose.md names no settings group ${marker[1]}`);
      seen.push(group);
      out.push(`### ${group}`, '', ...table(entries.filter((entry) => entry.group === group)));
      open = group;
      continue;
    }
    if (line.startsWith('## ')) close();
    out.push(line);
  }
  close();
  if (seen.join() !== SETTING_GROUPS.join()) {
    throw new Error(
      `docs/configuration.prose.md must mark the groups once each, in order: ${SETTING_GROUPS.join(', ')}`,
    );
  }
  return `${out.join('\n').trimEnd()}\n`;
}

const GENERATED =
  '<!-- Written by `npm run config` from server/kernel/config/ and docs/configuration.prose.md: edit those. -->';

/** docs/configuration.md as `npm run config` writes it, formatted as prettier formats the repository. */
export async function renderConfigurationDoc(
  prose: string,
  entries: readonly NamedSetting[],
  filepath: string,
): Promise<string> {
  const options = await prettier.resolveConfig(filepath);
  return prettier.format(`${GENERATED}\n\n${expandProse(prose, entries)}`, { ...options, filepath });
}
