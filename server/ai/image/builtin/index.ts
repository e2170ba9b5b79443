// The builtin painter: the offline demo image provider behind the same interface as the real ones.
// It reads the scene with keyword heuristics (analysis.ts), draws it as SVG (scene-svg.ts) and
// renders a PNG with sharp. No network and no model weights; the same text and seed always give
// the same bytes. It reports no image tokens: the caller records a documented fixed equivalent.
import { loadSharp } from '../sharp';
import { ImageError, type ImageConfig, type ImageProvider, type ImageRequest } from '../types';
import { analyseScene } from './analysis';
import { hashText } from './random';
import { composeSceneSvg } from './scene-svg';

export { analyseScene, type SceneAnalysis } from './analysis';

export const BUILTIN_PAINTER_MODEL = 'taleweaver-painter';

function throwIfAborted(signal: AbortSignal, stage: string): void {
  if (signal.aborted) throw new ImageError('timeout', `builtin painter aborted ${stage}`, { cause: signal.reason });
}

/** The SVG the painter renders; exported for tests and for looking at a scene by hand. */
export function sceneSvg(
  request: Pick<ImageRequest, 'sceneText' | 'styleSheet' | 'seed' | 'width' | 'height'>,
): string {
  const analysis = analyseScene(request.sceneText, request.styleSheet.artStyle);
  const seed = hashText(`${request.seed}\u0000${request.styleSheet.artStyle}\u0000${request.sceneText}`);
  return composeSceneSvg(analysis, seed, request.width, request.height);
}

export function createBuiltinPainter(_config: ImageConfig): ImageProvider {
  return {
    id: 'builtin',
    model: BUILTIN_PAINTER_MODEL,
    async generate(request) {
      throwIfAborted(request.signal, 'before drawing');
      const svg = sceneSvg(request);
      // A low zlib level: the bytes are re-encoded to WebP when stored, so PNG size barely matters.
      const sharp = await loadSharp();
      const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 3 }).toBuffer();
      throwIfAborted(request.signal, 'after drawing');
      return { bytes: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), imageTokens: undefined };
    },
  };
}
