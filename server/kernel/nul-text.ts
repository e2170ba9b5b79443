// Where a parsed value holds U+0000. PostgreSQL's text cannot store the character and no text of
// the app has a use for it, so it is refused where text comes in: the JSON body parser and the
// query string (http/plugins/nul-text.ts), and the files read in the import worker (story files,
// story cards' files), whose routes take raw bytes past that parser. Pure, so either thread runs it.

export type NulPath = Array<string | number>;

/** A value still to be looked at, and where it sits: its parent's place and its key there (built into a path only on a hit, so a deep value costs no more than a wide one). */
interface Place {
  item: unknown;
  parent: Place | null;
  key: string | number | null;
}

/**
 * The path of the first string (in document order) holding U+0000, an object's keys included, or
 * null when none does. Iterative: no depth can overflow the stack.
 */
export function nulPath(value: unknown): NulPath | null {
  const pending: Place[] = [{ item: value, parent: null, key: null }];
  while (pending.length > 0) {
    const place = pending.pop()!;
    const { item } = place;
    if (typeof item === 'string') {
      if (item.includes('\0')) return pathOf(place);
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index -= 1)
        pending.push({ item: item[index], parent: place, key: index });
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, entry] = entries[index];
        pending.push({ item: entry, parent: place, key });
        // The key before its value, as it is written.
        pending.push({ item: key, parent: place, key });
      }
    }
  }
  return null;
}

function pathOf(place: Place): NulPath {
  const path: NulPath = [];
  for (let at: Place | null = place; at?.key != null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** A path as a player reads it, `entries.3.content`; a key holding the character shows it as `\u0000`. */
export const nulPlace = (path: NulPath): string => path.join('.').replaceAll('\0', '\\u0000');

/** True when any string of a parsed value (an object's keys included) holds U+0000. */
export const holdsNul = (value: unknown): boolean => nulPath(value) !== null;

/**
 * For JSON text and the value parsed from it. JSON can carry U+0000 only as the escape `\u0000` (a
 * raw control character is not JSON), so a text that lacks those six characters is never walked;
 * one that has them is walked once, in time bounded by its own size.
 */
export function jsonNulPath(text: string, parsed: unknown): NulPath | null {
  return text.includes('\\u0000') ? nulPath(parsed) : null;
}
