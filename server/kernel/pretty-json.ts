// JSON.stringify(value, null, 2) written in pieces, for downloads too large to hold as one string:
// an object whose last field is an array is written field by field and item by item, each item
// when its turn comes (a story read from the database, a batch of messages), and the bytes are
// exactly those JSON.stringify would have made of the whole. Pieces are gathered into chunks of
// about CHUNK_CHARS, so a download is neither one huge string nor thousands of tiny writes, and
// the event loop turns between chunks (see chunked). Big compact answers made whole in memory (a
// share, a message's versions) are written the same way: compactObjectWithArray.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** About this many characters per chunk handed to the response. */
export const CHUNK_CHARS = 64 * 1024;
/** Characters serialised in one turn of the event loop when an answer is made whole in memory (a few ms of work). */
export const SERIALISED_PER_TURN = 256 * 1024;

type Pieces = Iterable<string> | AsyncIterable<string>;

const indent = (depth: number) => '  '.repeat(depth);

/** JSON.stringify(value, null, 2) as it reads `depth` levels deep in a larger document. */
export function prettyJson(value: unknown, depth = 0): string {
  const text = JSON.stringify(value, null, 2);
  // JSON text holds no raw line breaks inside strings (they are escaped): each one starts a line.
  return depth === 0 ? text : text.replaceAll('\n', `\n${indent(depth)}`);
}

/**
 * The object `{...fields, [key]: [items]}` as JSON.stringify(…, null, 2) writes it at `depth`, the
 * array last. Each item is given as its own pieces, already written for its depth (`depth + 2`):
 * see prettyJson. An item source may skip items (a story deleted meanwhile): commas follow what is written.
 */
export async function* prettyObjectWithArray(
  fields: Record<string, unknown>,
  key: string,
  items: Iterable<Pieces> | AsyncIterable<Pieces>,
  depth = 0,
): AsyncGenerator<string> {
  const head = prettyJson(fields, depth);
  // `{}` or `{\n  "a": 1\n}`: the object without its closing line, then the array's key.
  yield `${head === '{}' ? '{' : `${head.slice(0, -(depth * 2 + 2))},`}\n${indent(depth + 1)}${JSON.stringify(key)}: [`;
  let count = 0;
  for await (const item of items) {
    yield `${count === 0 ? '' : ','}\n${indent(depth + 2)}`;
    yield* item;
    count += 1;
  }
  yield count === 0 ? `]\n${indent(depth)}}` : `\n${indent(depth + 1)}]\n${indent(depth)}}`;
}

/**
 * The same text in chunks of about `size` characters (a single larger piece goes as it is), with a
 * turn of the event loop after each. Generators and a stream reading them run on promises alone,
 * and a socket on loopback takes the bytes as fast as they come: a 6.8 MB export was written in one
 * 200 ms run of microtasks while every other request waited.
 */
export async function* chunked(pieces: Pieces, size = CHUNK_CHARS): AsyncGenerator<string> {
  let chunk = '';
  for await (const piece of pieces) {
    chunk += piece;
    if (chunk.length >= size) {
      yield chunk;
      chunk = '';
      await nextTurn();
    }
  }
  if (chunk) yield chunk;
}

/**
 * The bytes of JSON.stringify({...fields, [key]: items}), the array last, each item given as its
 * own JSON text when its turn comes, with a turn of the event loop after about every `size`
 * characters: made in one go, a 4.9 MB share held the event loop 60-110 ms.
 */
export async function compactObjectWithArray(
  fields: Record<string, unknown>,
  key: string,
  items: Pieces,
  size = SERIALISED_PER_TURN,
): Promise<Buffer> {
  async function* pieces() {
    const head = JSON.stringify(fields);
    yield `${head === '{}' ? '{' : `${head.slice(0, -1)},`}${JSON.stringify(key)}:[`;
    let count = 0;
    for await (const item of items) yield count++ === 0 ? item : `,${item}`;
    yield ']}';
  }
  const parts: Buffer[] = [];
  for await (const chunk of chunked(pieces(), size)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}
