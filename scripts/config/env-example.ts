// `.env.example` written from the settings registry (server/kernel/config/registry.ts), sectioned
// like Outline's `.env.sample`: a header comment per topic, and under it each variable commented out
// at its default, with its one-line doc above it. `npm run config` writes it (scripts/config/write.ts).
import { SETTING_GROUPS, type Setting } from '../../server/kernel/config/setting';

export type NamedSetting = Setting & { name: string };

/** A doc line as a comment reads it: without Markdown's backticks, a secret said so. */
function commentLine(entry: NamedSetting): string {
  const plain = entry.doc.replace(/`/g, '');
  return `# ${plain}${entry.secret ? ' (secret)' : ''}`;
}

export function renderEnvExample(entries: readonly NamedSetting[]): string {
  const sections = SETTING_GROUPS.map((group) => {
    const lines = entries
      .filter((entry) => entry.group === group)
      .flatMap((entry) => [commentLine(entry), `# ${entry.name}=${entry.default ?? ''}`, '']);
    return [`# ── ${group} ${'─'.repeat(96 - group.length)}`, '', ...lines].join('\n').trimEnd();
  });
  const head = [
    '# Taleweaver settings: every one is optional, and each is shown at its default, commented out.',
    '# What each does, in full: docs/configuration.md. Written by `npm run config` from the settings',
    '# registry (server/kernel/config/): edit that, not this file.',
  ].join('\n');
  return `${head}\n\n${sections.join('\n\n')}\n`;
}
