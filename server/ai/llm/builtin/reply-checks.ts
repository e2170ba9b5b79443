// Rules that catch the grammar faults the offline narrator used to make when it restated an action
//: a determiner before an adverb or a verb ("As the carefully gives way"), a whole
// clause or a prepositional phrase used as a noun ("the letter into your coat seems to resist
// you", "As the where…"), and first-person words left in narration outside quotes. Used by the
// reply tests; it tags the reply with compromise, whose context rules tell "the building" (a noun)
// from "the walks" (a verb).
import type { English } from './action';

export type ReplyRule = 'determiner-before-adverb' | 'determiner-before-verb' | 'clause-as-noun' | 'first-person';

export interface ReplyFault {
  rule: ReplyRule;
  /** The words around the fault. */
  snippet: string;
}

interface Term {
  text: string;
  post: string;
  normal: string;
  tags?: Set<string>;
}

const words = (list: string) => new Set(list.split(' '));
/** Determiners that can only start a noun phrase ("her", "that" and "this" also stand alone). */
const DETERMINERS = words('the a an your my our their its every each these those');
/** Adverbs that may follow a determiner when they modify an adjective or noun: "the very edge", "a strangely quiet street". */
const DEGREE = words('very most more least less only rather quite much far same fairly really almost nearly');
const PRONOUNS = words('i you he she we they me him them us');
const WH = words('where what who why how when whether');
/** Verbs the narrator puts after a subject noun phrase. */
const PREDICATES = words(
  'seems seem gives give is was yields resists refuses answers feels looks holds stirs shifts waits begins stands lies moves',
);
const MOTION = words('into onto towards toward');
/** The predicates after which a phrase of motion in the subject is the old fault, not "the road into the hills is long". */
const YIELDING = words('seems seem gives give yields resists refuses answers stirs shifts begins');
const BOUNDARY = words('as when while and but then because if that which who whose where until before after');
const END_PUNCT = /[.!?,;:]/;

const has = (t: Term | undefined, tag: string) => !!t?.tags?.has(tag);
const isDeterminer = (t: Term | undefined) => !!t && DETERMINERS.has(t.normal) && !has(t, 'Pronoun');
const VERB_ENTRIES = words('Infinitive PastTense PresentTense Verb PhrasalVerb Copula Modal Auxiliary');

/**
 * A word that can only be a verb here. compromise's context rules sometimes tag a noun after
 * "the" as a verb ("the ring in the window"), so a plain form counts only when compromise's own
 * lexicon knows the word as a verb and not as a noun ("grab" yes, "ring" and "walk" no);
 * inflected forms ("grabbed", "is") always count.
 */
function verbOnly(english: English, t: Term | undefined): boolean {
  if (!t || !has(t, 'Verb') || has(t, 'Noun') || has(t, 'Adjective') || has(t, 'Gerund') || has(t, 'Participle'))
    return false;
  if (has(t, 'Copula') || (has(t, 'PastTense') && /ed$/.test(t.normal))) return true;
  const lexicon = (english.model() as { one: { lexicon: Record<string, string | undefined> } }).one.lexicon;
  return VERB_ENTRIES.has(lexicon[t.normal] ?? '');
}

function snippet(terms: Term[], from: number, to: number): string {
  return terms
    .slice(Math.max(0, from), Math.min(terms.length, to + 1))
    .map((t) => `${t.text}${t.post}`)
    .join('')
    .trim();
}

/** The faults of one sentence's tagged terms. */
function sentenceFaults(english: English, sentence: Term[]): ReplyFault[] {
  const faults: ReplyFault[] = [];
  const terms = sentence.filter((t) => t.text);
  terms.forEach((t, i) => {
    const next = terms[i + 1];
    const after = terms[i + 2];
    if (!isDeterminer(t) || !next || END_PUNCT.test(t.post)) return;
    const modifies = !!after && !END_PUNCT.test(next.post) && (has(after, 'Adjective') || has(after, 'Noun'));
    if (
      has(next, 'Adverb') &&
      !has(next, 'Adjective') &&
      !has(next, 'Noun') &&
      !(DEGREE.has(next.normal) && modifies) &&
      !modifies
    )
      faults.push({ rule: 'determiner-before-adverb', snippet: snippet(terms, i - 2, i + 2) });
    else if (verbOnly(english, next) && !(has(after, 'Noun') && !END_PUNCT.test(next.post)))
      faults.push({ rule: 'determiner-before-verb', snippet: snippet(terms, i - 2, i + 2) });
    else if (PRONOUNS.has(next.normal) || WH.has(next.normal))
      faults.push({ rule: 'clause-as-noun', snippet: snippet(terms, i - 2, i + 2) });
  });
  // A subject phrase that holds a clause or a phrase of motion before the narrator's verb:
  // "the letter into your coat seems…", "the door you open gives way…".
  terms.forEach((t, p) => {
    if (!PREDICATES.has(t.normal) || p < 2) return;
    let s = p - 1;
    while (s > 0 && p - s < 8 && !END_PUNCT.test(terms[s - 1].post) && !BOUNDARY.has(terms[s - 1].normal)) s -= 1;
    const subject = terms.slice(s, p);
    if (!isDeterminer(subject[0]) || subject.some((w) => BOUNDARY.has(w.normal))) return;
    const inner = subject.slice(1);
    const motion = YIELDING.has(t.normal) && inner.some((w) => MOTION.has(w.normal));
    if (motion || inner.some((w) => verbOnly(english, w) || PRONOUNS.has(w.normal) || WH.has(w.normal)))
      faults.push({ rule: 'clause-as-noun', snippet: snippet(terms, s, p) });
  });
  return faults;
}

/** Checks replies: `check(reply)` is its faults, [] when it reads as English by these rules. */
export interface ReplyChecker {
  check(reply: string): ReplyFault[];
}

/**
 * A checker that tags each sentence once, however many replies repeat it. The offline narrator's
 * replies share most of their sentences (3,690 replies of the corpus: 44,308 sentences, 1,480
 * different), and tagging is most of a check. compromise tags a sentence alone as it does within
 * its reply (the same tags for every sentence of those replies), so the faults are the same.
 */
export function createReplyChecker(english: English): ReplyChecker {
  const known = new Map<string, ReplyFault[]>();
  const faultsOf = (sentence: string) => {
    let faults = known.get(sentence);
    if (!faults) {
      faults = (english(sentence).docs as unknown as Term[][]).flatMap((terms) => sentenceFaults(english, terms));
      known.set(sentence, faults);
    }
    return faults;
  };
  return {
    check(reply) {
      const faults: ReplyFault[] = [];
      // Quoted speech is the player's own words: left out of every rule.
      const narration = reply.replace(/["“][^"“”]*["”]/g, ' ');
      for (const match of narration.matchAll(/\b(I|I'm|I've|I'll|I'd|[Mm]y|[Mm]e|[Mm]ine|[Mm]yself)\b/g)) {
        const at = match.index ?? 0;
        faults.push({ rule: 'first-person', snippet: narration.slice(Math.max(0, at - 30), at + 30).trim() });
      }
      // Split without tagging (cheap), then each sentence tagged once.
      const sentences = (english.tokenize(narration).json() as Array<{ text: string }>).map((s) => s.text);
      for (const sentence of sentences) faults.push(...faultsOf(sentence));
      return faults;
    },
  };
}

/** One line per fault, for test failure messages. */
export function describeFaults(faults: ReplyFault[]): string {
  return faults.map((f) => `${f.rule}: “${f.snippet}”`).join('\n');
}
