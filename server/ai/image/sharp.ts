// sharp (libvips), loaded on the first picture rather than at start: the native library costs
// about 25 MB of resident memory and 70 ms to load, and a server with pictures off (the default,
// IMAGE_PROVIDER=none) never needs it.
import type SharpModule from 'sharp';

export type Sharp = typeof SharpModule;

let loading: Promise<Sharp> | null = null;

export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache only pays off when one image is processed twice; here every image
    // is new, and without it memory stays flat over thousands of pictures. libvips already runs
    // one thread per image on glibc without jemalloc (sharp's default there): concurrency stays.
    sharp.cache(false);
    return sharp;
  });
  return loading;
}
