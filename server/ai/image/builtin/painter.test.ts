// The offline painter end to end: a PNG of the asked size, byte-identical for the same text and
// seed, clearly different for different scenes, and a timeout error when its signal is aborted.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageError, type ImageConfig, type ImageRequest } from '../types';
import { BUILTIN_PAINTER_MODEL, createBuiltinPainter, sceneSvg } from '.';

const config: ImageConfig = {
  provider: 'builtin',
  baseUrl: '',
  apiKey: undefined,
  model: BUILTIN_PAINTER_MODEL,
  timeoutMs: 5000,
  concurrency: 1,
  maxPerHour: 30,
  width: 1024,
  height: 576,
  steps: 20,
};

const SEA_STORM =
  'Thunder rolls over the black sea at midnight. Waves crash over the deck as lightning forks above the ship.';
const DESERT_NOON = 'At noon the sun blazes over the golden dunes of the desert. A horse rests beside a cactus.';

function request(sceneText: string, overrides: Partial<ImageRequest> = {}): ImageRequest {
  return {
    prompt: 'unused by the builtin painter',
    negativePrompt: '',
    sceneText,
    styleSheet: { artStyle: 'painterly high-fantasy illustration', player: '', characters: [] },
    contentRating: 'general',
    seed: 1234,
    width: 1024,
    height: 576,
    signal: new AbortController().signal,
    ...overrides,
  };
}

const painter = createBuiltinPainter(config);
const paint = async (sceneText: string, overrides: Partial<ImageRequest> = {}) =>
  Buffer.from((await painter.generate(request(sceneText, overrides))).bytes);

/** Mean red, green and blue over the whole picture. */
async function meanColour(png: Buffer): Promise<number[]> {
  const { channels } = await sharp(png).stats();
  return channels.slice(0, 3).map((channel) => channel.mean);
}

describe('builtin painter', () => {
  it('names itself and reports no image tokens', async () => {
    expect(painter.id).toBe('builtin');
    expect(painter.model).toBe('taleweaver-painter');
    expect((await painter.generate(request(SEA_STORM))).imageTokens).toBeUndefined();
  });

  it('paints a PNG of the asked size', async () => {
    const png = await paint(SEA_STORM);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 1024, height: 576 });
    const small = await paint(SEA_STORM, { width: 640, height: 360 });
    expect(await sharp(small).metadata()).toMatchObject({ format: 'png', width: 640, height: 360 });
  });

  it('gives byte-identical pictures for the same text and seed, and another for another seed', async () => {
    const first = await paint(DESERT_NOON);
    const second = await paint(DESERT_NOON);
    expect(first.equals(second)).toBe(true);
    expect(sceneSvg(request(DESERT_NOON))).toBe(sceneSvg(request(DESERT_NOON)));
    const reseeded = await paint(DESERT_NOON, { seed: 99 });
    expect(reseeded.equals(first)).toBe(false);
  });

  it('makes different scenes look clearly different', async () => {
    const [sea, desert] = await Promise.all([paint(SEA_STORM), paint(DESERT_NOON)]);
    expect(sea.equals(desert)).toBe(false);
    const seaMean = await meanColour(sea);
    const desertMean = await meanColour(desert);
    const brightness = (rgb: number[]) => rgb.reduce((sum, c) => sum + c, 0) / 3;
    // A stormy night at sea is far darker than a desert at noon.
    expect(brightness(desertMean) - brightness(seaMean)).toBeGreaterThan(60);
    const distance = Math.hypot(...seaMean.map((c, i) => c - desertMean[i]));
    expect(distance).toBeGreaterThan(100);
  });

  it('draws the setting, the hour and the named things into the SVG', () => {
    const city = sceneSvg(
      request('Rain drums on the city street at midnight as a car waits.', {
        styleSheet: { artStyle: 'noir mystery', player: '', characters: [] },
      }),
    );
    const space = sceneSvg(
      request('The starship drifts in orbit above a ringed planet.', {
        styleSheet: { artStyle: 'science-fiction', player: '', characters: [] },
      }),
    );
    expect(city).not.toBe(space);
    expect(city).toContain('stroke-width="1.4"'); // rain streaks
    expect(space).toContain('id="nebula"');
    expect(space).not.toContain('stroke-width="1.4"');
    // Different hours change the sky gradient itself.
    const sky = (svg: string) =>
      /<linearGradient id="sky"[^>]*><stop offset="0" stop-color="(#[0-9a-f]{6})"/.exec(svg)?.[1];
    const noon = sceneSvg(request('On the plains at noon.'));
    const night = sceneSvg(request('On the plains at midnight.'));
    expect(sky(noon)).toBeDefined();
    expect(sky(noon)).not.toBe(sky(night));
  });

  it('throws a timeout ImageError when aborted before or while painting', async () => {
    const before = new AbortController();
    before.abort();
    const early = await painter
      .generate(request(SEA_STORM, { signal: before.signal }))
      .catch((error: unknown) => error);
    expect(early).toBeInstanceOf(ImageError);
    expect((early as ImageError).failure).toBe('timeout');

    const during = new AbortController();
    const pending = painter.generate(request(SEA_STORM, { signal: during.signal }));
    during.abort();
    const late = await pending.catch((error: unknown) => error);
    expect(late).toBeInstanceOf(ImageError);
    expect((late as ImageError).failure).toBe('timeout');
  });
});
