// Admin-only endpoints (401 for visitors, 403 "Admin access required" for users): provider usage,
// the users table and its CSV download.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminUsersResponseSchema, apiUsageResponseSchema } from '@shared/schemas/admin';
import { requireUserId } from '@server/plugins/session';
import type { RouteContext } from '../context';

export function adminRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('preHandler', async (request) => {
      await ctx.admin.requireAdmin(requireUserId(request));
    });

    app.get('/admin/api-usage', { schema: { response: { 200: apiUsageResponseSchema } } }, async () => ctx.admin.apiUsage());

    app.get('/admin/users', { schema: { response: { 200: adminUsersResponseSchema } } }, async () => ctx.admin.users());

    app.get('/admin/users/download', async (_request, reply) => {
      const { filename, body } = await ctx.admin.usersCsv();
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(body);
    });
  };
}
