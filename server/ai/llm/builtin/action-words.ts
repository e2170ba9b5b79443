// The action reader's words (./action.ts, ./action-grammar.ts): its token, the closed word lists
// (determiners, prepositions, particles, pronouns, auxiliaries, the few verb classes whose grammar
// matters) and the word-class tests built on them and on compromise's tags. compromise tags
// open-class words well but closed-class ones loosely, so the reader decides those here.

export interface Token {
  text: string;
  lower: string;
  tags: Set<string>;
  pre: string;
  post: string;
  /** The quoted words (with straight quote marks) this token stands for; '' when not a quote. */
  quote: string;
  /** First token of its sentence. */
  first: boolean;
  /** Its second-person form. */
  out: string;
}

/** The plain form of a verb token ("opens" → "open"), given compromise's tense for it. */
export type ToPlain = (word: string, tense: string) => string;

export const words = (list: string) => new Set(list.split(' '));
export const CONNECTORS = words('and then but so or yet also');
export const DETERMINERS = words(
  'the a an my your his her their its our this that these those some any every each another no all both either neither several many few which whose',
);
export const PREPOSITIONS = words(
  'into onto to towards toward through across at in on under over behind beside besides near inside outside with from up down along past around against beneath above below upon among amongst between by within off throughout underneath beyond via',
);
export const COMPOUND_PREPOSITIONS = [
  'out of',
  'next to',
  'away from',
  'in front of',
  'on top of',
  'close to',
  'up to',
  'back to',
  'back into',
].map((c) => c.split(' '));
export const PARTICLES = words(
  'up down around round out in off away back over on through about along inside outside forward forwards aside together behind ahead home upstairs downstairs north south east west northward southward eastward westward asleep awake left right',
);
/** Words compromise may tag as nouns that say where or when, never what: not objects, not things. */
export const DEICTIC = words(
  'here there now today tonight tomorrow yesterday everywhere somewhere anywhere nowhere home upstairs downstairs',
);
/** A whole action that is only one of these is something said: "Yes" reads as you say, "Yes". */
export const INTERJECTIONS = words('yes no ok okay sure thanks hello hi hey hmm please sorry yeah nope goodbye bye');
export const SUBJECTS = words(
  "i you we he she they i'm i've i'll i'd we're we've we'll we'd he's she's they're they've",
);
export const OBJECT_PRONOUNS = words(
  'him her them me us you myself yourself himself herself themselves ourselves yourselves',
);
export const THING_PRONOUNS = words(
  'it this that these those something anything everything nothing someone anyone everyone somebody anybody everybody nobody',
);
export const AUXILIARIES = words(
  "am is are was were be been being do does did have has had will would shall should can could may might must don't doesn't didn't won't can't couldn't shouldn't wouldn't",
);
export const BE = words("am is are was were be been being i'm we're you're he's she's they're");
export const WH = words(
  'what where when why who whom whose how which whether if that because until unless while as before after since though although once',
);
export const QUESTION_OPENERS = words(
  'what where when why who whom whose how which is are am was were can could do does did will would should shall may might must have has',
);
/** Verbs that take a second verb: "try to open", "keep walking". */
export const CHAIN_VERBS = words(
  'try attempt begin start decide want need hope continue stop keep refuse manage plan prepare go',
);
/** Verbs that take two objects: "hand Mara the letter" reads as "hand the letter to Mara". */
export const GIVE_VERBS = words('give hand show offer pass throw toss send bring buy lend sell teach tell pay');
/** Common verbs with no object, which compromise tags as nouns after "and" ("and run"). */
export const INTRANSITIVE = words(
  'run flee hide wait leave go escape jump duck listen watch rest sleep pray dance sing fight attack follow climb swim retreat charge shout scream yell smile laugh cry nod sit stand kneel pause hurry rush sneak creep crawl knock search look step drink eat breathe whisper shrug sigh',
);
/** Adverbs that connect or intensify rather than say how: not reported among a clause's adverbs. */
export const QUIET_ADVERBS = words(
  'then so not never very too also just only even rather quite really almost already still there here now yet ever again',
);
export const INTENSIFIERS = words('very rather quite most more so too really');
export const END_PUNCT = /[.!?,;:]/;

export const isNoun = (t: Token | undefined): boolean =>
  !!t && t.tags.has('Noun') && !t.tags.has('Pronoun') && !t.tags.has('Possessive') && !t.quote && !DEICTIC.has(t.lower);
export const isAdverb = (t: Token | undefined): boolean =>
  !!t && t.tags.has('Adverb') && !PREPOSITIONS.has(t.lower) && !PARTICLES.has(t.lower) && !t.quote;
export const isName = (t: Token) =>
  !t.quote && /^[A-Z]/.test(t.text) && t.lower !== 'i' && (t.tags.has('ProperNoun') || (!t.first && isNoun(t)));
export const isDeterminer = (t: Token | undefined) =>
  !!t &&
  !t.quote &&
  (DETERMINERS.has(t.lower) || (t.tags.has('Possessive') && !t.tags.has('Pronoun')) || POSSESSIVE_PRONOUN(t));
export const POSSESSIVE_PRONOUN = (t: Token) => ['my', 'your', 'his', 'her', 'their', 'its', 'our'].includes(t.lower);
export const isAux = (t: Token) =>
  !t.quote && (AUXILIARIES.has(t.lower) || BE.has(t.lower) || t.tags.has('Auxiliary') || t.tags.has('Modal'));
export const closed = (t: Token) =>
  PREPOSITIONS.has(t.lower) || CONNECTORS.has(t.lower) || WH.has(t.lower) || isDeterminer(t) || t.tags.has('Pronoun');

/** A word that can begin a noun phrase. */
export function startsPhrase(t: Token | undefined): boolean {
  if (!t || t.quote || PREPOSITIONS.has(t.lower) || CONNECTORS.has(t.lower) || WH.has(t.lower)) return false;
  return isDeterminer(t) || t.tags.has('Value') || t.tags.has('Adjective') || isNoun(t);
}

export function render(tokens: Token[]): string {
  return tokens.map((t) => `${t.pre}${t.out}${t.post}`).join('');
}
export const trimEnd = (text: string) => text.replace(/[\s,;:.!?]+$/, '').trim();
export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
