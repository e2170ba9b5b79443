// A scenario's setup questions: the `${…}` placeholders its author wrote in the premise, the
// instructions, the author's note or the cards, asked once each when a player starts it. Ours are
// `${Your name}` and `${Your name[Aria]}` (with a default); NovelAI's scenarios write
// `${1#name[Jack]Main character:Name the main character.}` (an order, an id, a default, a title and a
// description), whose title is the question's name. The same placeholder (by id) is one question,
// however often it appears; a later bare `${name}` refers to it. Answers fill every place one stood.

/** One question a player answers before the story starts. */
export interface SetupQuestion {
  /** What the player is asked: the title where NovelAI's form gives one, else the placeholder itself. */
  name: string;
  /** The answer given when the player leaves it empty; null: the question must be answered. */
  default: string | null;
}

interface Placeholder {
  id: string;
  order: number | null;
  default: string | null;
  title: string | null;
}

/** `${…}` with no braces or dollar inside; the text between is read by `parse`. */
const PLACEHOLDER = /\$\{([^${}]{1,200})\}/g;
/**
 * [order#] id [ [default] title ] [:description]: NovelAI's parts, every one but the id optional.
 * A title follows a default only (without one, the id and a title could not be told apart).
 */
const PARTS = /^(?:(\d{1,6})#)?([^[\]#:]+)(?:\[([^\]]*)\]([^[\]:]*))?(?::.*)?$/s;

function parse(inside: string): Placeholder | null {
  const parts = PARTS.exec(inside.trim());
  if (!parts) return null;
  const id = parts[2].trim();
  if (!id) return null;
  const title = parts[4]?.trim() || null;
  return { id, order: parts[1] ? Number(parts[1]) : null, default: parts[3] ?? null, title };
}

/** The questions `texts` ask, each once: in the NovelAI order where one is given, else as they first appear. */
export function setupQuestions(texts: readonly string[]): SetupQuestion[] {
  const found = new Map<string, Placeholder & { first: number }>();
  let seen = 0;
  for (const text of texts) {
    for (const match of text.matchAll(PLACEHOLDER)) {
      const placeholder = parse(match[1]);
      if (!placeholder) continue;
      const known = found.get(placeholder.id);
      if (!known) {
        found.set(placeholder.id, { ...placeholder, first: seen++ });
        continue;
      }
      // A bare reference first, its definition later: the definition's parts count.
      known.order ??= placeholder.order;
      known.default ??= placeholder.default;
      known.title ??= placeholder.title;
    }
  }
  const ordered = [...found.values()].sort((a, b) => {
    if (a.order !== null || b.order !== null) {
      const byOrder = (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER);
      if (byOrder !== 0) return byOrder;
      return a.id.localeCompare(b.id);
    }
    return a.first - b.first;
  });
  return ordered.map((p) => ({ name: p.title ?? p.id, default: p.default }));
}
