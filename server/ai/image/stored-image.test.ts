// What is kept of a provider's answer: recognised by magic bytes only, refused when too large or
// undecodable, cropped to a 16:9 WebP of at most 1024 × 576 with a 320 × 180 thumbnail, and
// named by the SHA-256 of the stored bytes.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { failureOf as failureOfKind } from '@server/test/failure-of';
import { detectImageType, MAX_PROVIDER_IMAGE_BYTES, toStoredImage } from './stored-image';
import { ImageError } from './types';

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });

const failureOf = (promise: Promise<unknown>) => failureOfKind(promise, ImageError);

const isWebp = (bytes: Buffer) =>
  bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP';

describe('detectImageType', () => {
  it('knows PNG, JPEG, WebP and GIF by their first bytes', async () => {
    expect(detectImageType(await solid(8, 8).png().toBuffer())).toBe('png');
    expect(detectImageType(await solid(8, 8).jpeg().toBuffer())).toBe('jpeg');
    expect(detectImageType(await solid(8, 8).webp().toBuffer())).toBe('webp');
    expect(detectImageType(await solid(8, 8).gif().toBuffer())).toBe('gif');
    expect(detectImageType(Buffer.from('GIF87a......'))).toBe('gif');
  });

  it('refuses anything else, whatever it claims to be', () => {
    expect(detectImageType(Buffer.from('hello'))).toBeNull();
    expect(detectImageType(new Uint8Array())).toBeNull();
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(detectImageType(Buffer.from([0x89, 0x50, 0x4e]))).toBeNull();
  });
});

describe('toStoredImage', () => {
  it('refuses bytes that are not an image', async () => {
    const error = await failureOf(toStoredImage(Buffer.from('hello')));
    expect(error.failure).toBe('invalid_output');
    expect(error.detail).toMatch(/not a PNG, JPEG, WebP or GIF/);
    expect(error.detail).not.toMatch(/too large|bytes/i);
  });

  it('refuses an image over the size limit and says how large it was', async () => {
    const huge = Buffer.alloc(MAX_PROVIDER_IMAGE_BYTES + 1);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(huge);
    const error = await failureOf(toStoredImage(huge));
    expect(error.failure).toBe('invalid_output');
    expect(error.detail).toContain('too large');
    expect(error.detail).toContain(String(MAX_PROVIDER_IMAGE_BYTES + 1));
  });

  it('refuses a file with image magic that cannot be decoded', async () => {
    const png = await solid(64, 36).png().toBuffer();
    const error = await failureOf(toStoredImage(png.subarray(0, 40)));
    expect(error.failure).toBe('invalid_output');
    expect(error.detail).toMatch(/png image could not be decoded/);
  });

  it('crops a square picture to a 16:9 WebP of 1024 × 576 with a 320 × 180 thumbnail', async () => {
    const stored = await toStoredImage(await solid(1000, 1000).png().toBuffer());
    expect({ width: stored.width, height: stored.height }).toEqual({ width: 992, height: 558 });
    expect(isWebp(stored.webp)).toBe(true);
    expect(await sharp(stored.webp).metadata()).toMatchObject({ format: 'webp', width: 992, height: 558 });
    expect(isWebp(stored.thumbnail)).toBe(true);
    expect(await sharp(stored.thumbnail).metadata()).toMatchObject({ format: 'webp', width: 320, height: 180 });

    const large = await toStoredImage(await solid(1536, 1024).jpeg().toBuffer());
    expect(await sharp(large.webp).metadata()).toMatchObject({ width: 1024, height: 576 });
  });

  it('never enlarges a small picture but keeps it 16:9', async () => {
    const stored = await toStoredImage(await solid(200, 150).gif().toBuffer());
    expect({ width: stored.width, height: stored.height }).toEqual({ width: 192, height: 108 });
    expect(stored.width / stored.height).toBeCloseTo(16 / 9, 5);
    expect(await sharp(stored.thumbnail).metadata()).toMatchObject({ width: 192, height: 108 });
  });

  it('names the picture by the SHA-256 of the stored WebP, the same for the same input', async () => {
    const png = await solid(1024, 576).png().toBuffer();
    const first = await toStoredImage(png);
    const second = await toStoredImage(png);
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(first.hash).toBe(createHash('sha256').update(first.webp).digest('hex'));
    expect(second.hash).toBe(first.hash);
    expect(second.webp.equals(first.webp)).toBe(true);
    const other = await toStoredImage(
      await sharp({ create: { width: 1024, height: 576, channels: 3, background: '#123456' } })
        .png()
        .toBuffer(),
    );
    expect(other.hash).not.toBe(first.hash);
  });
});
