// A painter for API tests: records what it is asked, answers a small real PNG (a colour per call)
// or fails the way a scripted queue says, so the job, its retries and its storage run for real.
import sharp from 'sharp';
import { ImageError, type ImageFailure, type ImageProvider, type ImageRequest } from '../ai/image/types';

export type PainterStep =
  | { kind: 'ok'; delayMs?: number; imageTokens?: number }
  | { kind: 'fail'; failure: ImageFailure; detail?: string }
  | { kind: 'bytes'; bytes: Uint8Array };

export interface FakePainter extends ImageProvider {
  requests: ImageRequest[];
  queue: PainterStep[];
}

export function createFakePainter(): FakePainter {
  const painter: FakePainter = {
    id: 'openai',
    model: 'fake-painter',
    requests: [],
    queue: [],
    async generate(request) {
      painter.requests.push(request);
      const step = painter.queue.shift() ?? { kind: 'ok' };
      if (step.kind === 'fail') throw new ImageError(step.failure, step.detail ?? `scripted ${step.failure}`);
      if (step.kind === 'bytes') return { bytes: step.bytes, imageTokens: undefined };
      if (step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
      const shade = (painter.requests.length * 37) % 256;
      const bytes = await sharp({
        create: { width: 320, height: 180, channels: 3, background: { r: shade, g: 80, b: 255 - shade } },
      })
        .png()
        .toBuffer();
      return { bytes, imageTokens: step.imageTokens };
    },
  };
  return painter;
}

/**
 * Polls a picture like the SPA does (each poll waits up to 1.5 s on the server) until it is
 * settled: the answer that is no longer "still painting".
 */
export async function settlePicture(
  client: { get(url: string): Promise<import('fastify').LightMyRequestResponse> },
  messageId: number,
) {
  for (let i = 0; i < 20; i += 1) {
    const res = await client.get(`/api/story/message/${messageId}/image`);
    if (res.statusCode !== 404 || res.json().code !== 'IMAGE_PENDING') return res;
  }
  throw new Error('picture never settled');
}
