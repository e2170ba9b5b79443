// GET /shared/:shareId outside /api: the SPA's page with the story's link-preview meta tags filled
// in. An unknown id, or an IP over its read limit, still gets the plain page: the SPA then shows the
// error card (or the API's own answer), so readers are never left with a bare error.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { renderSharedPage } from '@server/http/presenters/share-preview';
import type { RouteContext } from '../context';
import { takeSharedRead } from './index';

export function sharedPageRoute(ctx: RouteContext): FastifyPluginAsync {
  return async (app) => {
    // Read once: the build does not change under a running server.
    let indexHtml: Promise<string> | null = null;
    const loadIndex = () => (indexHtml ??= readFile(join(ctx.config.clientDir, 'index.html'), 'utf8'));

    app.get<{ Params: { shareId: string } }>('/shared/:shareId', async (request, reply) => {
      const html = await loadIndex();
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
      if (!(await takeSharedRead(ctx, request))) return html;
      const story = await ctx.sharing.find(request.params.shareId);
      if (!story) return html;
      // Never the bare Host header: see routes/public-url.ts.
      const baseUrl = ctx.publicBaseUrl(request);
      const pageUrl = baseUrl === null ? null : `${baseUrl}/shared/${encodeURIComponent(request.params.shareId)}`;
      return renderSharedPage(html, story, pageUrl, baseUrl);
    });
  };
}
