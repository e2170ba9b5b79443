// The words sent to real models: the narrator's system prompt (role, rules and the player's
// preferences by name), and the summary and title instructions. The system prompt depends only on
// the preferences, so it stays byte-identical from turn to turn and provider prompt caches hit.
import type { Preferences } from '@shared/schemas/preferences';
import type { ReplyLength } from '@shared/schemas/story-settings';

const RATINGS: Record<Preferences['contentRating'], string> = {
  general: 'general: suitable for all ages; no graphic violence, no gore, no sexual content, no strong language',
  teen: 'teen: mild violence and peril, some tension and dark themes, mild language; no sexual content, no gore',
  mature:
    'mature: adult themes, intense violence and strong language are allowed when the story calls for them; no explicit sexual content',
};

const NARRATIVE: Record<Preferences['narrativeStyle'], string> = {
  descriptive: 'descriptive: rich sensory detail and atmosphere',
  concise: 'concise: short, direct sentences; keep replies brief and moving',
  dramatic: 'dramatic: heightened emotion, tension and vivid stakes',
};

const LANGUAGE: Record<Preferences['languageStyle'], string> = {
  modern: 'modern: contemporary everyday English',
  archaic: 'archaic: old-fashioned wording with the flavour of older tales (thee, thou, ere) while staying readable',
  formal: 'formal: polished, precise and elevated prose without slang',
};

/** The words a reply of each length is asked for; 'medium' is the narrator's length before there was a choice. */
const REPLY_WORDS: Record<ReplyLength, string> = {
  short: 'one or two short paragraphs, about 40 to 90 words',
  medium: 'one to three short paragraphs, about 80 to 180 words',
  long: 'two to four paragraphs, about 180 to 320 words',
};

export function narratorSystemPrompt(preferences: Preferences, replyLength: ReplyLength = 'medium'): string {
  return [
    'You are the narrator of an interactive story. The player tells you what their character does; you tell what happens next.',
    'Rules:',
    '- Write in the second person ("you"), present tense, as story prose only: no headings, lists, notes or questions about the rules.',
    "- Never act, speak, think or decide for the player's character beyond the action they gave; show the world's reaction to it.",
    '- Keep continuity with the premise, the story memory and the recent turns: names, places, objects and facts stay as established.',
    `- Write ${REPLY_WORDS[replyLength]}.`,
    "- End on an open situation that invites the player's next action; do not end the story.",
    "The player's story preferences:",
    `- Content rating ${RATINGS[preferences.contentRating]}.`,
    `- Narrative style ${NARRATIVE[preferences.narrativeStyle]}.`,
    `- Language style ${LANGUAGE[preferences.languageStyle]}.`,
  ].join('\n');
}

export function premiseBlock(premise: string): string {
  return `Story premise (set by the player at the start):\n${premise}`;
}

/**
 * The story's author's note (the story memory panel's, `stories.notes`): the player's direction for
 * the story, sent on every turn a few messages from the end (context.ts), where models heed it.
 */
export function authorsNoteBlock(note: string): string {
  return `[Author's note: the player's direction for the story from here on; follow it]\n${note}`;
}

/** What every turn sends besides the turns: the premise, and the author's note when there is one. */
export function pinnedBlock(premise: string, note: string): string {
  return note.trim() ? `${premiseBlock(premise)}\n\n${authorsNoteBlock(note.trim())}` : premiseBlock(premise);
}

export function memoryBlock(memory: string): string {
  return `Story memory (what happened earlier, summarised):\n${memory}`;
}

/**
 * A fold's instructions: the next chunk of the memory, about the new turns only (memory-chunks.ts:
 * the memory grows by appending, so a provider's prompt cache keeps its prefix), then the facts.
 */
export const SUMMARY_SYSTEM_PROMPT = [
  'You maintain the memory of an interactive story so the narrator can keep continuity.',
  'The memory is a list of parts, each summarising a stretch of the story; the existing memory is there for context only.',
  'Summarise only the new turns, as the next part of the memory, in the second person, in past tense; do not repeat the existing memory.',
  'Keep every name of a person, creature, place and object, every promise, secret, injury, possession and open thread.',
  'Drop atmosphere and wording; keep facts.',
  'After the summary, write a line with only FACTS: and then a JSON array of the lasting facts the new turns state or change,',
  'each as {"entity": "your horse", "attribute": "name", "value": "Bramble", "turn": 12}: names, relations, possessions, places, titles, inscriptions.',
  'Write an entity and an attribute the same way each time, so that a new value replaces the old one. Write [] when there are none.',
].join('\n');

export function summaryUserPrompt(memory: string, transcript: string, maxWords: number): string {
  return `Existing memory (context only):\n${memory || '(none yet)'}\n\nNew turns:\n${transcript}\n\nWrite the next part of the memory, about the new turns only, in at most ${maxWords} words, then the facts.`;
}

/** A compaction's instructions: the oldest parts of the memory merged into one, when the memory is full. */
export const COMPACTION_SYSTEM_PROMPT = [
  'You maintain the memory of an interactive story so the narrator can keep continuity.',
  'Merge the parts of the memory you are given, oldest first, into one shorter part, in the second person, in past tense.',
  'Keep every name of a person, creature, place and object, every promise, secret, injury, possession and open thread that still matters.',
  'Drop atmosphere and wording; keep facts. Write only the merged part.',
].join('\n');

export function compactionUserPrompt(parts: readonly string[], maxWords: number): string {
  return `Parts of the memory, oldest first:\n\n${parts.join('\n\n')}\n\nWrite them as one part in at most ${maxWords} words.`;
}

export const TITLE_SYSTEM_PROMPT =
  'You name stories. Reply with a title of at most six words and nothing else: no quotes, no punctuation at the end.';

export function titleUserPrompt(premise: string, opening: string): string {
  return `Premise:\n${premise}\n\nOpening:\n${opening}\n\nTitle:`;
}

/** A story card as the narrator reads it, in the head (always on) or next to the action (its key came up). */
export function cardBlock(name: string, content: string): string {
  return `Story card: ${name}\n${content}`;
}

/** A passage recalled from the memory bank, with the turn and voice it came from. */
export function recallBlock(turn: number, role: 'user' | 'assistant', text: string): string {
  const from = turn === 0 ? 'the opening' : `turn ${turn}, ${role === 'user' ? 'the player' : 'the narrator'}`;
  return `Recalled from earlier in the story (${from}): ${text}`;
}

/** A fact of the story bible as the narrator reads it, with the value it replaced, if any. */
export function factBlock(
  fact: { entity: string; attribute: string; value: string; turn: number },
  formerly?: string,
): string {
  const since = fact.turn === 0 ? 'since the opening' : `since turn ${fact.turn}`;
  return `Story bible: ${fact.entity}, ${fact.attribute}: ${fact.value} (${since}${formerly ? `; formerly ${formerly}` : ''})`;
}
