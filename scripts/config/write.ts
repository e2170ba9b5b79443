// npm run config: writes docs/configuration.md and .env.example from the settings registry (and the
// document's hand-written prose). A test fails when either file is not what this would write.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SETTING_ENTRIES } from '../../server/kernel/config/registry';
import { renderConfigurationDoc } from './configuration-doc';
import { renderEnvExample } from './env-example';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PATHS = {
  prose: `${ROOT}docs/configuration.prose.md`,
  document: `${ROOT}docs/configuration.md`,
  example: `${ROOT}.env.example`,
};

/** The two files' contents as the registry and the prose make them today. */
export async function configFiles(): Promise<{ document: string; example: string }> {
  const prose = readFileSync(PATHS.prose, 'utf8');
  return {
    document: await renderConfigurationDoc(prose, SETTING_ENTRIES, PATHS.document),
    example: renderEnvExample(SETTING_ENTRIES),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { document, example } = await configFiles();
  writeFileSync(PATHS.document, document);
  writeFileSync(PATHS.example, example);
  console.log('wrote docs/configuration.md and .env.example');
}
