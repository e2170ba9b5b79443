// Context assembly: what a turn's prompt holds and how it is kept inside the model's window.
//
// A prompt is an ordered list of named blocks (turnBlocks), ordered by how often they change, so
// provider prompt caches (which reuse only an unchanged prefix) keep hitting:
//   the stable head
//     system   the narrator's rules and the player's preferences (changes only with preferences)
//     premise  set by the player at the start (pinned: never dropped)
//     card     the always-on story cards (change only when the player edits them)
//     memory   the story memory (changes only when turns are folded)
//   recent     the recent turns verbatim (only ever grow at the end between folds)
//     authorsNote  the story's author's note, joined to the user message LLM_AUTHORS_NOTE_DEPTH
//              (3) messages from the end, where models heed it; counted with the pinned texts
//   the volatile tail, in the last user message with the action
//     fact     facts of the story bible, pinned or called up by the turn (domains/story/bible)
//     passage  passages of earlier turns recalled from the memory bank (domains/story/memory)
//     card     the story cards whose keys came up for this turn
//     action   the new action, last
// There is no system message after the first: some providers and chat templates refuse them.
// Roles alternate by construction: every block after the system prompt is a run of user or
// narrator texts, and neighbouring texts of one role are joined into one message (blank line
// between), so the messages start with the pinned user text, end with the action and alternate,
// as some providers insist, even when an imported story holds a run of one role.
//
// The whole prompt must fit LLM_CONTEXT_TOKENS - LLM_MAX_OUTPUT_TOKENS less a 15 % safety margin
// (other models' tokenizers count differently from o200k). Each text is counted once and a joined
// message costs its parts plus the blank lines, never a second count of the joined text. The
// recent turns are taken newest first until the next one does not fit, so the work is bounded by
// the window, never by the story. The cards come already fitted to their own share (cards/budget.ts).
// When the prompt does not fit, it gives way in this fixed order, each step only if still needed:
//   1. the oldest recent turns (they are folded into memory soon anyway), down to the last two turn
//      pairs, which stay verbatim at any window;
//   2. the memory, oldest sentences first (first to let the last two pairs in, then for anything);
//   3. the premise, the author's note and the action, cut in the middle to a half, an eighth and a
//      quarter of what the system prompt leaves (only pathological text reaches this: a
//      4,000-character premise fits the smallest budget).
import { authorsNoteBlock, memoryBlock, premiseBlock } from './prompts';
import { MESSAGE_OVERHEAD_TOKENS } from './tokenizer';
import type { ChatMessage, TurnRecord } from './types';

export const SAFETY_MARGIN = 0.15;
export const MEMORY_SHARE = 0.15;
const PRIMING_TOKENS = 3;
/** Between two texts of one role joined into one message. */
export const JOINER = '\n\n';

export type Count = (text: string) => number;

export interface Budget {
  /** Tokens the whole prompt may use. */
  prompt: number;
  /** Tokens the memory may use (also the summary call's output cap). */
  memory: number;
}

export function computeBudget(contextTokens: number, maxOutputTokens: number): Budget {
  const prompt = Math.floor((contextTokens - maxOutputTokens) * (1 - SAFETY_MARGIN));
  return { prompt, memory: Math.floor(prompt * MEMORY_SHARE) };
}

export interface TurnContextInput {
  system: string;
  premise: string;
  /** The story's author's note (empty: none), placed `authorsNoteDepth` messages from the end. */
  notes?: string;
  /** LLM_AUTHORS_NOTE_DEPTH (DEFAULT_AUTHORS_NOTE_DEPTH when not given). */
  authorsNoteDepth?: number;
  memory: string;
  /** Unfolded turns since the memory (the newest of them at least), oldest first, without the premise message. */
  recent: TurnRecord[];
  /** The new action, or the opening instruction on the first turn. */
  action: string;
  /** The always-on cards' texts, in the stable head (already fitted to the cards' share). */
  headCards?: string[];
  /** The texts of the cards that came up for this turn, next to the action. */
  tailCards?: string[];
  /** Facts of the story bible (already fitted to the memory budget), first in the tail. */
  facts?: string[];
  /** Passages recalled from the memory bank (already fitted to what the facts left of the budget). */
  recalled?: string[];
}

export type PromptBlockName =
  'system' | 'premise' | 'authorsNote' | 'card' | 'memory' | 'recent' | 'fact' | 'passage' | 'action';

/** How many messages from the end of the prompt the author's note goes (LLM_AUTHORS_NOTE_DEPTH's default). */
export const DEFAULT_AUTHORS_NOTE_DEPTH = 3;

/**
 * Where the author's note went: into the first message (before the premise), the user message
 * that starts with the sent turn `index`, or the last message (before the tail and the action);
 * `fromEnd` counts the messages from the end, the note's own included.
 */
export type AuthorsNotePlace = ({ at: 'head' } | { at: 'turn'; index: number } | { at: 'tail' }) & {
  fromEnd: number;
};

/** The newest recent turns that stay verbatim at any window: the last two turn pairs. */
export const GUARANTEED_TURNS = 4;

/** One named part of a prompt: a text of one role, or the verbatim turns (each of its own role). */
export type PromptBlock =
  | { name: Exclude<PromptBlockName, 'recent'>; role: 'system' | 'user'; text: string }
  | { name: 'recent'; turns: TurnRecord[] };

/** The blocks of a turn's prompt, in the order they are sent. */
export function turnBlocks(input: TurnContextInput): PromptBlock[] {
  const notes = (input.notes ?? '').trim();
  const blocks: PromptBlock[] = [
    { name: 'system', role: 'system', text: input.system },
    { name: 'premise', role: 'user', text: premiseBlock(input.premise) },
  ];
  // Counted here with the pinned texts; assembleTurnPrompt moves it to its depth once the turns are chosen.
  if (notes) blocks.push({ name: 'authorsNote', role: 'user', text: authorsNoteBlock(notes) });
  for (const text of input.headCards ?? []) blocks.push({ name: 'card', role: 'user', text });
  if (input.memory) blocks.push({ name: 'memory', role: 'user', text: memoryBlock(input.memory) });
  blocks.push({ name: 'recent', turns: input.recent });
  for (const text of input.facts ?? []) blocks.push({ name: 'fact', role: 'user', text });
  for (const text of input.recalled ?? []) blocks.push({ name: 'passage', role: 'user', text });
  for (const text of input.tailCards ?? []) blocks.push({ name: 'card', role: 'user', text });
  blocks.push({ name: 'action', role: 'user', text: input.action });
  return blocks;
}

export interface AssembledPrompt {
  system: string;
  messages: ChatMessage[];
  /** The prompt's tokens as counted: each text once, a joined message as its parts and blank lines. */
  promptTokens: number;
  /** Recent turns left out (the oldest ones). */
  droppedTurns: number;
  /** Tokens of each recent turn sent, oldest first: `recent.slice(droppedTurns)`. */
  turnTokens: number[];
  /** Where the author's note went, when the story has one. */
  authorsNote?: AuthorsNotePlace;
  /** The blocks besides the recent turns, in order (head, then tail), with the tokens sent and whether a text was cut to fit; a memory that gave way wholly is 'dropped'. */
  parts: Array<{ name: PromptBlockName; tokens: number; fit: 'full' | 'partial' | 'dropped' }>;
  /** The memory's tokens before it gave way (0 without memory). */
  memoryTokens: number;
}

export function countPrompt(system: string, messages: ChatMessage[], count: Count): number {
  return (
    count(system) +
    MESSAGE_OVERHEAD_TOKENS +
    PRIMING_TOKENS +
    messages.reduce((sum, m) => sum + count(m.content) + MESSAGE_OVERHEAD_TOKENS, 0)
  );
}

/**
 * Keeps the head and tail of a text that is too long for its slot: whole words where the text has
 * them, else characters (a script written without spaces is one endless "word", which a cut by words
 * kept whole).
 */
export function cutMiddle(text: string, maxTokens: number, count: Count): string {
  const tokens = count(text);
  if (tokens <= maxTokens) return text;
  return (
    keepEnds(text.split(/\s+/), ' ', maxTokens, tokens, count) ??
    keepEnds(Array.from(text), '', maxTokens, tokens, count) ??
    '…'
  );
}

/** The fewest units cut from the middle (units joined by `glue`) that fit `maxTokens`; null when two units are too many. */
function keepEnds(units: string[], glue: string, maxTokens: number, tokens: number, count: Count): string | null {
  let keep = Math.max(2, Math.floor(units.length * (maxTokens / tokens)) - 4);
  for (;;) {
    const half = Math.floor(keep / 2);
    const candidate = `${units.slice(0, half).join(glue)} … ${units.slice(units.length - half).join(glue)}`;
    if (count(candidate) <= maxTokens) return candidate;
    if (keep <= 2) return null;
    keep -= Math.max(1, Math.floor(keep / 10));
  }
}

/** A counted text of the conversation (system prompt aside). */
interface Piece {
  name: PromptBlockName;
  role: 'user' | 'assistant';
  text: string;
  tokens: number;
}

/**
 * What a piece costs beyond its text, given the piece before it: a new message's overhead when the
 * role changes (or nothing comes before), a blank line when it joins the message before.
 */
function link(before: Piece | undefined, piece: Piece | undefined, joinerTokens: number): number {
  if (!piece) return 0;
  return before?.role === piece.role ? joinerTokens : MESSAGE_OVERHEAD_TOKENS;
}

function sequenceTokens(pieces: Piece[], joinerTokens: number): number {
  return pieces.reduce((sum, piece, i) => sum + piece.tokens + link(pieces[i - 1], piece, joinerTokens), 0);
}

/** Same-role neighbours become one message: the texts joined by a blank line. */
function toMessages(pieces: Piece[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const piece of pieces) {
    const last = messages.at(-1);
    if (last?.role === piece.role) last.content = `${last.content}${JOINER}${piece.text}`;
    else messages.push({ role: piece.role, content: piece.text });
  }
  return messages;
}

/** The newest sentences of `memory` that fit `maxTokens` (each sentence counted once, a space as a token). */
function newestSentences(memory: string, maxTokens: number, count: Count): string {
  const sentences = memory.split(/(?<=[.!?])\s+/);
  let used = 0;
  let first = sentences.length;
  while (first > 0) {
    const cost = count(sentences[first - 1]) + 1;
    if (used + cost > maxTokens) break;
    used += cost;
    first -= 1;
  }
  return sentences.slice(first).join(' ');
}

/**
 * Moves the author's note from the pinned texts to `depth` messages from the end: to the start of
 * the earliest user message among the last `depth` (the action's message counts as the first), so
 * it joins a user message and no system message sits in mid-conversation. It costs what it cost
 * with the pinned texts, its text and a joiner, wherever it goes.
 */
function placeAuthorsNote(
  all: Piece[],
  depth = DEFAULT_AUTHORS_NOTE_DEPTH,
): { pieces: Piece[]; place: AuthorsNotePlace | null } {
  const noteAt = all.findIndex((p) => p.name === 'authorsNote');
  if (noteAt < 0) return { pieces: all, place: null };
  const pieces = [...all.slice(0, noteAt), ...all.slice(noteAt + 1)];
  const starts = pieces.flatMap((p, i) => (i === 0 || pieces[i - 1].role !== p.role ? [i] : []));
  const within = starts.slice(-Math.max(1, depth));
  const target = within.find((i) => pieces[i].role === 'user') ?? starts.find((i) => pieces[i].role === 'user') ?? 0;
  const fromEnd = starts.length - starts.indexOf(target);
  const next = pieces[target];
  pieces.splice(target, 0, all[noteAt]);
  if (next.name === 'recent') {
    const index = pieces.slice(0, target).filter((p) => p.name === 'recent').length;
    return { pieces, place: { at: 'turn', index, fromEnd } };
  }
  const inTail = pieces.slice(0, target).some((p) => p.name === 'recent' || TAIL_NAMES.has(p.name));
  return { pieces, place: { at: inTail || TAIL_NAMES.has(next.name) ? 'tail' : 'head', fromEnd } };
}

/** The blocks after the verbatim turns. */
const TAIL_NAMES = new Set<PromptBlockName>(['fact', 'passage', 'action']);

export function assembleTurnPrompt(input: TurnContextInput, budget: Budget, count: Count): AssembledPrompt {
  const joinerTokens = count(JOINER);
  const blocks = turnBlocks(input);
  const systemText = blocks.flatMap((b) => (b.name !== 'recent' && b.role === 'system' ? [b.text] : [])).join(JOINER);
  const systemTokens = count(systemText) + MESSAGE_OVERHEAD_TOKENS + PRIMING_TOKENS;
  const piece = (name: PromptBlockName, role: 'user' | 'assistant', text: string): Piece => ({
    name,
    role,
    text,
    tokens: count(text),
  });
  const recentAt = blocks.findIndex((b) => b.name === 'recent');
  const textPieces = (from: PromptBlock[]) =>
    from.flatMap((b) => (b.name === 'recent' || b.role === 'system' ? [] : [piece(b.name, 'user', b.text)]));
  const before = textPieces(blocks.slice(0, recentAt));
  const after = textPieces(blocks.slice(recentAt + 1));
  const fixed = () => systemTokens + sequenceTokens([...before, ...after], joinerTokens);

  // 1. The recent turns, newest first, each counted once, until the next does not fit (or `most` are in).
  const recent = input.recent;
  const fitTurns = (most = recent.length): { kept: Piece[]; total: number } => {
    const newestFirst: Piece[] = [];
    let total = fixed();
    const edge = before.at(-1);
    for (let i = recent.length - 1; i >= 0 && newestFirst.length < most; i -= 1) {
      const turn = piece('recent', recent[i].role, recent[i].content);
      // Slipped in between the pinned texts and the turn after it: its text, and the links around it.
      const next = newestFirst.at(-1) ?? after[0];
      const added =
        turn.tokens + link(edge, turn, joinerTokens) + link(turn, next, joinerTokens) - link(edge, next, joinerTokens);
      if (total + added > budget.prompt) break;
      total += added;
      newestFirst.push(turn);
    }
    return { kept: newestFirst.reverse(), total };
  };
  let { kept, total } = fitTurns();
  const memoryAt = before.findIndex((p) => p.name === 'memory');
  const memoryTokens = memoryAt >= 0 ? before[memoryAt].tokens : 0;
  let memoryFit: 'full' | 'partial' | 'dropped' = 'full';

  const guaranteed = Math.min(GUARANTEED_TURNS, recent.length);
  if ((kept.length < guaranteed || total > budget.prompt) && memoryAt >= 0) {
    // 2. The memory gives way, oldest sentences first: to the last two turn pairs, then to anything.
    before.splice(memoryAt, 1);
    const withoutMemory = fitTurns(guaranteed);
    const allowed = budget.prompt - withoutMemory.total - joinerTokens - count(memoryBlock(''));
    const memory = allowed > 0 ? newestSentences(input.memory, allowed, count) : '';
    if (memory) before.splice(memoryAt, 0, piece('memory', 'user', memoryBlock(memory)));
    memoryFit = !memory ? 'dropped' : memory === input.memory ? 'full' : 'partial';
    ({ kept, total } = fitTurns());
  }
  const cut = new Set<Piece>();
  if (total > budget.prompt) {
    // 3. Still too long: the middle of an oversized premise, notes or action goes.
    const room = budget.prompt - systemTokens;
    const cutToFit = (p: Piece, raw: string, share: number, render: (text: string) => string) => {
      const text = cutMiddle(raw, Math.floor(room * share), count);
      if (text === raw) return;
      Object.assign(p, piece(p.name, p.role, render(text)));
      cut.add(p);
    };
    for (const p of before) {
      if (p.name === 'premise') cutToFit(p, input.premise, 1 / 2, premiseBlock);
      if (p.name === 'authorsNote') cutToFit(p, (input.notes ?? '').trim(), 1 / 8, authorsNoteBlock);
    }
    for (const p of after) if (p.name === 'action') cutToFit(p, input.action, 1 / 4, (text) => text);
    ({ kept, total } = fitTurns());
  }

  const { pieces, place } = placeAuthorsNote([...before, ...kept, ...after], input.authorsNoteDepth);
  return {
    system: systemText,
    messages: toMessages(pieces),
    ...(place ? { authorsNote: place } : {}),
    promptTokens: systemTokens + sequenceTokens(pieces, joinerTokens),
    droppedTurns: recent.length - kept.length,
    turnTokens: kept.map((p) => p.tokens),
    parts: [
      ...before.flatMap((p) => {
        const part = { name: p.name, tokens: p.tokens, fit: cut.has(p) ? ('partial' as const) : ('full' as const) };
        return p.name === 'memory' ? [{ ...part, fit: memoryFit }] : [part];
      }),
      ...(memoryFit === 'dropped' ? [{ name: 'memory' as const, tokens: 0, fit: 'dropped' as const }] : []),
      ...after.map((p) => ({
        name: p.name,
        tokens: p.tokens,
        fit: cut.has(p) ? ('partial' as const) : ('full' as const),
      })),
    ],
    memoryTokens,
  };
}

/** What the rules, the premise, the notes, the action and the last two turn pairs cost: room no card or recalled passage may take. */
function reservedTokens(
  input: Pick<TurnContextInput, 'system' | 'premise' | 'notes' | 'recent' | 'action'>,
  count: Count,
): number {
  const notes = (input.notes ?? '').trim();
  const texts = [
    premiseBlock(input.premise),
    ...(notes ? [authorsNoteBlock(notes)] : []),
    ...input.recent.slice(-GUARANTEED_TURNS).map((t) => t.content),
    input.action,
  ];
  return (
    count(input.system) +
    PRIMING_TOKENS +
    MESSAGE_OVERHEAD_TOKENS * (texts.length + 1) +
    texts.reduce((sum, text) => sum + count(text), 0)
  );
}

/**
 * The cards' share of a turn's prompt: `share` of the room, and never so much that the rules, the
 * premise, the notes, the action and the last two turn pairs would not fit beside it (the memory
 * gives way to the cards, as it does to the turns).
 */
export function cardBudget(
  input: Pick<TurnContextInput, 'system' | 'premise' | 'notes' | 'recent' | 'action'>,
  budget: Budget,
  share: number,
  count: Count,
): number {
  return Math.max(0, Math.min(Math.floor(budget.prompt * share), budget.prompt - reservedTokens(input, count)));
}

/**
 * The room for the story bible's facts and the passages recalled from the memory bank: LLM_RECALL_TOKENS, and never so much that
 * the reserved texts and the cards sent (`cardTokens`) would not fit beside it.
 */
export function recallBudget(
  input: Pick<TurnContextInput, 'system' | 'premise' | 'notes' | 'recent' | 'action'>,
  budget: Budget,
  recallTokens: number,
  cardTokens: number,
  count: Count,
): number {
  return Math.max(0, Math.min(recallTokens, budget.prompt - reservedTokens(input, count) - cardTokens));
}
