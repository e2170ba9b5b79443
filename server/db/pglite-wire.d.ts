// Types for pglite-wire.js (plain JavaScript, loaded by the database thread as it is).
export function renameStatements(bytes: Uint8Array, prefix: string, known: Set<string>): Uint8Array;
