// The painter's settings (IMAGE_*): which provider, where, which model, the picture size and how
// many pictures run at once and per player per hour.
import { z } from 'zod';
import { httpUrl, OPENAI_BASE_URL, positiveInt } from './env';

export const IMAGE_PROVIDERS = ['builtin', 'openai', 'automatic1111', 'none'] as const;
export type ImageProviderId = (typeof IMAGE_PROVIDERS)[number];

export interface ImageConfig {
  provider: ImageProviderId;
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  /** Jobs running at once per instance. */
  concurrency: number;
  /** Pictures each player may ask for per hour. */
  maxPerHour: number;
  /** Size asked of the provider, e.g. 1024x576; stored pictures are cropped to 16:9. */
  width: number;
  height: number;
  /** automatic1111 sampling steps. */
  steps: number;
}

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

export const imageEnv = {
  IMAGE_PROVIDER: z
    .string()
    .trim()
    .toLowerCase()
    .refine(
      (v) => (IMAGE_PROVIDERS as readonly string[]).includes(v),
      'IMAGE_PROVIDER must be builtin, openai, automatic1111 or none',
    )
    .transform((v) => v as ImageProviderId)
    .default('builtin'),
  IMAGE_BASE_URL: httpUrl('IMAGE_BASE_URL').optional(),
  IMAGE_API_KEY: z.string().trim().optional(),
  IMAGE_MODEL: z.string().trim().optional(),
  IMAGE_TIMEOUT_MS: positiveInt('IMAGE_TIMEOUT_MS').default(120_000),
  IMAGE_CONCURRENCY: positiveInt('IMAGE_CONCURRENCY').default(2),
  IMAGE_MAX_PER_HOUR: positiveInt('IMAGE_MAX_PER_HOUR').default(30),
  IMAGE_JOB_GRACE_SECONDS: positiveInt('IMAGE_JOB_GRACE_SECONDS').default(60),
  IMAGE_SIZE: z
    .string()
    .trim()
    .regex(/^\d{2,4}x\d{2,4}$/, 'IMAGE_SIZE must be WIDTHxHEIGHT, for example 1024x576')
    .optional(),
  IMAGE_STEPS: positiveInt('IMAGE_STEPS').default(25),
};

type ImageEnv = z.infer<z.ZodObject<typeof imageEnv>>;

export function imageConfig(e: ImageEnv): ImageConfig {
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
    concurrency: e.IMAGE_CONCURRENCY,
    maxPerHour: e.IMAGE_MAX_PER_HOUR,
    width,
    height,
    steps: e.IMAGE_STEPS,
  };
}

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
