// The server's own settings: where it listens and keeps data, proxies and hosts it trusts, cookies,
// logging, the request limits, Redis, and what it serves. Their entries are documented under the
// Server, Database, Limits and Operations topics; they are checked in this order.
import { z } from 'zod';
import { booleanFlag, positiveInt } from './env';
import { setting } from './setting';

/** A host name or bracketed IPv6 address as a Host header carries it, optionally with a port. */
const ALLOWED_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

export type TrustProxy = boolean | number | string;

/** How V8 compiles the embedded database's WebAssembly (EMBEDDED_DB_COMPILER). */
export type EmbeddedDbCompiler = 'optimizing' | 'baseline';

const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;

export const serverSettings = {
  PORT: setting({
    group: 'Server',
    doc: 'HTTP port.',
    default: '3000',
    schema: z
      .string()
      .trim()
      .regex(/^\d+$/, 'PORT must be a whole number between 0 and 65535')
      .transform(Number)
      .refine((n) => n <= 65535, 'PORT must be a whole number between 0 and 65535'),
  }),
  HOST: setting({
    group: 'Server',
    doc: 'Interface to listen on (`127.0.0.1` to keep it local).',
    default: '0.0.0.0',
    schema: z.string().trim().min(1, 'HOST must not be empty'),
  }),
  DATA_DIR: setting({
    group: 'Database',
    doc: 'Where the embedded database lives; locked by one process at a time.',
    default: './data',
    schema: z.string().trim().min(1, 'DATA_DIR must not be empty'),
  }),
  EMBEDDED_DB_COMPILER: setting({
    group: 'Database',
    doc: '`baseline`: the embedded database starts on ~40 % less CPU, warm queries ~20 % slower (short-lived servers).',
    default: 'optimizing',
    example: 'baseline',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => v === 'optimizing' || v === 'baseline', 'EMBEDDED_DB_COMPILER must be optimizing or baseline')
      .transform((v) => v as EmbeddedDbCompiler),
  }),
  DATABASE_URL: setting({
    group: 'Database',
    doc: '`postgres://…` switches from the embedded database to PostgreSQL (pooled); may hold a password.',
    secret: true,
    example: 'postgres://taleweaver:password@db.internal:5432/taleweaver',
    schema: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || /^postgres(ql)?:\/\//.test(v),
        'DATABASE_URL must start with postgres:// or postgresql://',
      ),
  }),
  DATABASE_POOL_SIZE: setting({
    group: 'Database',
    doc: 'Connections in the PostgreSQL pool, all opened at start-up and kept open.',
    default: '10',
    schema: positiveInt('DATABASE_POOL_SIZE'),
  }),
  ADMIN_USERNAMES: setting({
    group: 'Operations',
    doc: 'Comma list of usernames given admin rights at every start (see below).',
    default: '',
    example: 'alice,bob',
    schema: z.string(),
  }),
  TRUST_PROXY: setting({
    group: 'Server',
    doc: 'Set behind a reverse proxy: `true`, a hop count, or the proxy addresses.',
    default: 'false',
    example: '1',
    schema: z
      .string()
      .trim()
      .refine(
        (v) =>
          v === '' || ['true', 'false'].includes(v.toLowerCase()) || /^\d+$/.test(v) || /^[0-9a-fA-F:.,/\s]+$/.test(v),
        'TRUST_PROXY must be true, false, a hop count or a comma list of proxy addresses',
      ),
  }),
  COOKIE_SECURE: setting({
    group: 'Server',
    doc: '`auto`: the session cookie is `Secure` when the request came over HTTPS; `true` / `false` force it.',
    default: 'auto',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => ['auto', 'true', 'false'].includes(v), 'COOKIE_SECURE must be auto, true or false'),
  }),
  LOG_LEVEL: setting({
    group: 'Operations',
    doc: 'pino level (`fatal` … `trace`, or `silent`).',
    default: 'info',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  }),
  LOG_FORMAT: setting({
    group: 'Operations',
    doc: '`auto`: one readable line per event on a terminal, JSON lines otherwise; `json` or `pretty` to choose.',
    default: 'auto',
    example: 'json',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => (LOG_FORMATS as readonly string[]).includes(v), 'LOG_FORMAT must be auto, json or pretty')
      .transform((v) => v as (typeof LOG_FORMATS)[number]),
  }),
  SHUTDOWN_DRAIN_MS: setting({
    group: 'Operations',
    doc: 'On SIGTERM, how long replies and pictures in flight may take to finish (0 to 600000).',
    default: '30000',
    schema: z
      .string()
      .trim()
      .regex(/^\d+$/, 'SHUTDOWN_DRAIN_MS must be a whole number of milliseconds between 0 and 600000')
      .transform(Number)
      .refine((n) => n <= 600_000, 'SHUTDOWN_DRAIN_MS must be a whole number of milliseconds between 0 and 600000'),
  }),
  LOGIN_MAX_FAILURES: setting({
    group: 'Limits',
    doc: 'Failed logins allowed per account and, separately, per IP within the window; then 429.',
    default: '10',
    schema: positiveInt('LOGIN_MAX_FAILURES'),
  }),
  LOGIN_FAILURE_WINDOW_MINUTES: setting({
    group: 'Limits',
    doc: 'The window of `LOGIN_MAX_FAILURES`, in minutes.',
    default: '15',
    schema: positiveInt('LOGIN_FAILURE_WINDOW_MINUTES'),
  }),
  REGISTER_MAX_PER_HOUR: setting({
    group: 'Limits',
    doc: 'Accounts created per IP per hour (generous: people share addresses).',
    default: '30',
    schema: positiveInt('REGISTER_MAX_PER_HOUR'),
  }),
  CAPTCHA_MAX_PER_MINUTE: setting({
    group: 'Limits',
    doc: 'Captcha questions per IP per minute.',
    default: '30',
    schema: positiveInt('CAPTCHA_MAX_PER_MINUTE'),
  }),
  SHARED_READS_PER_MINUTE: setting({
    group: 'Limits',
    doc: 'Shared story reads (API and `/shared/…` pages) per IP per minute.',
    default: '120',
    schema: positiveInt('SHARED_READS_PER_MINUTE'),
  }),
  USERNAME_CHECKS_PER_MINUTE: setting({
    group: 'Limits',
    doc: 'Username availability checks (`/api/check-username`, and renames) per IP per minute; then 429.',
    default: '30',
    schema: positiveInt('USERNAME_CHECKS_PER_MINUTE'),
  }),
  EMAIL_UPDATES_PER_HOUR: setting({
    group: 'Limits',
    doc: 'Email changes (`/api/update-email`, which tells whether an email is taken) per IP per hour; then 429.',
    default: '10',
    schema: positiveInt('EMAIL_UPDATES_PER_HOUR'),
  }),
  SHARED_PICTURES_PER_MINUTE: setting({
    group: 'Limits',
    doc: "Shared stories' pictures per IP per minute, counted apart from the story reads; then 429.",
    default: '600',
    schema: positiveInt('SHARED_PICTURES_PER_MINUTE'),
  }),
  SHARE_MAX_BYTES: setting({
    group: 'Limits',
    doc: 'The largest shared story, in bytes of its public JSON (8 MB); a longer one is refused with 413.',
    default: String(8 * 1024 * 1024),
    schema: positiveInt('SHARE_MAX_BYTES'),
  }),
  REDIS_URL: setting({
    group: 'Database',
    doc: '`redis://…` or `rediss://…`: app instances share request limits, stopped shares and ended sessions.',
    secret: true,
    example: 'redis://127.0.0.1:6379',
    schema: z
      .string()
      .trim()
      .refine(
        (v) => /^rediss?:\/\/[^\s]*$/.test(v) && URL.canParse(v),
        'REDIS_URL must be a redis:// or rediss:// URL, for example redis://127.0.0.1:6379',
      ),
  }),
  REDIS_KEY_PREFIX: setting({
    group: 'Database',
    doc: 'Prefix of every Redis key and channel, so that deployments can share one Redis.',
    default: 'taleweaver:',
    schema: z
      .string()
      .trim()
      .regex(/^[\w:.-]{1,64}$/, 'REDIS_KEY_PREFIX must be 1 to 64 letters, digits or _ : . -'),
  }),
  PUBLIC_URL: setting({
    group: 'Server',
    doc: 'The address readers use, for the absolute URLs of link previews and exports. Set it in production.',
    example: 'https://stories.example.com',
    schema: z
      .string()
      .trim()
      .refine(
        (v) => /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(v),
        'PUBLIC_URL must be an http:// or https:// address without query or fragment',
      ),
  }),
  ALLOWED_HOSTS: setting({
    group: 'Server',
    doc: 'Comma list of host names (optionally `name:port`) trusted for absolute URLs when `PUBLIC_URL` is unset.',
    default: '',
    schema: z
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
      ),
  }),
  SERVE_CLIENT: setting({
    group: 'Server',
    doc: 'Serve the built SPA from `dist/client` (turn off to run the API alone).',
    default: 'true',
    schema: booleanFlag('SERVE_CLIENT'),
  }),
  COMPRESSION: setting({
    group: 'Server',
    doc: "Brotli/gzip answers and the build's precompressed files; turn off only behind a compressing proxy.",
    default: 'true',
    schema: booleanFlag('COMPRESSION'),
  }),
  METRICS_TOKEN: setting({
    group: 'Operations',
    doc: 'Bearer token `GET /metrics` asks for (16 to 512 printable characters); unset, loopback only.',
    secret: true,
    example: 'replace-with-the-output-of-openssl-rand-hex-32',
    schema: z
      .string()
      .trim()
      .regex(
        /^[\x21-\x7e]{16,512}$/,
        'METRICS_TOKEN must be 16 to 512 printable characters without spaces (for example: openssl rand -hex 32)',
      ),
  }),
};

export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim().toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return raw.trim();
}
