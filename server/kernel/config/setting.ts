// What the settings registry is made of: each environment variable is defined once, with the schema
// the server reads it with, its default, the topic it is documented under, a one-line doc, whether it
// is a secret, and an example value. The server's schema, docs/configuration.md and .env.example are
// all derived from these entries (npm run config writes the two files).
import { z } from 'zod';

/** The topics the settings are documented under, in the document's order. */
export const SETTING_GROUPS = [
  'Server',
  'Database',
  'Narrator',
  'Pictures',
  'Voices',
  'Embeddings',
  'Limits',
  'Ads',
  'Operations',
] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

/** A variable as it is written down: its schema reads the variable's text, without a default. */
interface SettingSpec<S extends z.ZodType<unknown, string>> {
  schema: S;
  group: SettingGroup;
  /** One line: what the variable does. The longer story goes in its group's prose in the document. */
  doc: string;
  /**
   * The text the variable is read as when unset, through the same schema, so the documented default
   * is the one the server uses. Absent: unset stays unset (the code decides, see `unsetDoc`).
   */
  default?: string;
  /** What the document says of an unset variable without a default: "per provider", "input price"… */
  unsetDoc?: string;
  /** A credential: kept out of logs and browsers, marked as such in the document. */
  secret?: boolean;
  /** A value shown in the group's example block of the document. */
  example?: string;
}

/** A registry entry: the spec, its schema reading an unset variable as its default (or as undefined). */
export type Setting<S extends z.ZodType = z.ZodType> = Omit<SettingSpec<z.ZodType<unknown, string>>, 'schema'> & {
  schema: S;
};

export function setting<S extends z.ZodType<unknown, string>>(
  spec: SettingSpec<S> & { default: string },
): Setting<z.ZodPrefault<S>>;
export function setting<S extends z.ZodType<unknown, string>>(
  spec: SettingSpec<S> & { default?: undefined },
): Setting<z.ZodOptional<S>>;
export function setting<S extends z.ZodType<unknown, string>>(spec: SettingSpec<S>): Setting {
  const schema = spec.default === undefined ? spec.schema.optional() : spec.schema.prefault(spec.default as z.input<S>);
  return { ...spec, schema };
}

type SettingSchemas<R extends Record<string, Setting>> = { [K in keyof R]: R[K]['schema'] };

/** One zod object of a registry's variables, in the registry's order (the order problems are named in). */
export function settingsSchema<R extends Record<string, Setting>>(registry: R): z.ZodObject<SettingSchemas<R>> {
  const shape = Object.fromEntries(Object.entries(registry).map(([name, entry]) => [name, entry.schema]));
  return z.object(shape as SettingSchemas<R>);
}

/** What a registry's variables parse to: the typed environment each group's mapper reads. */
export type ParsedSettings<R extends Record<string, Setting>> = z.output<z.ZodObject<SettingSchemas<R>>>;
