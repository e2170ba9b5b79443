// Sends a file made for one player as a download: the browser saves it under its name, and no
// cache keeps a copy (it holds that player's stories).
import type { FastifyReply } from 'fastify';
import type { DownloadedFile } from '@server/services/story-files';

export function sendDownload(reply: FastifyReply, file: DownloadedFile): FastifyReply {
  return reply
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .type(file.contentType)
    .send(file.body);
}
