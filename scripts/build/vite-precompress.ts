// Build-time compression of the client: after Vite has written dist/client, every text file over
// 1 KB gets a brotli (`.br`) and a gzip (`.gz`) sibling at maximum quality, beside the original.
// The server sends them as they are (@fastify/static `preCompressed`), so no request pays for
// compression and the wire carries brotli-11 sizes, which no per-request compressor could afford.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this a response fits in a packet or two: compression saves nothing a reader would notice. */
export const PRECOMPRESS_MIN_BYTES = 1024;

/** Text formats; pictures, fonts (woff2 is brotli inside) and audio are compressed already. */
const COMPRESSIBLE_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
  '.xml',
  '.map',
  '.wasm',
]);

/** The suffixes the server looks for, as @fastify/static names them. */
export const ENCODED_SUFFIXES = { br: '.br', gzip: '.gz' } as const;

export interface PrecompressResult {
  /** Originals given compressed siblings, relative to the directory. */
  files: string[];
  originalBytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      return entry.isDirectory() ? listFiles(dir, path) : Promise.resolve(entry.isFile() ? [path] : []);
    }),
  );
  return nested.flat();
}

function isCandidate(path: string, size: number): boolean {
  return size >= PRECOMPRESS_MIN_BYTES && COMPRESSIBLE_EXTENSIONS.has(extname(path).toLowerCase());
}

async function compressFile(path: string): Promise<{ original: number; br: number; gz: number } | null> {
  const source = await readFile(path);
  const [br, gz] = await Promise.all([
    brotli(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gzipAsync(source, { level: constants.Z_BEST_COMPRESSION, memLevel: 9 }),
  ]);
  // A sibling that saves nothing would only cost the reader a decompression.
  if (br.length >= source.length) return null;
  await Promise.all([
    writeFile(path + ENCODED_SUFFIXES.br, br),
    gz.length < source.length ? writeFile(path + ENCODED_SUFFIXES.gzip, gz) : null,
  ]);
  return { original: source.length, br: br.length, gz: Math.min(gz.length, source.length) };
}

/** Writes `.br` and `.gz` beside each compressible file of `dir` of at least PRECOMPRESS_MIN_BYTES. */
export async function precompressDir(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: [], originalBytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const paths = (await listFiles(dir)).filter(
    (path) => !path.endsWith(ENCODED_SUFFIXES.br) && !path.endsWith(ENCODED_SUFFIXES.gzip),
  );
  const sizes = await Promise.all(paths.map(async (path) => (await stat(join(dir, path))).size));
  const candidates = paths.filter((path, i) => isCandidate(path, sizes[i]));
  // zlib's async calls share libuv's thread pool, which bounds how many run at once.
  const done = await Promise.all(candidates.map((path) => compressFile(join(dir, path))));
  done.forEach((sizes, i) => {
    if (!sizes) return;
    result.files.push(candidates[i]);
    result.originalBytes += sizes.original;
    result.brotliBytes += sizes.br;
    result.gzipBytes += sizes.gz;
  });
  return result;
}

/** The Vite plugin: runs precompressDir over the output directory once the bundle is written. */
export function precompress(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'taleweaver:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler(options) {
        if (!options.dir) return;
        const result = await precompressDir(options.dir);
        const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
        config?.logger.info(
          `precompressed ${result.files.length} files: ${kb(result.originalBytes)} → brotli ${kb(result.brotliBytes)}, gzip ${kb(result.gzipBytes)}`,
        );
      },
    },
  };
}
