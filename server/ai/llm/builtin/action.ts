// Reading a player's action as English for the offline narrator: the verb, its object noun phrase
// (without its prepositional phrases), adverbs, the destination or instrument, names and speech,
// all turned into the second person. The English comes from `compromise` (tagging, verb forms),
// loaded on the first turn that needs it so a server that never uses the offline narrator never
// pays for it. compromise tags open-class words well but guesses closed-class ones loosely ("to"
// as a conjunction, "near" as an adjective, "run" after "and" as a noun), so the structure
// (clauses, noun phrases, prepositions: ./action-grammar.ts) is decided with closed word lists
// (./action-words.ts). This module bounds and masks the input, turns it into the second person
// and assembles the reading.
import type { ActionClause, ActionReading, English } from './action-types';
import { readSentence, type SentenceReading } from './action-grammar';
import {
  DETERMINERS,
  isAdverb,
  isName,
  isNoun,
  startsPhrase,
  THING_PRONOUNS,
  trimEnd,
  wordCount,
  words,
  type Token,
  type ToPlain,
} from './action-words';

export type { ActionClause, ActionReading, English } from './action-types';

let loading: Promise<English> | undefined;
export function loadEnglish(): Promise<English> {
  loading ??= import('compromise').then((module) => module.default);
  return loading;
}

/** Only this much of an action is read: a hostile 10 000-character action costs no more than a long sentence. */
export const MAX_READ_CHARS = 400;
/** The restated action (`clause`) is cut to about this many words, at a clause boundary when it can be. */
export const MAX_CLAUSE_WORDS = 30;
/** What compromise tags: enough for two short sentences or ~45 words, well past the restated 30. */
const TAGGED_CHARS = 260;

interface RawTerm {
  text: string;
  pre: string;
  post: string;
  tags?: Set<string>;
}

interface VerbMethods {
  two: { transform: { verb: { toInfinitive: (word: string, model: object, tense: string) => string } } };
}

const PLACEHOLDER = /^qzquote(\d+)$/;

/** The first MAX_READ_CHARS characters, cut at a word boundary, whitespace collapsed. */
export function boundAction(raw: string): string {
  return cutAtWord(raw, MAX_READ_CHARS).replace(/\s+/g, ' ').trim();
}

function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  if (/\s/.test(text.charAt(max))) return head;
  const cut = head.search(/\s\S*$/);
  return cut > 0 ? head.slice(0, cut) : head;
}

export function readAction(english: English, raw: string): ActionReading {
  const bounded = boundAction(raw);
  const quotes: string[] = [];
  // Quoted speech is set aside before tagging: its words are the speaker's, never turned into the
  // second person, and a "?" inside it must not end the sentence.
  const masked = bounded
    .replace(/["“”]([^"“”]*)(["“”]|$)/g, (_m, inner: string) => {
      quotes.push(inner.trim());
      return ` qzquote${quotes.length - 1} `;
    })
    // "Let's go" is the player's own "we": it reads as "you go".
    .replace(/(^|[.!?]\s+)let(?:'s|’s| us)\s+/gi, '$1we ')
    .replace(/\s+([,;:.!?])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  const speech = quotes.length > 0 ? quotes[0].replace(/,$/, '') : null;
  // Tagging is most of the cost (about 6 µs a character) and only the first ~30 words are
  // restated, so compromise sees the first TAGGED_CHARS characters of the masked text.
  const sentences = tokenize(english, cutAtWord(masked, TAGGED_CHARS), quotes);
  if (!sentences.flat().some((t) => !t.quote && /[a-z0-9]/i.test(t.text))) {
    const said = speech ?? '';
    const clause = said ? `you say, "${said}"` : 'you wait';
    const main = emptyClause(said ? 'say' : 'wait', clause);
    return { clause, clauses: [main], main, names: [], things: [], speech, question: /\?$/.test(said) };
  }
  const toPlain: ToPlain = (word, tense) => {
    const methods = english.methods() as VerbMethods;
    return methods.two.transform.verb.toInfinitive(word, english.model(), tense) || word;
  };
  secondPerson(sentences, toPlain);

  const chosen = sentences.slice(0, 2);
  const parsed = chosen.map((sentence, n) => readSentence(sentence, n, toPlain));
  const { clause, count } = restate(parsed, MAX_CLAUSE_WORDS);
  const clauses = parsed
    .flatMap((p) => p.clauses)
    .slice(0, Math.max(1, count))
    .map((c) => c.clause);
  const withVerb = clauses.filter((c) => c.verb);
  const main = [...withVerb].reverse().find((c) => c.subject === 'you') ?? withVerb.at(-1) ?? clauses[0];
  const asking = clauses.some(
    (c) =>
      /^(ask|wonder|inquire|enquire)\b/.test(c.verb) &&
      /\b(what|where|when|why|who|how|which|whether|if)\b/.test(c.text),
  );
  const question = asking || parsed.some((p) => p.question) || /\?$/.test(speech ?? '');
  const direct = parsed.find((p) => p.direct)?.direct;
  const tokens = chosen.flat();
  return {
    clause,
    clauses,
    main,
    names: namesOf(tokens),
    things: thingsOf(tokens, clauses),
    speech: speech ?? direct ?? null,
    question,
  };
}

function emptyClause(verb: string, text: string): ActionClause {
  return {
    verb,
    object: '',
    objectHead: '',
    adverbs: [],
    destination: '',
    text,
    subject: 'you',
    objectPronoun: '',
    negated: false,
  };
}

function tokenize(english: English, masked: string, quotes: string[]): Token[][] {
  const docs = english(masked).docs as unknown as RawTerm[][];
  return docs
    .map((terms) => {
      const tokens: Token[] = [];
      for (const term of terms) {
        const previous = tokens.at(-1);
        // A contraction's second half ("I'm" → "I" + "am") has no text of its own: fold it into the first.
        if (!term.text && previous) {
          for (const tag of term.tags ?? []) previous.tags.add(tag);
          previous.post += term.post;
          continue;
        }
        // "half-empty" is one word, tagged as its last part.
        if (previous && !previous.quote && /^[-‐]$/.test(previous.post) && term.text && !PLACEHOLDER.test(term.text)) {
          previous.text = previous.out = `${previous.text}-${term.text}`;
          previous.lower = previous.text.toLowerCase();
          previous.tags = new Set(term.tags);
          previous.post = term.post.replace(/\s+/g, ' ');
          continue;
        }
        const hole = PLACEHOLDER.exec(term.text);
        const quote = hole ? `"${quotes[Number(hole[1])] ?? ''}"` : '';
        const text = quote || term.text;
        tokens.push({
          text,
          lower: quote ? '' : term.text.toLowerCase().replace(/’/g, "'"),
          tags: quote ? new Set(['Quote']) : new Set(term.tags),
          post: term.post.replace(/\s+/g, ' '),
          pre: term.pre.replace(/\s+/g, ' '),
          quote,
          first: tokens.length === 0,
          out: text,
        });
      }
      return tokens;
    })
    .filter((tokens) => tokens.length > 0);
}

const FIRST_PERSON: Record<string, string> = {
  i: 'you',
  me: 'you',
  my: 'your',
  mine: 'yours',
  myself: 'yourself',
  we: 'you',
  us: 'you',
  our: 'your',
  ours: 'yours',
  ourselves: 'yourselves',
  "i'm": "you're",
  "i've": "you've",
  "i'll": "you'll",
  "i'd": "you'd",
  "we're": "you're",
  "we've": "you've",
  "we'll": "you'll",
  "we'd": "you'd",
  am: 'are',
  "ain't": "aren't",
};
const THIRD_PERSON: Record<string, string> = {
  he: 'you',
  she: 'you',
  him: 'you',
  his: 'your',
  himself: 'yourself',
  herself: 'yourself',
  "he's": "you're",
  "she's": "you're",
  "he'll": "you'll",
  "she'll": "you'll",
  "he'd": "you'd",
  "she'd": "you'd",
};
const AGREEMENT: Record<string, string> = {
  is: 'are',
  was: 'were',
  has: 'have',
  does: 'do',
  "doesn't": "don't",
  "isn't": "aren't",
  "wasn't": "weren't",
  "hasn't": "haven't",
};

/**
 * Turns the action into the second person in place (`out`). First-person words become "you";
 * an action told of "she"/"he" with no "I" anywhere is the player's character told in the third
 * person, so that pronoun becomes "you" and its verb agrees. Quoted words are never touched.
 */
function secondPerson(sentences: Token[][], toPlain: ToPlain): void {
  const all = sentences.flat();
  const firstPerson = all.some((t) => t.lower in FIRST_PERSON && t.lower !== 'am');
  const opener = all.find((t) => !t.quote && !isAdverb(t))?.lower ?? '';
  const third = !firstPerson && (opener === 'she' || opener === 'he') ? opener : '';
  for (const sentence of sentences) {
    sentence.forEach((t, i) => {
      const previous = sentence[i - 1];
      const next = sentence[i + 1];
      let out: string | undefined;
      if (t.quote) return;
      if (t.lower === 'mine' && previous && (DETERMINERS.has(previous.lower) || previous.tags.has('Adjective'))) return;
      if (t.text === 'US') return;
      if (firstPerson) {
        out = FIRST_PERSON[t.lower];
        if (t.lower === 'was' && (previous?.lower === 'i' || next?.lower === 'i')) out = 'were';
      } else if (third) {
        const mine =
          third === 'she'
            ? ['she', 'her', 'herself', "she's", "she'll", "she'd"]
            : ['he', 'him', 'his', 'himself', "he's", "he'll", "he'd"];
        if (t.lower === 'her' && third === 'she') out = next && startsPhrase(next) ? 'your' : 'you';
        else if (mine.includes(t.lower)) out = THIRD_PERSON[t.lower];
        const subject = [previous, sentence[i - 2]].find((p) => p && !isAdverb(p));
        // The verb right after the converted subject, or after "and" in its predicate, agrees with "you".
        const joined = previous && ['and', 'then', 'or'].includes(previous.lower) && t.tags.has('Verb');
        if (((subject && subject.lower === third) || joined) && !out) out = agree(t, toPlain);
      }
      if (out === undefined) return;
      const capital = t.first && sentence !== sentences[0] ? out.charAt(0).toUpperCase() + out.slice(1) : out;
      t.out = t.first && sentence === sentences[0] ? out : capital;
    });
  }
}

function agree(t: Token, toPlain: ToPlain): string | undefined {
  if (t.lower in AGREEMENT) return AGREEMENT[t.lower];
  if (/[^s]s$/.test(t.lower) && (t.tags.has('PresentTense') || t.tags.has('Plural')))
    return toPlain(t.lower, 'PresentTense');
  return undefined;
}

/** Proper names, as written, consecutive capitalised words joined ("Queen Ilse"). */
function namesOf(tokens: Token[]): string[] {
  const names: string[] = [];
  // Shouting in capitals makes every word look like a name: then only compromise's own names count.
  const letters = tokens.map((t) => t.text).join('');
  const shouting = (letters.match(/[A-Z]/g) ?? []).length > 0.6 * (letters.match(/[a-z]/gi) ?? []).length;
  let run: string[] = [];
  const flush = () => {
    if (run.length > 0 && !names.includes(run.join(' '))) names.push(run.join(' '));
    run = [];
  };
  for (const t of tokens) {
    const name = shouting ? !t.quote && t.tags.has('ProperNoun') && /^[A-Z]/.test(t.text) : isName(t);
    if (name) run.push(t.text.replace(/['’]s$/, ''));
    else flush();
    if (name && /[^\s]/.test(t.post)) flush();
  }
  flush();
  return names;
}

/** Head nouns, lower-case: the last noun of each run of nouns, outside speech and names. */
function thingsOf(tokens: Token[], clauses: ActionClause[]): string[] {
  const verbs = new Set(clauses.flatMap((c) => c.verb.split(' ')));
  const things: string[] = [];
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    if (!isNoun(t) || isName(t) || verbs.has(t.lower)) return;
    if (isNoun(next) && !isName(next) && !/[^\s]/.test(t.post)) return;
    const thing = t.lower.replace(/['’]s$/, '');
    if (/^[a-z][a-z'-]*$/.test(thing) && !things.includes(thing)) things.push(thing);
  });
  for (const c of clauses)
    if (
      c.objectHead &&
      !THING_PRONOUNS.has(c.objectHead) &&
      !isNameText(c.objectHead, tokens) &&
      !things.includes(c.objectHead) &&
      /^[a-z]/.test(c.objectHead)
    )
      things.push(c.objectHead);
  return things;
}

const isNameText = (text: string, tokens: Token[]) => tokens.some((t) => t.text === text && isName(t));

/** The action's sentence body: the chosen sentences' clauses, cut to MAX words at a clause boundary when it can be. */
function restate(sentences: SentenceReading[], max: number): { clause: string; count: number } {
  let body = '';
  let words = 0;
  let count = 0;
  for (const sentence of sentences) {
    for (const reading of sentence.clauses) {
      const w = wordCount(reading.restated);
      if (words + w > max) {
        if (count === 0) body = cutWords(reading.restated, max);
        if (count === 0) count = 1;
        return { clause: trimEnd(body), count };
      }
      body += reading.restated;
      words += w;
      count += 1;
    }
    if (!/\s$/.test(body)) body += ' ';
  }
  return { clause: trimEnd(body), count };
}

const DANGLING = words(
  'the a an my your his her their its our and or but then to of with into onto at in on from by for',
);
function cutWords(text: string, max: number): string {
  const kept = text.split(/\s+/).filter(Boolean).slice(0, max);
  while (kept.length > 1 && DANGLING.has(kept[kept.length - 1].toLowerCase().replace(/[^a-z]/g, ''))) kept.pop();
  let cut = kept.join(' ');
  // A cut inside quoted speech closes the quote.
  if ((cut.match(/"/g) ?? []).length % 2 === 1) cut = `${trimEnd(cut)}…"`;
  return cut;
}
