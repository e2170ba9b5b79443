// The generated API types (openapi-types.ts, from GET /api/openapi.json) held to the zod schemas the
// app itself uses: for a few key calls, the request body a client sends and the answer it gets are
// exactly the zod schemas' types (z.input for what is sent, z.output for what comes back). Nothing
// here runs; `npm run typecheck` fails when the document and the schemas part ways.
import type { z } from 'zod';
import type { paths } from './openapi-types';
import type { loginBodySchema, registerBodySchema, userResponseSchema } from '../schemas/auth';
import type { apiErrorSchema } from '../schemas/common';
import type { libraryPageSchema, libraryQuerySchema } from '../schemas/library';
import type {
  storyContinueBodySchema,
  storyContinueResponseSchema,
  storyStartBodySchema,
  storyStartResponseSchema,
  storyStateResponseSchema,
} from '../schemas/story';

/** True only when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

type Json = 'application/json';
type RequestJson<Operation> = Operation extends { requestBody?: { content: { [K in Json]: infer Body } } }
  ? Body
  : never;
type AnswerJson<Operation, Status extends number> = Operation extends {
  responses: { [S in Status]: { content: { [K in Json]: infer Body } } };
}
  ? Body
  : never;
type QueryOf<Operation> = Operation extends { parameters: { query?: infer Query } } ? NonNullable<Query> : never;

type Register = paths['/api/register']['post'];
type Login = paths['/api/login']['post'];
type StartStory = paths['/api/story/start']['post'];
type TakeTurn = paths['/api/story/{storyId}/continue']['post'];
type CurrentState = paths['/api/story/{storyId}/current-state']['get'];
type StoryList = paths['/api/stories']['get'];

export type OpenApiAgreement = [
  Expect<Equal<RequestJson<Register>, z.input<typeof registerBodySchema>>>,
  Expect<Equal<AnswerJson<Register, 201>, z.output<typeof userResponseSchema>>>,
  Expect<Equal<AnswerJson<Register, 400>, z.output<typeof apiErrorSchema>>>,
  Expect<Equal<RequestJson<Login>, z.input<typeof loginBodySchema>>>,
  Expect<Equal<AnswerJson<Login, 200>, z.output<typeof userResponseSchema>>>,
  Expect<Equal<RequestJson<StartStory>, z.input<typeof storyStartBodySchema>>>,
  Expect<Equal<AnswerJson<StartStory, 200>, z.output<typeof storyStartResponseSchema>>>,
  Expect<Equal<RequestJson<TakeTurn>, z.input<typeof storyContinueBodySchema>>>,
  Expect<Equal<AnswerJson<TakeTurn, 200>, z.output<typeof storyContinueResponseSchema>>>,
  Expect<Equal<AnswerJson<CurrentState, 200>, z.output<typeof storyStateResponseSchema>>>,
  Expect<Equal<QueryOf<StoryList>, z.input<typeof libraryQuerySchema>>>,
  Expect<Equal<AnswerJson<StoryList, 200>, z.output<typeof libraryPageSchema>>>,
];

// The check can say no: a request body is not its answer.
// @ts-expect-error a sign-up's body is not the user it answers
export type OpenApiDisagreement = Expect<Equal<RequestJson<Register>, z.output<typeof userResponseSchema>>>;
