// Values repositories put into SQL the same way everywhere: the largest id an integer column can
// hold, and a search text as a literal LIKE pattern.

/** Ids beyond PostgreSQL's integer range cannot exist; asking for one is simply "not found". */
export const MAX_ID = 2_147_483_647;

/** `%`, `_` and `\` are LIKE syntax; a search for "50%" means the text. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
