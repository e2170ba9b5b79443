// Scenario endpoints: a player's drafts made (also from one of their stories), listed, changed,
// published, deleted, remixed and liked; a published
// scenario read by anyone (visitors too), a draft by its author only (404 to everyone else).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successSchema } from '@shared/schemas/common';
import {
  discoverAnswerSchema,
  discoverQuerySchema,
  myScenariosSchema,
  scenarioAnswerSchema,
  scenarioLikeAnswerSchema,
  scenarioCreateBodySchema,
  scenarioParamsSchema,
  scenarioPublishBodySchema,
  scenarioUpdateBodySchema,
} from '@shared/schemas/scenarios';
import { storyParamsSchema } from '@shared/schemas/story';
import { requireUserId } from '@server/http/plugins/session';
import type { RouteContext } from '../context';

export function scenarioRoutes(ctx: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/scenarios',
      {
        schema: {
          summary: 'Make a scenario (a draft)',
          body: scenarioCreateBodySchema,
          response: { 201: scenarioAnswerSchema },
        },
      },
      async (request, reply) => {
        const scenario = await ctx.scenarios.create(requireUserId(request), request.body);
        return reply.status(201).send({ scenario });
      },
    );

    app.post(
      '/story/:storyId/scenario',
      {
        schema: {
          summary: "A draft scenario from the player's story (never its turns)",
          params: storyParamsSchema,
          response: { 201: scenarioAnswerSchema },
        },
      },
      async (request, reply) => {
        const scenario = await ctx.scenarios.fromStory(requireUserId(request), request.params.storyId);
        return reply.status(201).send({ scenario });
      },
    );

    app.get(
      '/scenarios',
      {
        schema: {
          summary: 'Discover: public scenarios by words, genre, tag and rating, newest first (visitors too)',
          querystring: discoverQuerySchema,
          response: { 200: discoverAnswerSchema },
        },
      },
      async (request) => ctx.scenarios.discover(request.session?.userId ?? null, request.query),
    );

    app.get(
      '/scenarios/mine',
      { schema: { summary: "The player's scenarios, drafts and published", response: { 200: myScenariosSchema } } },
      async (request) => ({ scenarios: await ctx.scenarios.mine(requireUserId(request)) }),
    );

    app.get(
      '/scenarios/:id',
      {
        schema: {
          summary: 'A scenario: published ones to anyone, a draft to its author',
          params: scenarioParamsSchema,
          response: { 200: scenarioAnswerSchema },
        },
      },
      async (request) => ({
        scenario: await ctx.scenarios.read(request.params.id, request.session?.userId ?? null),
      }),
    );

    app.patch(
      '/scenarios/:id',
      {
        schema: {
          summary: 'Change a scenario (its author)',
          params: scenarioParamsSchema,
          body: scenarioUpdateBodySchema,
          response: { 200: scenarioAnswerSchema },
        },
      },
      async (request) => ({
        scenario: await ctx.scenarios.update(requireUserId(request), request.params.id, request.body),
      }),
    );

    app.delete(
      '/scenarios/:id',
      {
        schema: {
          summary: 'Delete a scenario (its author)',
          params: scenarioParamsSchema,
          response: { 200: successSchema },
        },
      },
      async (request) => {
        await ctx.scenarios.remove(requireUserId(request), request.params.id);
        return { success: true as const };
      },
    );

    app.post(
      '/scenarios/:id/publish',
      {
        schema: {
          summary: 'Publish a scenario, public or unlisted (its author)',
          params: scenarioParamsSchema,
          body: scenarioPublishBodySchema,
          response: { 200: scenarioAnswerSchema },
        },
      },
      async (request) => ({
        scenario: await ctx.scenarios.publish(requireUserId(request), request.params.id, request.body.visibility),
      }),
    );

    app.post(
      '/scenarios/:id/remix',
      {
        schema: {
          summary: 'A new draft of the caller from a scenario they may read, its lineage kept',
          params: scenarioParamsSchema,
          response: { 201: scenarioAnswerSchema },
        },
      },
      async (request, reply) => {
        const scenario = await ctx.scenarios.remix(requireUserId(request), request.params.id);
        return reply.status(201).send({ scenario });
      },
    );

    for (const [method, liked] of [
      ['PUT', true],
      ['DELETE', false],
    ] as const) {
      app.route({
        method,
        url: '/scenarios/:id/like',
        schema: {
          summary: liked ? 'Like a scenario' : 'Take back a like',
          params: scenarioParamsSchema,
          response: { 200: scenarioLikeAnswerSchema },
        },
        handler: async (request) => ctx.scenarios.like(requireUserId(request), request.params.id, liked),
      });
    }

    app.post(
      '/scenarios/:id/unpublish',
      {
        schema: {
          summary: 'Take a scenario back to a draft (its author)',
          params: scenarioParamsSchema,
          response: { 200: scenarioAnswerSchema },
        },
      },
      async (request) => ({ scenario: await ctx.scenarios.unpublish(requireUserId(request), request.params.id) }),
    );
  };
}
