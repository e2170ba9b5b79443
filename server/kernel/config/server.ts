// The server's own settings: where it listens and keeps data, proxies and hosts it trusts, cookies,
// logging, the request limits, Redis, and what it serves.
import { z } from 'zod';
import { booleanFlag, positiveInt } from './env';

/** A host name or bracketed IPv6 address as a Host header carries it, optionally with a port. */
const ALLOWED_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

export type TrustProxy = boolean | number | string;

export const serverEnv = {
  PORT: z
    .string()
    .trim()
    .regex(/^\d+$/, 'PORT must be a whole number between 0 and 65535')
    .transform(Number)
    .refine((n) => n <= 65535, 'PORT must be a whole number between 0 and 65535')
    .default(3000),
  HOST: z.string().trim().min(1, 'HOST must not be empty').default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1, 'DATA_DIR must not be empty').default('./data'),
  DATABASE_URL: z
    .string()
    .trim()
    .refine(
      (v) => v === '' || /^postgres(ql)?:\/\//.test(v),
      'DATABASE_URL must start with postgres:// or postgresql://',
    )
    .optional(),
  DATABASE_POOL_SIZE: positiveInt('DATABASE_POOL_SIZE').default(10),
  ADMIN_USERNAMES: z.string().default(''),
  TRUST_PROXY: z
    .string()
    .trim()
    .refine(
      (v) =>
        v === '' || ['true', 'false'].includes(v.toLowerCase()) || /^\d+$/.test(v) || /^[0-9a-fA-F:.,/\s]+$/.test(v),
      'TRUST_PROXY must be true, false, a hop count or a comma list of proxy addresses',
    )
    .default('false'),
  COOKIE_SECURE: z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['auto', 'true', 'false'].includes(v), 'COOKIE_SECURE must be auto, true or false')
    .default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['auto', 'json', 'pretty'].includes(v), 'LOG_FORMAT must be auto, json or pretty')
    .default('auto'),
  SHUTDOWN_DRAIN_MS: z
    .string()
    .trim()
    .regex(/^\d+$/, 'SHUTDOWN_DRAIN_MS must be a whole number of milliseconds between 0 and 600000')
    .transform(Number)
    .refine((n) => n <= 600_000, 'SHUTDOWN_DRAIN_MS must be a whole number of milliseconds between 0 and 600000')
    .default(30_000),
  LOGIN_MAX_FAILURES: positiveInt('LOGIN_MAX_FAILURES').default(10),
  LOGIN_FAILURE_WINDOW_MINUTES: positiveInt('LOGIN_FAILURE_WINDOW_MINUTES').default(15),
  REGISTER_MAX_PER_HOUR: positiveInt('REGISTER_MAX_PER_HOUR').default(30),
  CAPTCHA_MAX_PER_MINUTE: positiveInt('CAPTCHA_MAX_PER_MINUTE').default(30),
  SHARED_READS_PER_MINUTE: positiveInt('SHARED_READS_PER_MINUTE').default(120),
  USERNAME_CHECKS_PER_MINUTE: positiveInt('USERNAME_CHECKS_PER_MINUTE').default(30),
  EMAIL_UPDATES_PER_HOUR: positiveInt('EMAIL_UPDATES_PER_HOUR').default(10),
  SHARED_PICTURES_PER_MINUTE: positiveInt('SHARED_PICTURES_PER_MINUTE').default(600),
  SHARE_MAX_BYTES: positiveInt('SHARE_MAX_BYTES').default(8 * 1024 * 1024),
  REDIS_URL: z
    .string()
    .trim()
    .refine(
      (v) => /^rediss?:\/\/[^\s]*$/.test(v) && URL.canParse(v),
      'REDIS_URL must be a redis:// or rediss:// URL, for example redis://127.0.0.1:6379',
    )
    .optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .trim()
    .regex(/^[\w:.-]{1,64}$/, 'REDIS_KEY_PREFIX must be 1 to 64 letters, digits or _ : . -')
    .default('taleweaver:'),
  PUBLIC_URL: z
    .string()
    .trim()
    .refine(
      (v) => /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(v),
      'PUBLIC_URL must be an http:// or https:// address without query or fragment',
    )
    .optional(),
  ALLOWED_HOSTS: z
    .string()
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((host) => host.trim().toLowerCase())
          .filter(Boolean),
      ),
    ])
    .refine(
      (hosts) => hosts.every((host) => ALLOWED_HOST.test(host)),
      'ALLOWED_HOSTS must be a comma list of host names, each optionally with :port (for example stories.example.com,www.stories.example.com)',
    )
    .default([]),
  SERVE_CLIENT: booleanFlag('SERVE_CLIENT').default(true),
  COMPRESSION: booleanFlag('COMPRESSION').default(true),
  METRICS_TOKEN: z
    .string()
    .trim()
    .regex(
      /^[\x21-\x7e]{16,512}$/,
      'METRICS_TOKEN must be 16 to 512 printable characters without spaces (for example: openssl rand -hex 32)',
    )
    .optional(),
};

export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim().toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return raw.trim();
}
