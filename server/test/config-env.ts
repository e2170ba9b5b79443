// Configuration in tests: the problems an environment is refused with (one line each), and narrator
// catalogues written to NARRATORS_FILE files in one temporary folder, removed when the process ends.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, type AppConfig } from '../kernel/config';

/** The problems a configuration names, one line each; none when it loads. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
}

let folder: string | undefined;
let files = 0;

/** Writes a catalogue (an object as JSON, a string as it is) and answers its path. */
export function catalogueFile(content: unknown): string {
  if (!folder) {
    const made = mkdtempSync(join(tmpdir(), 'narrators-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    folder = made;
  }
  const path = join(folder, `narrators-${++files}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** What an app is configured with from `catalogue`: its narrators and the default's settings, for createTestApp. */
export function catalogueConfig(
  catalogue: unknown,
  env: Record<string, string> = {},
): Pick<AppConfig, 'narrators' | 'llm'> {
  const { narrators, llm } = loadConfig({ ...env, NARRATORS_FILE: catalogueFile(catalogue) });
  return { narrators, llm };
}
