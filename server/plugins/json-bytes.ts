// Answers serialised as UTF-8 bytes, not strings. A JSON text holding any character beyond Latin-1
// (a story's ’ or “”, an emoji) is a two-byte string in V8, and on Node 20 both places that turn a
// string into bytes on the way out are slow for it: Fastify's Content-Length (Buffer.byteLength)
// and the socket's write each cost about 10 ms for a 1,000-turn story's state (1.2 MB), where
// TextEncoder does the whole encoding in about 1 ms (measured, docs/benchmarks.md, "Story
// versions"). The zod schema still checks and shapes every answer first.
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
