// Stable Diffusion WebUI (AUTOMATIC1111, and Forge, which keeps its API) through txt2img: the one
// adapter that takes a negative prompt and the story's seed, so a story's pictures share a look.
// The key is sent as a bearer token for a proxy in front, or as HTTP Basic for --api-auth user:pass.
import { authorizationFor, decodeBase64Image, isRecord, postJson, startCall } from './provider-http';
import { ImageError, type ImageConfig, type ImageProvider, type ImageRequest } from './types';

export const AUTOMATIC1111_DEFAULT_MODEL = 'automatic1111';

export function createAutomatic1111Provider(config: ImageConfig): ImageProvider {
  const endpoint = `${config.baseUrl.replace(/\/+$/, '')}/sdapi/v1/txt2img`;
  return {
    id: 'automatic1111',
    model: config.model || AUTOMATIC1111_DEFAULT_MODEL,
    async generate(request: ImageRequest) {
      const context = startCall(request.signal, config.timeoutMs, config.apiKey);
      const body = {
        prompt: request.prompt,
        negative_prompt: request.negativePrompt,
        seed: request.seed,
        steps: config.steps,
        width: request.width,
        height: request.height,
        sampler_name: 'Euler a',
        cfg_scale: 7,
        batch_size: 1,
        n_iter: 1,
      };
      const answer = await postJson(endpoint, body, authorizationFor(config.apiKey, true), context);
      const first = isRecord(answer) && Array.isArray(answer.images) ? (answer.images[0] as unknown) : undefined;
      if (typeof first !== 'string' || !first) throw new ImageError('invalid_output', 'answer has no images[0]');
      return { bytes: decodeBase64Image(first, context, 'images[0]'), imageTokens: undefined };
    },
  };
}
