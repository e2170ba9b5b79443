// Sends a file made for one player as a download: the browser saves it under its name, and no
// cache keeps a copy (it holds that player's stories). A file given in chunks is streamed as they
// are made, with the socket's backpressure (a slow reader holds no more than a chunk or two). If
// making it fails part-way, the connection is closed there: the download fails visibly, its text
// cut short, rather than ending as if complete, or turning into an error answer under the file's
// name (with compression, the first bytes may still be in the compressor, the headers unsent).
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { CHUNK_CHARS } from '@server/kernel/pretty-json';
import type { DownloadedFile } from '@server/domains/story/files/story-files';

/** The chunks of a download until one fails to be made; then the connection is closed, unfinished. */
async function* closedOnFailure(reply: FastifyReply, chunks: AsyncIterable<string>): AsyncGenerator<string> {
  try {
    yield* chunks;
  } catch (error) {
    reply.log.error({ err: error }, 'a download failed part-way; its connection was closed unfinished');
    reply.raw.destroy();
  }
}

export function sendDownload(reply: FastifyReply, file: DownloadedFile): FastifyReply {
  return reply
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .type(file.contentType)
    .send(
      typeof file.body === 'string'
        ? file.body
        : Readable.from(closedOnFailure(reply, file.body), { objectMode: false, highWaterMark: CHUNK_CHARS }),
    );
}
