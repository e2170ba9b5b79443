// The story memory as chunks (cache-friendly folds). Provider prompt caches reuse only an
// unchanged prefix, and the memory sits in the prompt's stable head, so it changes only by
// appending: each fold adds one chunk that summarises only the turns it folds (the chunks before
// it are the model's read-only context), after the chunks already there. When a new chunk would
// take the memory past its budget, a compaction merges the oldest chunks, those holding at least
// COMPACT_MERGE (two thirds) of the memory, into one chunk of at most COMPACT_SHARE (an eighth) of
// the budget. A compaction rewrites the memory from its first chunk, which the cache misses however
// many chunks it merges, so it merges many: it frees about half the budget, room for four or five
// folds' chunks (an eighth each at most), and so comes once every five folds or so, and only after
// the memory first filled (about eight folds). The newest third stays as the folds wrote it.
//
// Storage: the chunks are kept as one text, joined by CHUNK_SEPARATOR (U+001E, the ASCII record
// separator), in the same columns as the single memory text before them (stories.memory and
// story_memory_folds.memory). One value keeps every place that carries the memory whole and
// atomic as it was: the fold's compare-and-set, the memory each fold left (for undo, erase and
// branch), a branch's copy and an export. The separator is a control character that prose never
// holds, and every chunk written is cleaned of it (a model's answer, a player's edit, an import),
// so splitting is exact; a memory written before chunks (no separator) is one chunk. Readers
// outside this module see the chunks joined by a blank line (memoryText): the prompt, the memory
// panel, an export.
import type { Count } from './context';

export const CHUNK_SEPARATOR = '\u001e';
/** The most one fold's chunk may take of the memory's budget. */
export const CHUNK_SHARE = 1 / 8;
/** The most a compaction's merged chunk may take of the memory's budget. */
export const COMPACT_SHARE = 1 / 8;
/** A compaction merges the oldest chunks that hold at least this share of the memory's tokens. */
export const COMPACT_MERGE = 2 / 3;
/** Between two chunks where the memory is read as one text (the prompt, the memory panel). */
export const CHUNK_JOINER = '\n\n';

/** A chunk as stored: without the separator, trimmed. */
export function cleanChunk(text: string): string {
  return text.replaceAll(CHUNK_SEPARATOR, ' ').trim();
}

/** The chunks of a stored memory, oldest first (none for an empty memory). */
export function splitChunks(stored: string): string[] {
  return stored
    .split(CHUNK_SEPARATOR)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk.length > 0);
}

/** The stored memory of `chunks` (each cleaned; empty ones left out). */
export function storedMemory(chunks: readonly string[]): string {
  return chunks
    .map(cleanChunk)
    .filter((chunk) => chunk.length > 0)
    .join(CHUNK_SEPARATOR);
}

/** The memory as one text: its chunks joined by a blank line. Appending a chunk only extends it. */
export function memoryText(stored: string): string {
  return splitChunks(stored).join(CHUNK_JOINER);
}

/** The tokens one fold's chunk may take. */
export function chunkTokens(memoryBudget: number): number {
  return Math.max(1, Math.floor(memoryBudget * CHUNK_SHARE));
}

/** The tokens a compaction's merged chunk may take. */
export function compactTokens(memoryBudget: number): number {
  return Math.max(1, Math.floor(memoryBudget * COMPACT_SHARE));
}

/**
 * How many of the oldest chunks a compaction must merge before `next` is appended: 0 while the
 * memory with `next` fits `memoryBudget` tokens, else the fewest oldest chunks holding at least
 * COMPACT_MERGE of the memory's tokens (one at least: a single oversized chunk, as a player's edit
 * may be, is summarised down).
 */
export function planCompaction(chunks: readonly string[], next: string, memoryBudget: number, count: Count): number {
  if (chunks.length === 0) return 0;
  if (count([...chunks, next].join(CHUNK_JOINER)) <= memoryBudget) return 0;
  const tokens = chunks.map((chunk) => count(chunk));
  const total = tokens.reduce((sum, t) => sum + t, 0);
  let held = 0;
  for (const [i, t] of tokens.entries()) {
    held += t;
    if (held >= total * COMPACT_MERGE) return i + 1;
  }
  return chunks.length;
}

/** The chunks after a fold: the oldest `merged` replaced by `compacted` (when merged > 0), then `next`. */
export function appendChunk(
  chunks: readonly string[],
  next: string,
  compaction?: { merged: number; compacted: string },
): string[] {
  const kept =
    compaction && compaction.merged > 0 ? [compaction.compacted, ...chunks.slice(compaction.merged)] : chunks;
  return [...kept, next].map(cleanChunk).filter((chunk) => chunk.length > 0);
}
