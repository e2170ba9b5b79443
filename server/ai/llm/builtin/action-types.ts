// What the offline narrator knows of a player's action once it is read as English (./action.ts):
// its clauses, each with verb, object, adverbs and destination, in the second person. Kept apart
// from the reader so the grammar module can name a clause without importing the reader.
import type nlp from 'compromise';

/** One clause of an action ("slip the letter into your coat"), in the second person. */
export interface ActionClause {
  /** The verb in its plain present form with any particle: "look around", "pick up", "slip". '' when none. */
  verb: string;
  /** The object noun phrase without prepositional phrases: "the letter", "your coat", "Mara". '' when none. */
  object: string;
  /** The object's head noun, lower-case unless a name: "letter". '' when no object. */
  objectHead: string;
  /** Adverbs of the clause: ["quietly"]. */
  adverbs: string[];
  /** Where to or with what: "into your coat", "towards the old church", "with the knife". '' when none. */
  destination: string;
  /** The whole clause, second person, lower-case start unless a name, no final punctuation: "you slip the letter into your coat". */
  text: string;
  /** Who acts: "you" for the player, else the subject as written ("Mara", "the guard"). */
  subject: string;
  /** A personal pronoun object that only fits an object position ("him", "them", "yourself"); '' when none (object is then ''). */
  objectPronoun: string;
  /** True when the verb is negated ("I don't move"): verb stays "move". */
  negated: boolean;
}

export interface ActionReading {
  /** The action as a second-person sentence body: "you quietly slip the letter into your coat and walk towards the old church". */
  clause: string;
  /** Each clause, in order; at least one (a bare "wait" is one clause with verb "wait"). */
  clauses: ActionClause[];
  /** The clause the reply answers: the last one with a verb (the player's own, when there is one). */
  main: ActionClause;
  /** Proper names the action mentions ("Mara", "Paris"), as written. */
  names: string[];
  /** Nouns the action mentions, heads only, lower-case ("letter", "coat", "church"): what continuity may bring back. */
  things: string[];
  /** The words spoken, when the action is (or contains) quoted speech, or is a direct question. */
  speech: string | null;
  /** True when the action asks something ("Where is the key?", "I ask Mara where she was"). */
  question: boolean;
}

/** The English reader (compromise), loaded once: the library is large. */
export type English = typeof nlp;
