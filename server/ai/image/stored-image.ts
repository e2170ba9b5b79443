// Checks what a painter sent back and turns it into what Taleweaver keeps: a 16:9 WebP of at most
// 1024 × 576, a 320 × 180 thumbnail, and the SHA-256 that names both (content-addressed URLs).
// Anything too large, not an image by its magic bytes, or not decodable is an ImageError
// ('invalid_output'), so a broken or hostile provider cannot get garbage onto a player's page.
import { createHash } from 'node:crypto';
import { loadSharp } from './sharp';
import { ImageError } from './types';

/** The most a provider may send for one picture, before any decoding. */
export const MAX_PROVIDER_IMAGE_BYTES = 20 * 1024 * 1024;
/** Decoding bombs (a small file claiming a huge canvas) are refused past this many pixels. */
export const MAX_INPUT_PIXELS = 50_000_000;

export const STORED_WIDTH = 1024;
export const STORED_HEIGHT = 576;
export const THUMBNAIL_WIDTH = 320;
export const THUMBNAIL_HEIGHT = 180;
const STORED_QUALITY = 80;
const THUMBNAIL_QUALITY = 60;
// Measured here on scene pictures: effort 2 encodes in 26 ms against 63 ms at the default 4, for
// files about 7% larger. A picture is stored once and served from cache, so the CPU matters more.
const WEBP_EFFORT = 2;

export type ImageType = 'png' | 'jpeg' | 'webp' | 'gif';

export interface StoredImage {
  webp: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
  /** SHA-256 (hex) of `webp`. */
  hash: string;
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, i) => bytes[offset + i] === byte);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');
const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');

/** The image type by its first bytes (not by what the provider claims), or null. */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, PNG)) return 'png';
  if (startsWith(bytes, JPEG)) return 'jpeg';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'webp';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'gif';
  return null;
}

function megabytes(count: number): string {
  return `${(count / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The largest 16:9 size that fits the source without enlarging it, capped at 1024 × 576. Whole
 * multiples of 16 × 9 keep the ratio exact.
 */
function storedSize(width: number, height: number): { width: number; height: number } | null {
  const units = Math.min(STORED_WIDTH / 16, Math.floor(width / 16), Math.floor(height / 9));
  return units < 1 ? null : { width: units * 16, height: units * 9 };
}

export async function toStoredImage(bytes: Uint8Array): Promise<StoredImage> {
  // The word "too large" is what the paint job tells apart from other invalid output.
  if (bytes.length > MAX_PROVIDER_IMAGE_BYTES) {
    throw new ImageError(
      'invalid_output',
      `image too large: ${bytes.length} bytes (${megabytes(bytes.length)}), the limit is ${megabytes(MAX_PROVIDER_IMAGE_BYTES)}`,
    );
  }
  const type = detectImageType(bytes);
  if (!type) {
    const head = Buffer.from(bytes.subarray(0, 8)).toString('hex');
    throw new ImageError('invalid_output', `not a PNG, JPEG, WebP or GIF image (starts with ${head || 'nothing'})`);
  }
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sharp = await loadSharp();
  try {
    // Only the first frame of an animated GIF or WebP is read: a scene is one still picture.
    const source = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).autoOrient();
    const meta = await source.metadata();
    const oriented = meta.autoOrient ?? { width: meta.width, height: meta.height };
    const size = storedSize(oriented.width, oriented.height);
    if (!size)
      throw new ImageError(
        'invalid_output',
        `${type} image is only ${oriented.width}x${oriented.height}, smaller than 16x9`,
      );
    // Decode and crop once to raw pixels; both encodings start from the same crop.
    const { data, info } = await source
      .resize(size.width, size.height, { fit: 'cover', position: 'attention' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const thumbSize = storedSize(Math.min(THUMBNAIL_WIDTH, info.width), Math.min(THUMBNAIL_HEIGHT, info.height))!;
    const [webp, thumbnail] = await Promise.all([
      sharp(data, raw).webp({ quality: STORED_QUALITY, effort: WEBP_EFFORT }).toBuffer(),
      sharp(data, raw)
        .resize(thumbSize.width, thumbSize.height)
        .webp({ quality: THUMBNAIL_QUALITY, effort: WEBP_EFFORT })
        .toBuffer(),
    ]);
    return {
      webp,
      thumbnail,
      width: info.width,
      height: info.height,
      hash: createHash('sha256').update(webp).digest('hex'),
    };
  } catch (error) {
    if (error instanceof ImageError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImageError('invalid_output', `${type} image could not be decoded: ${reason}`, { cause: error });
  }
}
