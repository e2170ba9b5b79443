// The zod pieces every kind of setting is read with: one message per bad variable, naming it.
import { z } from 'zod';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export const booleanFlag = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), `${name} must be true or false`)
    .transform((v) => ['true', '1', 'yes'].includes(v));

export const positiveInt = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n > 0, `${name} must be greater than 0`);

/** An http:// or https:// URL with no space in it. */
export const isHttpUrl = (v: string) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v);

export const httpUrl = (name: string) =>
  z.string().trim().refine(isHttpUrl, `${name} must be an http:// or https:// URL`);

/** "a, b or c": the ids a bad value is told it must be one of. */
const eitherOf = (ids: readonly string[]) =>
  ids.length > 1 ? `${ids.slice(0, -1).join(', ')} or ${ids[ids.length - 1]}` : ids.join('');

/** One of the provider ids, case-insensitive. */
export const providerId = <T extends string>(name: string, ids: readonly T[]) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => (ids as readonly string[]).includes(v), `${name} must be ${eitherOf(ids)}`)
    .transform((v) => v as T);
