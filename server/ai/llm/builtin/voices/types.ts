// The shape of one genre's voice for the offline narrator: the words, people, places, sounds and
// sentences that make a reply read as that genre. List sizes are fixed (see VOICE_SIZES): the
// narrator's no-repeat arithmetic draws one entry of each list per paragraph through a bijection
// whose space is the product of these sizes.

/** What a genre's opening (turn 0) may use: its own sight and sound, and the premise's anchors. */
export interface OpeningSlots {
  /** A clause that can follow "and" or a comma. */
  sight: string;
  /** A noun phrase that makes a noise. */
  sound: string;
  /** Where the story starts: the premise's own setting ("the bakery") or one of the genre's places, with the premise's city when it names one ("the bakery in Paris"). */
  where: string;
  /** Someone in the premise ("the florist", "Ada Quill") or one of the genre's figures. */
  person: string;
}

export type Opening = (o: OpeningSlots) => string;

export interface GenreVoice {
  /** Four openings in the genre's own voice (the narrator adds four shared ones). */
  openings: Opening[];
  /** Clauses that can follow "and" or a comma (6). */
  sights: string[];
  /** Noun phrases that make a noise (6). */
  sounds: string[];
  /** Noun phrases for a place, with their determiner (6). */
  places: string[];
  /** Noun phrases for someone who appears (6). */
  figures: string[];
  /** Clauses that hint at what comes next (6). */
  omens: string[];
  /** Whole sentences of sensory detail (8). */
  details: string[];
  /** Short sentences that follow the reaction: the genre's pulse (8). */
  connectors: string[];
  /** Four questions of the genre's own (the narrator adds four shared ones). */
  questions: string[];
  /** Mild peril for the teen rating (2 sentences). */
  peril: string[];
  /** Darker, never explicit, for the mature rating (2 sentences). */
  darker: string[];
  /** Nouns for a fallback title (6). */
  titleNouns: string[];
}

/** Every voice has exactly these list sizes; voices.test.ts checks them. */
export const VOICE_SIZES = {
  openings: 4,
  sights: 6,
  sounds: 6,
  places: 6,
  figures: 6,
  omens: 6,
  details: 8,
  connectors: 8,
  questions: 4,
  peril: 2,
  darker: 2,
  titleNouns: 6,
} as const satisfies Record<keyof GenreVoice, number>;

/** Capitalises the first letter: slot phrases start lower-case so they can sit mid-sentence. */
export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
