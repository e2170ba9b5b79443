// Answers serialised as UTF-8 bytes, not strings. Left as a string, a large answer is turned into
// bytes twice on the way out: Fastify measures it for Content-Length (Buffer.byteLength) and the
// socket encodes it again on write. Encoding it once here with TextEncoder took the send path of a
// 1,000-turn story's state (915 KB) from 3.7 s to 2.0 s of a benchmark's profile
// (docs/benchmarks.md, "Story versions"). The zod schema still checks and shapes every answer first.
import type { FastifyReply } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler } from 'fastify-type-provider-zod';

const utf8 = new TextEncoder();

/** The bytes of a JSON text, as a Buffer over TextEncoder's own memory (no copy). */
export function jsonBytes(text: string): Buffer {
  const bytes = utf8.encode(text);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** fastify-type-provider-zod's serializer (encode with the route's schema, then JSON.stringify), answering bytes. */
export const utf8SerializerCompiler: typeof serializerCompiler = (route) => {
  const serialize = serializerCompiler(route);
  // Fastify sends a Buffer as it is; its types only name the string a serializer usually answers.
  return ((data: unknown) => jsonBytes(serialize(data))) as unknown as ReturnType<FastifySerializerCompiler<unknown>>;
};

/**
 * Sends JSON a service wrote as bytes itself (a story's messages: server/http/presenters/story-json.ts).
 * Fastify sends a Buffer as it is, past the route's serializer: the route's response schema still
 * documents the answer, and the API tests parse these answers against it. An async handler must
 * return what this answers (the reply): Fastify sends again whatever an async handler resolves to
 * unless the answer is already out, and with onSend hooks still at work it is not.
 */
export function sendJsonBytes(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(bytes);
}
