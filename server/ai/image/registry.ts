// Chooses the painter from IMAGE_PROVIDER. A new provider is a new adapter file plus one line here;
// 'none' turns scene images off (no painter at all, so the routes say so instead of failing).
import { AUTOMATIC1111_DEFAULT_MODEL, createAutomatic1111Provider } from './automatic1111';
import { createBuiltinPainter } from './builtin';
import { createOpenAiImageProvider } from './openai';
import type { ImageConfig, ImageProvider, ImageProviderId } from './types';

const FACTORIES: Record<Exclude<ImageProviderId, 'none'>, (config: ImageConfig) => ImageProvider> = {
  builtin: createBuiltinPainter,
  openai: createOpenAiImageProvider,
  automatic1111: createAutomatic1111Provider,
};

export function createImageProvider(config: ImageConfig): ImageProvider | null {
  return config.provider === 'none' ? null : FACTORIES[config.provider](config);
}

const LABELS: Record<Exclude<ImageProviderId, 'none' | 'builtin'>, string> = {
  openai: 'OpenAI-compatible images',
  automatic1111: 'Stable Diffusion WebUI',
};

/** How the admin usage card names the painter, and what it says while the demo painter draws. */
export function describeImageProvider(config: ImageConfig): { provider: string; notice: string | null } {
  if (config.provider === 'none') return { provider: 'Scene images off', notice: null };
  if (config.provider === 'builtin') {
    return {
      provider: 'Offline demo painter (builtin)',
      notice:
        'Pictures are drawn by the offline demo painter, not an AI model. To connect a real one, set IMAGE_PROVIDER=openai (any OpenAI-compatible images API) or automatic1111 (Stable Diffusion WebUI), with IMAGE_BASE_URL, IMAGE_API_KEY and IMAGE_MODEL, and restart.',
    };
  }
  const model = config.model || (config.provider === 'automatic1111' ? AUTOMATIC1111_DEFAULT_MODEL : 'no model set');
  return { provider: `${LABELS[config.provider]} (${model})`, notice: null };
}
