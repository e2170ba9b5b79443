// A story and its messages as the repositories hand them out: the shapes the story repositories
// (stories/, the turn's statements in story-turn.ts) and the domains share.

export interface StoryRecord {
  id: number;
  userId: number;
  title: string | null;
  premise: string;
  memory: string;
  memoryThroughId: number;
  /** The story's author's note: the player's direction for the narrator, sent with every turn. */
  notes: string;
  /** Raised by every change to the story's cards: cached card heads are current while it is unchanged. */
  cardsVersion: number;
  /** The story's generation settings: its reply length, and its temperature (null: LLM_TEMPERATURE). */
  replyLength: 'short' | 'medium' | 'long';
  temperature: number | null;
  /** The narrator the player picked (a catalogue id, which may have left the catalogue since); null: the default. */
  narrator: string | null;
}

export interface MessageRecord {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  turn: number;
  isInitial: boolean;
  attempts: number;
  /** The version shown (`content`) and how many the message has (alternatives, edits). */
  version: number;
  versions: number;
  createdAt: Date;
}

/** A shown message without its text: the time as `Date.toISOString` writes it, from the database. */
export interface MessageHead {
  id: number;
  role: 'user' | 'assistant';
  isInitial: boolean;
  version: number;
  versions: number;
  createdAt: string;
  /** A narrator reply's loop guard mark (its shown version's); null when the guard did nothing. */
  loopGuard: 'replaced' | 'marked' | null;
  /** A narrator reply's usage (its shown version's) as the JSON text stored, spliced into answers as is; null when none. */
  usageJson: string | null;
}
