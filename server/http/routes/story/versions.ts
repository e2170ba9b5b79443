// The player in control of a story: undo and redo (each answers the new current state),
// a message's versions, editing one (a new version; 409 with the current one when stale) and
// choosing the one shown, erasing from a message (answers the new state), branching from one
// (answers the new story's id) and a story's branches and origin. Owner-only: another user's
// story or message is 404; any change while a reply is being written is 409.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { storyParamsSchema, storyStateResponseSchema } from '@shared/schemas/story';
import {
  messageChangeResponseSchema,
  messageEditBodySchema,
  messageParamsSchema,
  messageSelectBodySchema,
  messageVersionsResponseSchema,
  storyBranchBodySchema,
  storyBranchResponseSchema,
  storyEraseBodySchema,
  storyFamilySchema,
} from '@shared/schemas/story-versions';
import { sendJsonBytes } from '@server/http/plugins/json-bytes';
import { requireUserId } from '@server/http/plugins/session';
import type { RouteContext } from '../context';

export function storyVersionRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    const state = { params: storyParamsSchema, response: { 200: storyStateResponseSchema } };

    // The new state is written as JSON bytes by the service (server/http/presenters/story-json.ts).
    app.post(
      '/story/:storyId/undo',
      { schema: { ...state, summary: "Undo the story's last change" } },
      async (request, reply) => {
        return sendJsonBytes(reply, await ctx.storyVersions.undo(requireUserId(request), request.params.storyId));
      },
    );

    app.post(
      '/story/:storyId/redo',
      { schema: { ...state, summary: 'Redo what was undone' } },
      async (request, reply) => {
        return sendJsonBytes(reply, await ctx.storyVersions.redo(requireUserId(request), request.params.storyId));
      },
    );

    app.post(
      '/story/:storyId/erase',
      { schema: { ...state, summary: 'Erase the story from a message on', body: storyEraseBodySchema } },
      async (request, reply) => {
        return sendJsonBytes(
          reply,
          await ctx.storyVersions.erase(requireUserId(request), request.params.storyId, request.body.fromMessageId),
        );
      },
    );

    app.get(
      '/story/:storyId/messages/:messageId/versions',
      {
        schema: {
          summary: "A message's versions",
          params: messageParamsSchema,
          response: { 200: messageVersionsResponseSchema },
        },
      },
      async (request, reply) =>
        sendJsonBytes(
          reply,
          await ctx.storyVersions.versions(requireUserId(request), request.params.storyId, request.params.messageId),
        ),
    );

    app.patch(
      '/story/:storyId/messages/:messageId',
      {
        schema: {
          summary: 'Edit a message (a new version)',
          params: messageParamsSchema,
          body: messageEditBodySchema,
          response: { 200: messageChangeResponseSchema },
        },
      },
      async (request) =>
        ctx.storyVersions.edit(requireUserId(request), request.params.storyId, request.params.messageId, request.body),
    );

    app.post(
      '/story/:storyId/messages/:messageId/select',
      {
        schema: {
          summary: 'Choose the version of a message that is shown',
          params: messageParamsSchema,
          body: messageSelectBodySchema,
          response: { 200: messageChangeResponseSchema },
        },
      },
      async (request) =>
        ctx.storyVersions.select(
          requireUserId(request),
          request.params.storyId,
          request.params.messageId,
          request.body.version,
        ),
    );

    app.post(
      '/story/:storyId/branch',
      {
        schema: {
          summary: 'Branch a new story from a message',
          params: storyParamsSchema,
          body: storyBranchBodySchema,
          response: { 201: storyBranchResponseSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await ctx.storyVersions.branch(requireUserId(request), request.params.storyId, request.body.messageId)),
    );

    app.get(
      '/story/:storyId/branches',
      {
        schema: {
          summary: "The story's branches and origin",
          params: storyParamsSchema,
          response: { 200: storyFamilySchema },
        },
      },
      async (request) => ctx.storyVersions.family(requireUserId(request), request.params.storyId),
    );
  };
}
