// Renames prepared statements in a batch of PostgreSQL frontend messages, so that several client
// connections can share PGlite's one session (pglite-worker.js): connection 3's "save_reply"
// becomes "c3_save_reply" in Parse, Bind, Describe and Close. A batch with no named statement (the
// common case: node-postgres names only the statements we name) is passed through untouched.
// https://www.postgresql.org/docs/current/protocol-message-formats.html

const PARSE = 0x50; // 'P': name, query, parameter types
const BIND = 0x42; // 'B': portal, statement, ...
const DESCRIBE = 0x44; // 'D': 'S' or 'P', name
const CLOSE = 0x43; // 'C': 'S' or 'P', name
const STATEMENT = 0x53; // 'S'

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function cstringEnd(bytes, start) {
  const end = bytes.indexOf(0, start);
  if (end === -1) throw new Error('Malformed protocol message: unterminated string');
  return end;
}

/**
 * Where the statement name of the message at `at` starts, or -1 when it carries none. `type` is the
 * message's first byte; the body starts at at + 5.
 */
function statementNameAt(bytes, at, type) {
  const body = at + 5;
  if (type === PARSE) return body;
  if (type === BIND) return cstringEnd(bytes, body) + 1;
  if ((type === DESCRIBE || type === CLOSE) && bytes[body] === STATEMENT) return body + 1;
  return -1;
}

/**
 * Answers `bytes` with every non-empty statement name prefixed by `prefix`; adds the new names
 * Parse creates to `known` and removes those Close drops.
 * @param {Uint8Array} bytes
 * @param {string} prefix
 * @param {Set<string>} known
 * @returns {Uint8Array}
 */
export function renameStatements(bytes, prefix, known) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pieces = [];
  let copiedUpTo = 0;
  // A connection's first batch opens with the untyped StartupMessage: its length, then the rest.
  let at = bytes.length > 0 && bytes[0] === 0 ? view.getInt32(0) : 0;
  while (at < bytes.length) {
    const type = bytes[at];
    const length = view.getInt32(at + 1);
    const next = at + 1 + length;
    const nameStart = statementNameAt(bytes, at, type);
    const nameEnd = nameStart === -1 ? -1 : cstringEnd(bytes, nameStart);
    if (nameEnd > nameStart) {
      const renamed = prefix + decoder.decode(bytes.subarray(nameStart, nameEnd));
      if (type === PARSE) known.add(renamed);
      if (type === CLOSE) known.delete(renamed);
      const encodedName = encoder.encode(renamed);
      const header = new Uint8Array(5);
      header[0] = type;
      new DataView(header.buffer).setInt32(1, length + encodedName.length - (nameEnd - nameStart));
      pieces.push(
        bytes.subarray(copiedUpTo, at),
        header,
        bytes.subarray(at + 5, nameStart),
        encodedName,
        bytes.subarray(nameEnd, next),
      );
      copiedUpTo = next;
    }
    at = next;
  }
  if (pieces.length === 0) return bytes;
  pieces.push(bytes.subarray(copiedUpTo));
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    out.set(piece, offset);
    offset += piece.length;
  }
  return out;
}
