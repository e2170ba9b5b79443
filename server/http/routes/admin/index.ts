// Admin-only endpoints (401 for visitors, 403 "Admin access required" for users): provider usage
// and its history, the users table (search, sort and paging as query parameters), one user's
// months, the users CSV, streamed, and the usage by narrator as CSV.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminUserParamsSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  apiUsageResponseSchema,
  usageHistoryQuerySchema,
  usageHistoryResponseSchema,
  userUsageResponseSchema,
} from '@shared/schemas/admin';
import { requireUserId } from '@server/http/plugins/session';
import type { RouteContext } from '../context';

export function adminRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    // On request, before the query and path are validated: a player who is not an admin learns
    // nothing of the admin calls' parameters, only that they are refused.
    app.addHook('onRequest', async (request) => {
      await ctx.admin.requireAdmin(requireUserId(request));
    });

    app.get(
      '/admin/api-usage',
      { schema: { summary: 'Provider usage (admins only)', response: { 200: apiUsageResponseSchema } } },
      async () => ctx.admin.apiUsage(),
    );

    app.get(
      '/admin/api-usage/download',
      { schema: { summary: 'Usage and cost by narrator as CSV (admins only)' } },
      async (_request, reply) =>
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${ctx.admin.narratorsCsvFilename()}"`)
          .header('cache-control', 'no-store')
          .send(await ctx.admin.narratorsCsv()),
    );

    app.get(
      '/admin/usage/history',
      {
        schema: {
          summary: 'Provider usage day by day (admins only)',
          querystring: usageHistoryQuerySchema,
          response: { 200: usageHistoryResponseSchema },
        },
      },
      async (request) => ctx.admin.usageHistory(request.query.days),
    );

    app.get(
      '/admin/users',
      {
        schema: {
          summary: 'The users table: search, sort, pages (admins only)',
          querystring: adminUsersQuerySchema,
          response: { 200: adminUsersResponseSchema },
        },
      },
      async (request) => ctx.admin.users(request.query),
    );

    app.get(
      '/admin/users/:userId/usage',
      {
        schema: {
          summary: "One user's usage by month (admins only)",
          params: adminUserParamsSchema,
          response: { 200: userUsageResponseSchema },
        },
      },
      async (request) => ctx.admin.userUsage(request.params.userId),
    );

    app.get(
      '/admin/users/download',
      { schema: { summary: 'The users table as CSV (admins only)' } },
      async (request, reply) => {
        // Who took the file, for the operator's trail; the log line names the admin, never a cookie or a hash.
        request.log.info({ adminId: requireUserId(request) }, 'admin downloaded the users CSV');
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${ctx.admin.csvFilename()}"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(ctx.admin.usersCsv()));
      },
    );
  };
}
