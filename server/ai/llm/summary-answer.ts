// A summarising call's answer: the memory text, then a line `FACTS:` and a JSON array of the story
// bible's facts {entity, attribute, value, turn} (prompts.ts asks for it; the builtin narrator
// writes it by rules, builtin/facts.ts). A model's answer is hostile input: the facts section is
// read apart from the memory, each item is checked and cut to the bible's limits, items that are
// not facts are skipped, and an answer whose facts are not valid JSON yields no facts (the memory
// still folds) with the problem named once for the log.
import { z } from 'zod';
import {
  BIBLE_ATTRIBUTE_MAX_LENGTH,
  BIBLE_ENTITY_MAX_LENGTH,
  BIBLE_VALUE_MAX_LENGTH,
} from '@shared/schemas/story-bible';

/** The line the facts follow. */
export const FACTS_MARKER = 'FACTS:';
/** Facts one fold keeps at most: a model that lists hundreds is not listing lasting facts. */
export const FACTS_PER_FOLD_MAX = 32;

export interface FactInput {
  entity: string;
  attribute: string;
  value: string;
  /** The story turn the model says the fact comes from (checked against the fold's turns later). */
  turn: number | null;
}

export interface SummaryAnswer {
  /** The memory text, without the facts section. */
  summary: string;
  facts: FactInput[];
  /** Why no facts were read, for one log line; null when the section was read (even if empty). */
  problem: string | null;
}

/** A text field of a fact: spaces folded, quotes and list marks trimmed, cut to `max` characters. */
function field(max: number) {
  return z
    .union([z.string(), z.number()])
    .transform((raw) =>
      String(raw)
        .replace(/\s+/g, ' ')
        .replace(/^["'“”‘’*\-•\s]+|["'“”‘’*\s]+$/g, '')
        .slice(0, max)
        .trim(),
    )
    .pipe(z.string().min(1));
}

const factItemSchema = z.object({
  entity: field(BIBLE_ENTITY_MAX_LENGTH),
  attribute: field(BIBLE_ATTRIBUTE_MAX_LENGTH),
  value: field(BIBLE_VALUE_MAX_LENGTH),
  turn: z.coerce.number().int().nonnegative().max(1_000_000_000).nullable().catch(null),
});

/** Where the facts section starts: the last line that is the marker (bold or a heading allowed), or null. */
function markerAt(text: string): { start: number; end: number } | null {
  const pattern = /^[ \t]*(?:#{1,4}[ \t]*)?\**[ \t]*FACTS[ \t]*:?[ \t]*\**:?[ \t]*/gim;
  let found: { start: number; end: number } | null = null;
  for (const match of text.matchAll(pattern)) found = { start: match.index, end: match.index + match[0].length };
  return found;
}

/** The JSON of a facts section: inside a code fence if there is one, else from the first bracket to the last. */
function jsonOf(section: string): string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(section);
  const body = (fenced ? fenced[1] : section).trim();
  const open = body.search(/[[{]/);
  const close = Math.max(body.lastIndexOf(']'), body.lastIndexOf('}'));
  return open >= 0 && close > open ? body.slice(open, close + 1) : body;
}

/** The facts of a parsed JSON value: an array of items, or an object holding one under `facts`. */
function itemsOf(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object' && Array.isArray((value as { facts?: unknown }).facts))
    return (value as { facts: unknown[] }).facts;
  return null;
}

/** Reads a summarising call's answer: the memory text, and the facts after it. */
export function readSummaryAnswer(text: string): SummaryAnswer {
  const marker = markerAt(text);
  if (!marker) return { summary: text.trim(), facts: [], problem: 'the answer has no facts section' };
  const summary = text.slice(0, marker.start).trim();
  const section = text.slice(marker.end);
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonOf(section));
  } catch {
    return { summary, facts: [], problem: 'the facts are not valid JSON' };
  }
  const items = itemsOf(parsed);
  if (!items) return { summary, facts: [], problem: 'the facts are not a JSON array' };
  const facts: FactInput[] = [];
  for (const item of items) {
    if (facts.length >= FACTS_PER_FOLD_MAX) break;
    const fact = factItemSchema.safeParse(item);
    if (fact.success) facts.push(fact.data);
  }
  return { summary, facts, problem: null };
}

/** Writes facts as a summarising answer carries them (the builtin narrator's answers). */
export function factsSection(facts: FactInput[]): string {
  return `${FACTS_MARKER}\n${JSON.stringify(facts)}`;
}
