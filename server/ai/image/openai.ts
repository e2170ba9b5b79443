// OpenAI-compatible image generation (POST {base}/images/generations): OpenAI's gpt-image and
// dall-e models and the servers that copy the API (LocalAI, some gateways). The picture comes back
// as base64 or as a URL to fetch; gpt-image models report token usage, which is passed on as is.
// Base64 is asked for wherever the API takes the field (dall-e), so a URL is the exception; one
// is fetched only under picture-download.ts's rules.
import { authorizationFor, decodeBase64Image, downloadImage, isRecord, postJson, startCall } from './provider-http';
import { ImageError, type ImageConfig, type ImageProvider, type ImageRequest } from './types';

/** OpenAI's own models accept only a few sizes; anything else gets a 400. Other servers take WxH. */
function sizeFor(model: string, width: number, height: number): string {
  const wide = width > height;
  const tall = height > width;
  if (model.startsWith('dall-e-2')) return '1024x1024';
  if (model.startsWith('dall-e-3')) return wide ? '1792x1024' : tall ? '1024x1792' : '1024x1024';
  if (model.startsWith('gpt-image')) return wide ? '1536x1024' : tall ? '1024x1536' : '1024x1024';
  return `${width}x${height}`;
}

/** OpenAI's prompt limits by model; past them it answers 400 rather than truncating. */
function promptLimit(model: string): number {
  if (model.startsWith('dall-e-2')) return 1000;
  if (model.startsWith('dall-e-3')) return 4000;
  return 32_000;
}

/** There is no negative prompt here, so what must not appear is said in words at the end. */
export function openAiPrompt(model: string, prompt: string, negativePrompt: string): string {
  const avoid = negativePrompt.trim().replace(/[.\s]+$/, '');
  const tail = avoid ? ` Avoid: ${avoid}.` : '';
  const room = Math.max(0, promptLimit(model) - tail.length);
  return `${prompt.slice(0, room).trimEnd()}${tail}`;
}

function imageTokensOf(answer: Record<string, unknown>): number | undefined {
  const usage = answer.usage;
  if (!isRecord(usage)) return undefined;
  for (const key of ['total_tokens', 'output_tokens'] as const) {
    const value = usage[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  }
  return undefined;
}

/** A relative URL is taken relative to the API base, as a self-hosted server may answer one. */
function resolveUrl(url: string, baseUrl: string): string {
  if (url.startsWith('data:')) return url;
  try {
    return new URL(url, `${baseUrl}/`).href;
  } catch (error) {
    throw new ImageError('invalid_output', 'data[0].url is not a URL', { cause: error });
  }
}

export function createOpenAiImageProvider(config: ImageConfig): ImageProvider {
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const endpoint = `${baseUrl}/images/generations`;
  // The one host whose picture URLs are fetched whatever its address (a LAN server such as LocalAI).
  const providerHost = URL.canParse(baseUrl) ? new URL(baseUrl).host : '';
  return {
    id: 'openai',
    model: config.model,
    async generate(request: ImageRequest) {
      const context = startCall(request.signal, config.timeoutMs, config.apiKey);
      const body: Record<string, unknown> = {
        model: config.model,
        prompt: openAiPrompt(config.model, request.prompt, request.negativePrompt),
        n: 1,
        size: sizeFor(config.model, request.width, request.height),
      };
      // dall-e answers with a URL unless told otherwise; gpt-image models always send base64 and reject the field.
      if (config.model.startsWith('dall-e')) body.response_format = 'b64_json';
      const answer = await postJson(endpoint, body, authorizationFor(config.apiKey, false), context);
      const first = isRecord(answer) && Array.isArray(answer.data) ? (answer.data[0] as unknown) : undefined;
      if (!isRecord(answer) || !isRecord(first)) throw new ImageError('invalid_output', 'answer has no data[0]');
      let bytes: Uint8Array;
      if (typeof first.b64_json === 'string' && first.b64_json)
        bytes = decodeBase64Image(first.b64_json, context, 'data[0].b64_json');
      else if (typeof first.url === 'string' && first.url)
        bytes = await downloadImage(resolveUrl(first.url, baseUrl), context, providerHost);
      else throw new ImageError('invalid_output', 'data[0] has neither b64_json nor url');
      return { bytes, imageTokens: imageTokensOf(answer) };
    },
  };
}
