// Response compression, in two halves. The built client is compressed once, by the build
// (scripts/build/vite-precompress.ts), and its .br/.gz files are sent as they are; everything else the
// app answers is compressed per request, brotli or gzip as the client's Accept-Encoding allows:
// JSON and the shared-story page when over 1 KB, streamed text (the users CSV) always, its size
// being unknown; a download still leaves in pieces while it is written (zlib emits every 16 KB it
// fills), which a download can afford and a story stream cannot. Never compressed: server-sent
// events (a compressor holds the story's words back until its buffer fills), pictures and audio
// (compressed already), and anything that already carries a Content-Encoding.
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import type { FastifyStaticOptions } from '@fastify/static';

/** Answers smaller than this go out as they are: a packet or two either way. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

// Text and the structured text types; `text/event-stream` is excluded by name. @fastify/compress
// also compresses what mime-db marks compressible, which leaves out event streams, images (but SVG)
// and audio.
const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)|application\/(?:json|javascript|xml|[\w.-]+\+(?:json|xml))\b|image\/svg\+xml\b)/i;

export function isCompressible(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType.trim());
}

/** Files the build leaves beside the originals: served in their stead, never as routes of their own. */
const ENCODED_FILES = ['**/*.br', '**/*.gz'];

/**
 * Registers on-the-fly compression for the routes of the scope it is registered in.
 * With `enabled` false nothing is compressed: the figures' "before" and operators whose proxy
 * compresses already (COMPRESSION=false).
 */
export async function registerCompression(app: FastifyInstance, enabled: boolean): Promise<void> {
  if (!enabled) return;
  // The client's files are served as built (precompressed, or identity when small) from outside
  // the scope this is registered in (see app.ts), so their Content-Length and ETag stay true.
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: isCompressible,
    // Request bodies are small JSON: taking compressed uploads would only add a decompression-bomb surface.
    globalDecompression: false,
  });
}

/** @fastify/static options for the built client: its .br/.gz siblings picked by Accept-Encoding. */
export function staticCompressionOptions(enabled: boolean): Pick<FastifyStaticOptions, 'preCompressed' | 'globIgnore'> {
  return { preCompressed: enabled, globIgnore: ENCODED_FILES };
}
