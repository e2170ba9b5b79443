// The painter's settings (IMAGE_*): which provider, where, which model, the picture size and how
// many pictures run at once and per player per hour.
import { z } from 'zod';
import { httpUrl, OPENAI_BASE_URL, positiveInt, providerId } from './env';
import { setting, type ParsedSettings } from './setting';

export const IMAGE_PROVIDERS = ['builtin', 'openai', 'automatic1111', 'none'] as const;
export type ImageProviderId = (typeof IMAGE_PROVIDERS)[number];

export const BUILTIN_IMAGE_MODEL = 'taleweaver-painter';
/** What each painter is asked for when IMAGE_SIZE is unset: 16:9, or the nearest wide size the API offers. */
const DEFAULT_IMAGE_SIZES: Record<ImageProviderId, string> = {
  builtin: '1024x576',
  openai: '1536x1024',
  automatic1111: '1024x576',
  none: '1024x576',
};
const DEFAULT_IMAGE_BASE_URLS: Record<ImageProviderId, string> = {
  builtin: '',
  openai: OPENAI_BASE_URL,
  automatic1111: 'http://127.0.0.1:7860',
  none: '',
};

export const imageSettings = {
  IMAGE_PROVIDER: setting({
    group: 'Pictures',
    doc: 'Who paints the scene images: `builtin` (the offline demo painter), `openai`, `automatic1111` or `none`.',
    default: 'builtin',
    example: 'openai',
    schema: providerId('IMAGE_PROVIDER', IMAGE_PROVIDERS),
  }),
  IMAGE_BASE_URL: setting({
    group: 'Pictures',
    doc: "The painter's API root: OpenAI's for `openai`, `http://127.0.0.1:7860` for `automatic1111`.",
    unsetDoc: 'per provider',
    schema: httpUrl('IMAGE_BASE_URL'),
  }),
  IMAGE_API_KEY: setting({
    group: 'Pictures',
    doc: "The painter's key (a Bearer token; `user:password` for automatic1111 behind basic auth).",
    secret: true,
    example: 'sk-…',
    schema: z.string().trim(),
  }),
  IMAGE_MODEL: setting({
    group: 'Pictures',
    doc: 'Model name; required for `openai`; for automatic1111 it only names the ledger rows.',
    example: 'gpt-image-1',
    schema: z.string().trim(),
  }),
  IMAGE_TIMEOUT_MS: setting({
    group: 'Pictures',
    doc: 'Longest one picture may take; then the job is retried once, then fails.',
    default: '120000',
    schema: positiveInt('IMAGE_TIMEOUT_MS'),
  }),
  IMAGE_CONCURRENCY: setting({
    group: 'Pictures',
    doc: 'Picture jobs running at once in each app instance.',
    default: '2',
    schema: positiveInt('IMAGE_CONCURRENCY'),
  }),
  IMAGE_MAX_PER_HOUR: setting({
    group: 'Pictures',
    doc: 'Pictures each player may ask for per hour; then 429.',
    default: '30',
    schema: positiveInt('IMAGE_MAX_PER_HOUR'),
  }),
  IMAGE_JOB_GRACE_SECONDS: setting({
    group: 'Pictures',
    doc: 'How long past `IMAGE_TIMEOUT_MS` a running job may go unfinished before another instance retries it.',
    default: '60',
    schema: positiveInt('IMAGE_JOB_GRACE_SECONDS'),
  }),
  IMAGE_SIZE: setting({
    group: 'Pictures',
    doc: 'Size asked of the painter, `WIDTHxHEIGHT`: `1536x1024` for `openai`, else `1024x576`.',
    unsetDoc: 'per provider',
    schema: z
      .string()
      .trim()
      .regex(/^\d{2,4}x\d{2,4}$/, 'IMAGE_SIZE must be WIDTHxHEIGHT, for example 1024x576'),
  }),
  IMAGE_STEPS: setting({
    group: 'Pictures',
    doc: 'automatic1111 sampling steps.',
    default: '25',
    schema: positiveInt('IMAGE_STEPS'),
  }),
};

type ImageEnv = ParsedSettings<typeof imageSettings>;

/** The painter's configuration (`config.image`), read from its variables. */
export function imageConfig(e: ImageEnv) {
  const [width, height] = (e.IMAGE_SIZE ?? DEFAULT_IMAGE_SIZES[e.IMAGE_PROVIDER]).split('x').map(Number);
  return {
    provider: e.IMAGE_PROVIDER,
    baseUrl: (e.IMAGE_BASE_URL ?? DEFAULT_IMAGE_BASE_URLS[e.IMAGE_PROVIDER]).replace(/\/+$/, ''),
    apiKey: e.IMAGE_API_KEY || undefined,
    model:
      e.IMAGE_PROVIDER === 'builtin'
        ? BUILTIN_IMAGE_MODEL
        : (e.IMAGE_MODEL ?? (e.IMAGE_PROVIDER === 'automatic1111' ? 'automatic1111' : '')),
    timeoutMs: e.IMAGE_TIMEOUT_MS,
    /** Jobs running at once per instance. */
    concurrency: e.IMAGE_CONCURRENCY,
    /** Pictures each player may ask for per hour. */
    maxPerHour: e.IMAGE_MAX_PER_HOUR,
    /** Size asked of the provider, e.g. 1024x576; stored pictures are cropped to 16:9. */
    width,
    height,
    /** automatic1111 sampling steps. */
    steps: e.IMAGE_STEPS,
  };
}

export type ImageConfig = ReturnType<typeof imageConfig>;

/** Rules that tie the image variables together. */
export function checkImage(e: ImageEnv): string[] {
  const problems: string[] = [];
  if (e.IMAGE_PROVIDER === 'openai' && !e.IMAGE_MODEL)
    problems.push(
      'IMAGE_MODEL: IMAGE_MODEL is required when IMAGE_PROVIDER is openai (for example gpt-image-1 or dall-e-3)',
    );
  if (e.IMAGE_SIZE) {
    const [width, height] = e.IMAGE_SIZE.split('x').map(Number);
    if (width < 64 || height < 64 || width > 4096 || height > 4096)
      problems.push('IMAGE_SIZE: IMAGE_SIZE must be between 64x64 and 4096x4096');
  }
  return problems;
}
