// The narrator catalogue: the models an operator offers players, read from NARRATORS_FILE (JSON) or,
// without it, one narrator `default` made of the LLM_* settings, so an operator who never writes the
// file sees nothing change. Each narrator carries a whole LlmConfig: the code that writes with one of
// them is the code that wrote with the only one. Keys stay in the environment: the file names the
// variable that holds each (`apiKeyEnv`).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { NARRATOR_ID_PATTERN } from '@shared/schemas/narrators';
import { isHttpUrl } from './env';
import {
  BUILTIN_MODEL,
  DEFAULT_BASE_URLS,
  DEFAULT_MAX_OUTPUT_TOKENS,
  LLM_PROVIDERS,
  MIN_PROMPT_BUDGET_TOKENS,
  type LlmConfig,
} from './llm';

/** The side calls an operator may give their own narrator, named as the usage ledger names them. */
export const NARRATOR_TASKS = ['summary', 'title', 'style'] as const;
export type NarratorTaskKind = (typeof NARRATOR_TASKS)[number];
/** Who may pick a narrator: every player, or the admins alone (a model being tried out, an expensive one). */
export const NARRATOR_ACCESS = ['everyone', 'admins'] as const;
export type NarratorAccess = (typeof NARRATOR_ACCESS)[number];
/** The id of the catalogue of one that the LLM_* settings make. */
export const DEFAULT_NARRATOR_ID = 'default';
/** A catalogue is a menu for players, not a fleet: more than this is a mistake in the file. */
const MAX_NARRATORS = 50;
/** The largest catalogue file read; an operator's menu of 50 narrators is a few kilobytes. */
const MAX_FILE_BYTES = 256 * 1024;

/** The highest temperature a narrator's range may reach; each provider's own cap still applies on top. */
const TEMPERATURE_CEILING = 2;

/** One narrator of the catalogue, as the server writes with it and as players are offered it. */
export interface CatalogueNarrator {
  id: string;
  label: string;
  description: string;
  access: NarratorAccess;
  /** The narrator's whole configuration: provider, address, key, model, window, temperature, prices. */
  llm: LlmConfig;
}

export interface NarratorCatalogue {
  /** Every narrator, in the file's order (the order players are offered them in). */
  narrators: CatalogueNarrator[];
  /** The narrator of a story that names none, or names one that went away; always open to everyone. */
  defaultId: string;
  /** The narrator of each side call; null: the story's own. */
  tasks: Record<NarratorTaskKind, string | null>;
}

const narratorId = z
  .string()
  .regex(NARRATOR_ID_PATTERN, 'must be 1-40 lower-case letters, digits, - or _ (starting with a letter or digit)');
const PRICE_RULE = 'must be US dollars per million tokens, from 0 to 10000';
const perMillion = z.number(PRICE_RULE).min(0, PRICE_RULE).max(10_000, PRICE_RULE);
const temperature = z.number().min(0).max(TEMPERATURE_CEILING, `must be from 0 to ${TEMPERATURE_CEILING}`);

const fileNarrator = z.strictObject({
  id: narratorId,
  label: z.string().trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters'),
  description: z.string().trim().max(300, 'must be at most 300 characters').optional(),
  provider: z.enum(LLM_PROVIDERS, { error: 'must be builtin, openai or anthropic' }),
  baseUrl: z.string().trim().refine(isHttpUrl, 'must be an http:// or https:// URL').optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/, 'must be the name of an environment variable (upper case, digits, _)')
    .optional(),
  model: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  contextTokens: z.number().int('must be a whole number').positive('must be greater than 0').max(10_000_000),
  maxOutputTokens: z.number().int('must be a whole number').positive('must be greater than 0').optional(),
  temperature: z.strictObject({ default: temperature.optional(), max: temperature.optional() }).optional(),
  prices: z.strictObject({ input: perMillion, cachedInput: perMillion.optional(), output: perMillion }).optional(),
  access: z.enum(NARRATOR_ACCESS, { error: `must be ${NARRATOR_ACCESS.join(' or ')}` }).optional(),
});
type FileNarrator = z.infer<typeof fileNarrator>;

const catalogueFile = z.strictObject({
  default: narratorId,
  tasks: z
    .strictObject({ summary: narratorId.optional(), title: narratorId.optional(), style: narratorId.optional() })
    .optional(),
  narrators: z
    .array(fileNarrator)
    .min(1, 'must list at least one narrator')
    .max(MAX_NARRATORS, `must list at most ${MAX_NARRATORS} narrators`),
});
type CatalogueFile = z.infer<typeof catalogueFile>;

/** The catalogue of one that the LLM_* settings define. */
export function catalogueOfOne(llm: LlmConfig): NarratorCatalogue {
  const label = llm.provider === 'builtin' ? 'Demo narrator' : llm.model;
  const description = llm.provider === 'builtin' ? 'The offline demo narrator.' : '';
  return {
    narrators: [{ id: DEFAULT_NARRATOR_ID, label, description, access: 'everyone', llm }],
    defaultId: DEFAULT_NARRATOR_ID,
    tasks: { summary: null, title: null, style: null },
  };
}

/** Reads the file, as text: one problem line when it cannot be read or is too large. */
function readCatalogueText(path: string): { text: string } | { problem: string } {
  try {
    const text = readFileSync(resolve(path), 'utf8');
    if (Buffer.byteLength(text) > MAX_FILE_BYTES) {
      return { problem: `NARRATORS_FILE: ${path} is larger than ${MAX_FILE_BYTES / 1024} KB` };
    }
    return { text };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    return { problem: `NARRATORS_FILE: cannot read ${path} (${code})` };
  }
}

/** Rules across a file's entries: unique ids, a default and tasks that exist, keys that are set, room for a prompt. */
function catalogueProblems(file: CatalogueFile, env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  const at = (index: number, field: string) => `NARRATORS_FILE: narrators[${index}].${field}`;
  const seen = new Set<string>();
  file.narrators.forEach((entry, index) => {
    if (seen.has(entry.id)) problems.push(`${at(index, 'id')}: "${entry.id}" is listed twice`);
    seen.add(entry.id);
    if (entry.provider !== 'builtin' && !entry.model)
      problems.push(`${at(index, 'model')}: is required for ${entry.provider}`);
    if (entry.apiKeyEnv && !env[entry.apiKeyEnv]) {
      problems.push(`${at(index, 'apiKeyEnv')}: the environment variable ${entry.apiKeyEnv} is not set`);
    }
    if (entry.provider === 'anthropic' && !entry.apiKeyEnv) {
      problems.push(`${at(index, 'apiKeyEnv')}: is required for anthropic (the variable that holds its key)`);
    }
    const output = entry.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    if (entry.contextTokens - output < MIN_PROMPT_BUDGET_TOKENS) {
      problems.push(
        `${at(index, 'contextTokens')}: must exceed maxOutputTokens (${output}) by at least ${MIN_PROMPT_BUDGET_TOKENS}`,
      );
    }
    const range = entry.temperature;
    if (range?.default !== undefined && range.max !== undefined && range.default > range.max) {
      problems.push(`${at(index, 'temperature')}: default must not be above max`);
    }
  });
  const byId = new Map(file.narrators.map((entry) => [entry.id, entry]));
  const def = byId.get(file.default);
  if (!def) problems.push(`NARRATORS_FILE: default: "${file.default}" is not one of the narrators`);
  else if ((def.access ?? 'everyone') !== 'everyone') {
    problems.push(`NARRATORS_FILE: default: "${file.default}" must be open to everyone (its access is admins)`);
  }
  for (const task of NARRATOR_TASKS) {
    const id = file.tasks?.[task];
    if (id !== undefined && !byId.has(id))
      problems.push(`NARRATORS_FILE: tasks.${task}: "${id}" is not one of the narrators`);
  }
  return problems;
}

/** A file's narrator as a whole LlmConfig: what it leaves out is the LLM_* narrator's (`shared`). */
function narratorConfig(entry: FileNarrator, shared: LlmConfig, env: Record<string, string | undefined>): LlmConfig {
  const input = entry.prices?.input ?? shared.prices.inputPerMillion;
  return {
    ...shared,
    provider: entry.provider,
    baseUrl: (entry.baseUrl ?? DEFAULT_BASE_URLS[entry.provider]).replace(/\/+$/, ''),
    apiKey: entry.apiKeyEnv ? env[entry.apiKeyEnv] : undefined,
    model: entry.provider === 'builtin' ? BUILTIN_MODEL : (entry.model as string),
    contextTokens: entry.contextTokens,
    maxOutputTokens: entry.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    temperature:
      entry.temperature?.default ?? Math.min(shared.temperature, entry.temperature?.max ?? TEMPERATURE_CEILING),
    temperatureMax: entry.temperature?.max ?? TEMPERATURE_CEILING,
    prices: entry.prices
      ? {
          inputPerMillion: input,
          cachedInputPerMillion: entry.prices.cachedInput ?? input,
          outputPerMillion: entry.prices.output,
          imagePerMillion: shared.prices.imagePerMillion,
        }
      : shared.prices,
  };
}

/**
 * The catalogue NARRATORS_FILE defines, or its problems, one line each. A narrator without prices is
 * priced as LLM_PRICE_* say, and starts at LLM_TEMPERATURE; its timeout, the demo's pace and the
 * prompt's shares are the LLM_* ones.
 */
export function readNarratorCatalogue(
  path: string,
  llm: LlmConfig,
  env: Record<string, string | undefined>,
): { catalogue: NarratorCatalogue } | { problems: string[] } {
  const read = readCatalogueText(path);
  if ('problem' in read) return { problems: [read.problem] };
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch (error) {
    return { problems: [`NARRATORS_FILE: ${path} is not JSON (${(error as Error).message})`] };
  }
  const parsed = catalogueFile.safeParse(json);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => {
        const where = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
        return `NARRATORS_FILE: ${where.replace(/^\./, '') || 'file'}: ${issue.message}`;
      }),
    };
  }
  const problems = catalogueProblems(parsed.data, env);
  if (problems.length > 0) return { problems };
  const file = parsed.data;
  return {
    catalogue: {
      narrators: file.narrators.map((entry) => ({
        id: entry.id,
        label: entry.label,
        description: entry.description ?? '',
        access: entry.access ?? 'everyone',
        llm: narratorConfig(entry, llm, env),
      })),
      defaultId: file.default,
      tasks: {
        summary: file.tasks?.summary ?? null,
        title: file.tasks?.title ?? null,
        style: file.tasks?.style ?? null,
      },
    },
  };
}
