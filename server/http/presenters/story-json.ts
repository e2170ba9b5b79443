// A story's shown messages as JSON bytes, for the reads that send them all: the current state (and
// undo, redo and erase, which answer it) and recover. On a 1,000-turn story that is 2,001 messages
// and about 900 KB of text on every such answer; read from the database, turned into strings,
// checked, stringified and encoded each time, it made undo's server time swing past 50 ms whenever
// the garbage collector caught up with it.
//
// A message's text never changes under its (id, version): an edit, an alternative or a replacement
// is a new version, and choosing a version shows that version's text again. So each text is read
// from the database once and kept here as its JSON-escaped UTF-8 bytes, keyed by (id, version);
// what each read fetches is the story's message heads (ids, versions, roles, times: no text), and
// the answer is those heads written around the kept bytes. Safe with several instances: a key's
// bytes are the same wherever they were read. The JSON is written by hand for the heads alone (ids,
// fixed words, ISO times); tests parse every answer against the shared response schemas.
import type { Repositories } from '@server/db/repositories';
import type { MessageHead } from '@server/db/repositories/stories';
import type { StoryAnswers, StoryMessagesRead } from '@server/domains/story/story-answers';

export type { StoryMessagesRead };

/** Bytes of message text kept at most (JSON-escaped UTF-8): about 35 stories of 1,000 turns. */
export const STORY_TEXT_CACHE_BYTES = 32 * 1024 * 1024;

/** One kept text: a version of a message, and when a read last used it (for dropping the least used). */
interface Kept {
  version: number;
  text: Buffer;
  usedAt: number;
}

export function createStoryJson(
  repos: Repositories,
  capacityBytes = STORY_TEXT_CACHE_BYTES,
): StoryAnswers & { stats(): { texts: number; bytes: number } } {
  // By message id, then by version (usually one). A read marks the texts it uses with its number
  // before it fetches the missing ones, and drops the least recently read only once it holds all of
  // its own: dropping while inserting (as a Map kept in recency order did) could drop texts of the
  // read in progress when its story was the least recently read, and that read failed.
  const kept = new Map<number, Kept[]>();
  let bytes = 0;
  let reads = 0;

  function find(id: number, version: number): Kept | undefined {
    const versions = kept.get(id);
    if (versions === undefined) return undefined;
    for (const entry of versions) if (entry.version === version) return entry;
    return undefined;
  }

  function keep(id: number, version: number, content: string, usedAt: number): void {
    if (find(id, version) !== undefined) return;
    const text = Buffer.from(JSON.stringify(content), 'utf8');
    const versions = kept.get(id);
    if (versions === undefined) kept.set(id, [{ version, text, usedAt }]);
    else versions.push({ version, text, usedAt });
    bytes += text.length;
  }

  /** Past the capacity, drops the least recently read texts down to 90% of it (so not on every read after). */
  function evict(): void {
    if (bytes <= capacityBytes) return;
    const all: Array<{ id: number; entry: Kept }> = [];
    for (const [id, versions] of kept) for (const entry of versions) all.push({ id, entry });
    all.sort((a, b) => a.entry.usedAt - b.entry.usedAt);
    for (const { id, entry } of all) {
      if (bytes <= capacityBytes * 0.9) break;
      const versions = kept.get(id) ?? [];
      const left = versions.filter((v) => v !== entry);
      if (left.length === 0) kept.delete(id);
      else kept.set(id, left);
      bytes -= entry.text.length;
    }
  }

  /** The kept text of each message, reading the missing ones (every version of those messages) in one statement. */
  async function textsOf(storyId: number, heads: MessageHead[]): Promise<Buffer[]> {
    const read = ++reads;
    const bodies: Buffer[] = new Array(heads.length);
    const missing: number[] = [];
    for (const [i, h] of heads.entries()) {
      const entry = find(h.id, h.version);
      if (entry === undefined) missing.push(i);
      else {
        entry.usedAt = read;
        bodies[i] = entry.text;
      }
    }
    if (missing.length > 0) {
      const rows = await repos.stories.messageTexts(
        storyId,
        missing.map((i) => heads[i].id),
      );
      for (const row of rows) keep(row.id, row.version, row.content, read);
      for (const i of missing) {
        const entry = find(heads[i].id, heads[i].version);
        // Every version of a message is stored (message_versions once there are two), so a head read
        // first always finds its text; a message gone meanwhile (its story deleted) has no answer left.
        if (entry === undefined) throw new Error(`no text for message ${heads[i].id}:${heads[i].version}`);
        bodies[i] = entry.text;
      }
      evict(); // after taking this read's bodies, which stay whole however much is dropped
    }
    return bodies;
  }

  return {
    /** The story's shown messages, heads and kept texts, in story order. The caller has checked the owner. */
    async read(storyId: number): Promise<StoryMessagesRead> {
      const heads = await repos.stories.shownMessageHeads(storyId);
      return { heads, bodies: await textsOf(storyId, heads) };
    },

    /**
     * An answer's bytes: `{"messages":[…]` followed by the other fields of `rest`, each message as
     * StoryMessage has it (`image` from `pictures`, `version` and `versions` once there are two,
     * `loopGuard` when the guard acted, `usage` when the reply's cost was kept).
     */
    answer({ heads, bodies }: StoryMessagesRead, pictures: Map<number, string>, rest: Record<string, unknown>): Buffer {
      // The heads' JSON first, then one buffer of the exact size for the whole answer: a 1,000-turn
      // story's is about 900 KB, and a piece per message (4,000 small buffers, then a copy of them
      // all) made the garbage collector run through the old generation every few answers.
      const others = JSON.stringify(rest);
      const open = '{"messages":[';
      const close = others === '{}' ? ']}' : `],${others.slice(1)}`;
      const before: string[] = [];
      const after: string[] = [];
      let size = open.length + Buffer.byteLength(close);
      for (const [i, h] of heads.entries()) {
        const image = pictures.get(h.id);
        before.push(`${i === 0 ? '' : ','}{"messageId":${h.id},"role":"${h.role}","content":`);
        after.push(
          `,"createdAt":"${h.createdAt}","isInitialMessage":${h.isInitial}` +
            (image === undefined ? '' : `,"image":${JSON.stringify(image)}`) +
            (h.versions > 1 ? `,"version":${h.version},"versions":${h.versions}` : '') +
            (h.loopGuard ? `,"loopGuard":"${h.loopGuard}"` : '') +
            // The stored JSON as is: the server wrote it, from numbers only.
            (h.usageJson ? `,"usage":${h.usageJson}` : '') +
            '}',
        );
        size += before[i].length + Buffer.byteLength(after[i]) + bodies[i].length;
      }
      const json = Buffer.allocUnsafe(size);
      let at = json.write(open, 0, 'latin1');
      for (const [i, body] of bodies.entries()) {
        at += json.write(before[i], at, 'latin1');
        at += body.copy(json, at);
        at += json.write(after[i], at, 'utf8');
      }
      json.write(close, at, 'utf8');
      return json;
    },

    /** Texts and bytes kept (for tests and benchmarks). */
    stats: () => ({ texts: [...kept.values()].reduce((n, versions) => n + versions.length, 0), bytes }),
  };
}
