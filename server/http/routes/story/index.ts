// The story endpoints: start, continue and retry (JSON, or SSE with Accept: text/event-stream),
// current state, bookmark recovery, title, the story memory panel (premise, memory, author's note)
// and the story's generation settings (reply length, temperature).
// Every story is its owner's only: another user's story id answers 404 exactly like a missing one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  recoverQuerySchema,
  storyContinueBodySchema,
  storyContinueResponseSchema,
  storyParamsSchema,
  storyRecoverResponseSchema,
  storyStartBodySchema,
  storyStartResponseSchema,
  storyStateResponseSchema,
  storyTitleResponseSchema,
} from '@shared/schemas/story';
import { storyMemoryBodySchema, storyMemorySchema } from '@shared/schemas/story-memory';
import { storySettingsBodySchema, storySettingsSchema } from '@shared/schemas/story-settings';
import { sendJsonBytes } from '@server/http/plugins/json-bytes';
import { requireUserId } from '@server/http/plugins/session';
import type { RouteContext } from '../context';
import { fromOwnApp } from '../own-app';
import { sendTurnStream, wantsEventStream } from './stream';

export function storyRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/story/start',
      {
        schema: {
          summary: 'Start a story: its opening reply (JSON, or SSE with Accept: text/event-stream)',
          body: storyStartBodySchema,
          response: { 200: storyStartResponseSchema },
        },
      },
      async (request, reply) => {
        const turn = await ctx.turns.startStory(requireUserId(request), request.body.prompt);
        return wantsEventStream(request)
          ? sendTurnStream(request, reply, turn)
          : turn.run(undefined, undefined, request.log);
      },
    );

    app.post(
      '/story/:storyId/continue',
      {
        schema: {
          summary: "Take a turn: the player's action and the narrator's reply (JSON or SSE)",
          params: storyParamsSchema,
          body: storyContinueBodySchema,
          response: { 200: storyContinueResponseSchema },
        },
      },
      async (request, reply) => {
        const turn = await ctx.turns.continueStory(
          requireUserId(request),
          request.params.storyId,
          request.body.message,
        );
        return wantsEventStream(request)
          ? sendTurnStream(request, reply, turn)
          : turn.run(undefined, undefined, request.log);
      },
    );

    app.post(
      '/story/:storyId/retry',
      {
        schema: {
          summary: 'Write the last reply again (JSON or SSE)',
          params: storyParamsSchema,
          response: { 200: storyContinueResponseSchema },
        },
      },
      async (request, reply) => {
        const turn = await ctx.turns.retry(requireUserId(request), request.params.storyId);
        return wantsEventStream(request)
          ? sendTurnStream(request, reply, turn)
          : turn.run(undefined, undefined, request.log);
      },
    );

    // Both answer every message of the story, written as JSON bytes by the service (story-json.ts).
    app.get(
      '/story/:storyId/current-state',
      {
        schema: {
          summary: 'The story with every message and picture',
          params: storyParamsSchema,
          response: { 200: storyStateResponseSchema },
        },
      },
      async (request, reply) => {
        return sendJsonBytes(reply, await ctx.stories.currentState(requireUserId(request), request.params.storyId));
      },
    );

    app.get(
      '/story/:storyId/recover',
      {
        schema: {
          summary: 'The story again from a bookmark',
          params: storyParamsSchema,
          querystring: recoverQuerySchema,
          response: { 200: storyRecoverResponseSchema },
        },
      },
      async (request, reply) => {
        return sendJsonBytes(
          reply,
          await ctx.stories.recover(requireUserId(request), request.params.storyId, request.query.messageId),
        );
      },
    );

    app.get(
      '/story/:storyId/memory',
      {
        schema: {
          summary: "The memory panel: premise, story memory, author's note",
          params: storyParamsSchema,
          response: { 200: storyMemorySchema },
        },
      },
      async (request) => {
        return ctx.stories.memory(requireUserId(request), request.params.storyId);
      },
    );

    app.put(
      '/story/:storyId/memory',
      {
        schema: {
          summary: 'Save the memory panel',
          params: storyParamsSchema,
          body: storyMemoryBodySchema,
          response: { 200: storyMemorySchema },
        },
      },
      async (request) => ctx.stories.saveMemory(requireUserId(request), request.params.storyId, request.body),
    );

    app.get(
      '/story/:storyId/settings',
      {
        schema: {
          summary: "The story's generation settings",
          params: storyParamsSchema,
          response: { 200: storySettingsSchema },
        },
      },
      async (request) => ctx.stories.settings(requireUserId(request), request.params.storyId),
    );

    app.patch(
      '/story/:storyId/settings',
      {
        schema: {
          summary: 'Change the generation settings',
          params: storyParamsSchema,
          body: storySettingsBodySchema,
          response: { 200: storySettingsSchema },
        },
      },
      async (request) => ctx.stories.saveSettings(requireUserId(request), request.params.storyId, request.body),
    );

    app.get(
      '/story/:storyId/generate-title',
      {
        schema: {
          summary: "The story's title, written once by the narrator",
          params: storyParamsSchema,
          response: { 200: storyTitleResponseSchema },
        },
      },
      async (request) => {
        return ctx.stories.generateTitle(requireUserId(request), request.params.storyId, fromOwnApp(request));
      },
    );
  };
}
