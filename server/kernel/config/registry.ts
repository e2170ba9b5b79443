// The settings registry: every environment variable the server reads, once, in the order the server
// checks them (and names their problems). Each kind's entries live beside the code that maps them
// (server.ts, llm.ts, …); docs/configuration.md and .env.example are written from this by
// `npm run config`, grouped by each entry's documented topic.
import { adsSettings } from './ads';
import { embeddingsSettings } from './embeddings';
import { imageSettings } from './image';
import { limitsSettings } from './limits';
import { llmSettings } from './llm';
import { serverSettings } from './server';
import { settingsSchema, type ParsedSettings, type Setting } from './setting';
import { speechSettings } from './speech';

export const SETTINGS = {
  ...serverSettings,
  ...llmSettings,
  ...limitsSettings,
  ...imageSettings,
  ...speechSettings,
  ...embeddingsSettings,
  ...adsSettings,
};

export type SettingName = keyof typeof SETTINGS;

/** Every registry entry with its name, in the registry's order. */
export const SETTING_ENTRIES: ReadonlyArray<Setting & { name: SettingName }> = Object.entries(SETTINGS).map(
  ([name, entry]) => ({ ...entry, name: name as SettingName }),
);

/** The one schema of every variable: what the environment is parsed with at start-up. */
export const envSchema = settingsSchema(SETTINGS);

/** The environment as parsed: each variable's typed value, its default filled in. */
export type ParsedEnv = ParsedSettings<typeof SETTINGS>;
