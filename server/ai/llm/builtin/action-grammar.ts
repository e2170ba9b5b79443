// The clause grammar behind readAction (./action.ts): given one sentence of an action, tagged by
// compromise and already turned into the second person, it splits the clauses and finds each
// one's subject, verb (with particle), object noun phrase, destination and adverbs. compromise
// tags open-class words well but closed-class ones loosely ("to" as a conjunction, "near" as an
// adjective, "run" after "and" as a noun), so the structure is decided here with closed word lists.
import type { ActionClause } from './action-types';
import {
  CONNECTORS,
  INTERJECTIONS,
  PREPOSITIONS,
  COMPOUND_PREPOSITIONS,
  PARTICLES,
  SUBJECTS,
  OBJECT_PRONOUNS,
  THING_PRONOUNS,
  BE,
  WH,
  QUESTION_OPENERS,
  CHAIN_VERBS,
  GIVE_VERBS,
  INTRANSITIVE,
  QUIET_ADVERBS,
  INTENSIFIERS,
  END_PUNCT,
  isNoun,
  isAdverb,
  isName,
  isDeterminer,
  POSSESSIVE_PRONOUN,
  isAux,
  closed,
  startsPhrase,
  render,
  trimEnd,
  type Token,
  type ToPlain,
} from './action-words';

interface Phrase {
  start: number;
  end: number;
  head: number;
}

/** The noun phrase starting at k, without prepositional phrases except one "of" phrase ("a glass of wine"). */
export function nounPhrase(tokens: Token[], k: number, end: number, withOf = true): Phrase | null {
  let head = -1;
  let i = k;
  for (; i < end; i += 1) {
    const t = tokens[i];
    const next = tokens[i + 1];
    if (t.quote || CONNECTORS.has(t.lower) || (WH.has(t.lower) && !isDeterminer(t))) break;
    if (PREPOSITIONS.has(t.lower) || PARTICLES.has(t.lower)) {
      // "the back door": a particle between a determiner and a noun modifies the noun.
      if (!(i > k && head < 0 && isNoun(next) && !END_PUNCT.test(t.post))) break;
    } else if (t.tags.has('Possessive') && !POSSESSIVE_PRONOUN(t) && !t.tags.has('Pronoun')) {
      // "Captain Reyes's pistol": a possessive name or noun opens the phrase whose head follows.
      if (!startsPhrase(next)) break;
      head = -1;
    } else if (isDeterminer(t) && !(POSSESSIVE_PRONOUN(t) && t.lower === 'her' && !startsPhrase(next))) {
      if (head >= 0 || !startsPhrase(next) || END_PUNCT.test(t.post)) break;
      if (isDeterminer(next) && !['all', 'both', 'half'].includes(t.lower)) break;
    } else if (t.tags.has('Value') || /^\d/.test(t.lower)) {
      if (head >= 0) break;
    } else if (INTENSIFIERS.has(t.lower) && next?.tags.has('Adjective')) {
      if (head >= 0) break;
    } else if (
      isNoun(t) ||
      ((t.tags.has('Verb') || t.tags.has('Adjective')) && i > k && isNoun(next) === false && modifies(tokens, i, k))
    ) {
      if (t.tags.has('Pronoun')) break;
      head = i;
    } else if (t.tags.has('Adjective') && !t.tags.has('Adverb')) {
      if (head >= 0) break;
    } else break;
    if (END_PUNCT.test(t.post)) {
      i += 1;
      break;
    }
  }
  if (head < 0) return null;
  let stop = head + 1;
  // "the sword and shield", "the bread and the cheese": one noun joined by "and", unless a verb follows.
  const join = tokens[stop];
  if (withOf && join && (join.lower === 'and' || join.lower === 'or') && !END_PUNCT.test(tokens[head].post)) {
    const other = predicateAt(tokens, stop + 1, end) ? null : nounPhrase(tokens, stop + 1, end, false);
    if (other && !tokens.slice(other.start, other.end).some((o) => o.tags.has('Pronoun'))) stop = other.end;
  }
  if (withOf && tokens[stop]?.lower === 'of' && !END_PUNCT.test(tokens[head].post)) {
    const of = nounPhrase(tokens, stop + 1, end, false);
    if (of) stop = of.end;
  }
  return { start: k, end: stop, head };
}

/** A verb or adjective right after a determiner or adjective, ending its phrase, is the head noun ("the building", "the wounded"). */
function modifies(tokens: Token[], i: number, k: number): boolean {
  const before = tokens[i - 1];
  return i > k && (isDeterminer(before) || before.tags.has('Adjective') || before.tags.has('Value'));
}

/** Could token k start a coordinated predicate ("and run", ", step forward", "and I run")? */
function predicateAt(tokens: Token[], k: number, end: number): boolean {
  while (k < end && (isAdverb(tokens[k]) || tokens[k].lower === 'then')) k += 1;
  const t = tokens[k];
  if (!t || t.quote) return false;
  if (SUBJECTS.has(t.lower)) return k + 1 < end || t.lower.includes("'");
  if (closed(t) || t.tags.has('Gerund') || t.tags.has('Adjective') || (isName(t) && !t.first)) return false;
  if (t.tags.has('Verb') || INTRANSITIVE.has(t.lower)) return true;
  const next = tokens[k + 1];
  return (
    isNoun(t) &&
    !t.tags.has('Plural') &&
    !!next &&
    (isDeterminer(next) || PARTICLES.has(next.lower) || PREPOSITIONS.has(next.lower))
  );
}

/** Index of the first word of the clause's verb group (an auxiliary or the verb), or -1. */
function findVerb(tokens: Token[], from: number, end: number, sentenceEnd = end): number {
  let content = 0;
  let afterSubject = false;
  for (let k = from; k < end; k += 1) {
    const t = tokens[k];
    if (t.quote || isAdverb(t) || (CONNECTORS.has(t.lower) && content === 0)) continue;
    if (SUBJECTS.has(t.lower)) {
      // "I'm hiding": the contraction is its own verb group's first word.
      if (t.lower.includes("'")) return k;
      afterSubject = true;
      content += 1;
      continue;
    }
    if (afterSubject && !closed(t)) return k;
    afterSubject = false;
    const before = tokens[k - 1];
    const modified = !!before && (isDeterminer(before) || before.tags.has('Adjective'));
    if (!modified && !t.tags.has('Gerund') && (t.tags.has('Verb') || isAux(t)) && !closed(t)) return k;
    // A first word compromise calls a noun is an imperative verb ("step forward") only when no
    // subject follows in the sentence ("Sword in hand, I advance").
    const rest = tokens.slice(k + 1, sentenceEnd);
    const clauseEnd = rest.findIndex((s) => CONNECTORS.has(s.lower));
    const subjectLater = rest.slice(0, clauseEnd < 0 ? rest.length : clauseEnd).some((s) => SUBJECTS.has(s.lower));
    if (content === 0 && !closed(t) && !isName(t) && !subjectLater && predicateAt(tokens, k, end)) return k;
    const lone = !t.tags.has('Adjective') && !t.tags.has('Expression') && !THING_PRONOUNS.has(t.lower);
    if (content === 0 && !closed(t) && !isName(t) && k === end - 1 && lone && !INTERJECTIONS.has(t.lower)) return k;
    content += 1;
  }
  return -1;
}

export interface ClauseReading {
  clause: ActionClause;
  /** The clause as restated in the action's sentence body (with its connector, "you" added to an imperative). */
  restated: string;
}

export interface SentenceReading {
  clauses: ClauseReading[];
  question: boolean;
  /** The sentence itself when it is a direct question ("Where is the key?"). */
  direct?: string;
}

/** Reads one sentence (n: its place in the action) into clauses. */
export function readSentence(tokens: Token[], n: number, toPlain: ToPlain): SentenceReading {
  const last = tokens.at(-1);
  const asks = !!last && last.post.includes('?');
  const opener = tokens.find((t) => !t.quote);
  const second = tokens[1];
  // "Mara, open the gate!" and a lone "Yes" are said, not done: they read as speech, like a direct question.
  const vocative =
    !!opener &&
    opener === tokens[0] &&
    (isName(opener) || isNoun(opener)) &&
    /,/.test(opener.post) &&
    !!second &&
    !second.quote &&
    (second.tags.has('Verb') || INTRANSITIVE.has(second.lower)) &&
    !SUBJECTS.has(second.lower);
  const interjection = tokens.every((t) => t.quote || INTERJECTIONS.has(t.lower) || t.tags.has('Expression'));
  const question = asks && !!opener && QUESTION_OPENERS.has(opener.lower) && opener === tokens[0];
  if (question || vocative || interjection) {
    const direct = tokens
      .map((t) => `${t.pre}${t.text}${t.post}`)
      .join('')
      .trim();
    const verb = question ? 'ask' : 'say';
    const text = `you ${verb}, "${direct}"`;
    const clause: ActionClause = { ...blank(), verb, text };
    const restated = n > 0 ? `You ${verb}, "${direct}" ` : `${text} `;
    return { clauses: [{ clause, restated }], question: asks, direct };
  }
  const spans: Array<[number, number]> = [];
  let start = 0;
  for (let i = 1; i < tokens.length; i += 1) {
    const t = tokens[i];
    const afterComma = /[,;]/.test(tokens[i - 1].post);
    if (!(CONNECTORS.has(t.lower) || afterComma) || t.quote) continue;
    const k = CONNECTORS.has(t.lower) ? i + 1 : i;
    if (findVerb(tokens, start, i, tokens.length) >= 0 && predicateAt(tokens, k, tokens.length)) {
      spans.push([start, i]);
      start = i;
    }
  }
  spans.push([start, tokens.length]);
  const clauses = spans.map(([from, to], j) => readClause(tokens, from, to, j === 0, n, toPlain));
  return { clauses, question: asks };
}

function blank(): ActionClause {
  return {
    verb: '',
    object: '',
    objectHead: '',
    adverbs: [],
    destination: '',
    text: '',
    subject: 'you',
    objectPronoun: '',
    negated: false,
  };
}

const lowerFirst = (t: Token, text: string) =>
  isName(t) || /^[A-Z]{2,}\b/.test(text) ? text : text.charAt(0).toLowerCase() + text.slice(1);
const phraseText = (tokens: Token[], p: Phrase) => trimEnd(render(tokens.slice(p.start, p.end)));

function readClause(
  tokens: Token[],
  from: number,
  to: number,
  leads: boolean,
  n: number,
  toPlain: ToPlain,
): ClauseReading {
  const clause = blank();
  let body = from;
  while (body < to - 1 && (CONNECTORS.has(tokens[body].lower) || tokens[body].lower === 'then')) body += 1;
  const v = findVerb(tokens, body, to);
  const used = new Set<number>();
  let insertAt = -1;
  if (v >= 0) {
    clause.subject = subjectOf(tokens, body, v);
    if (!clause.subject) {
      clause.subject = 'you';
      insertAt = v;
      while (insertAt > body && isAdverb(tokens[insertAt - 1])) insertAt -= 1;
    }
    readPredicate(tokens, v, to, clause, used, toPlain);
  }
  for (let k = body; k < to; k += 1) {
    const t = tokens[k];
    if (!used.has(k) && isAdverb(t) && !QUIET_ADVERBS.has(t.lower)) clause.adverbs.push(t.out.toLowerCase());
  }
  const piece = (withLead: boolean, capital: boolean) => {
    const slice = tokens.slice(withLead ? from : body, to).map((t) => ({ ...t }));
    const at = insertAt - (withLead ? from : body);
    if (slice[0] && !capital) slice[0] = { ...slice[0], out: lowerFirst(slice[0], slice[0].out) };
    if (at >= 0 && (!withLead || leads)) {
      const adverb = slice[at];
      if (adverb.first || at === 0) adverb.out = lowerFirst(adverb, adverb.out);
      const lastAdverb = slice[v - (withLead ? from : body) - 1];
      if (lastAdverb && isAdverb(lastAdverb)) lastAdverb.post = lastAdverb.post.replace(/^[,;]\s*/, ' ');
      slice.splice(at, 0, {
        ...adverb,
        out: capital && at === 0 ? 'You' : 'you',
        post: ' ',
        pre: adverb.pre,
        quote: '',
      });
      slice[at + 1] = { ...slice[at + 1], pre: '' };
    }
    return render(slice);
  };
  clause.text = trimEnd(piece(false, false));
  const restated = piece(true, n > 0 && leads);
  return { clause, restated: leads && n === 0 ? lowerFirstText(restated) : restated };
}

const lowerFirstText = (text: string) =>
  /^(you|your)\b/i.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;

/** The subject before the verb group: "you" for the player, a name or noun phrase as written, '' for none. */
function subjectOf(tokens: Token[], body: number, v: number): string {
  const group = tokens[v];
  if (SUBJECTS.has(group.lower)) return group.out.toLowerCase().startsWith('you') ? 'you' : group.out.split("'")[0];
  let k = v - 1;
  while (k >= body && isAdverb(tokens[k])) k -= 1;
  const t = tokens[k];
  if (!t || k < body || END_PUNCT.test(t.post)) return '';
  if (SUBJECTS.has(t.lower)) return t.out.toLowerCase() === 'you' ? 'you' : t.out;
  if (!isNoun(t)) return '';
  let s = k;
  while (s > body && (isNoun(tokens[s - 1]) || isDeterminer(tokens[s - 1]) || tokens[s - 1].tags.has('Adjective')))
    s -= 1;
  if (s > body && PREPOSITIONS.has(tokens[s - 1].lower)) return '';
  return trimEnd(render(tokens.slice(s, k + 1)));
}

function plainVerb(t: Token, toPlain: ToPlain): string {
  const lower = t.lower.replace(/'.*$/, '');
  if (BE.has(t.lower) || BE.has(lower)) return 'be';
  if (['has', 'have', 'had'].includes(lower)) return 'have';
  if (['do', 'does', 'did'].includes(lower)) return 'do';
  const out = t.out === t.text ? t.lower : t.out.toLowerCase();
  if (t.tags.has('Gerund')) return toPlain(out, 'Gerund');
  if (t.tags.has('PastTense') || t.tags.has('Participle')) return toPlain(out, 'PastTense');
  if (/[^s]s$/.test(out) && !t.tags.has('Infinitive') && (t.tags.has('PresentTense') || t.tags.has('Plural')))
    return toPlain(out, 'PresentTense');
  return out;
}

/** The verb group from v: auxiliaries, the verb, a particle, the object and the first destination. */
function readPredicate(
  tokens: Token[],
  v: number,
  to: number,
  clause: ActionClause,
  used: Set<number>,
  toPlain: ToPlain,
) {
  let m = v;
  for (;;) {
    const t = tokens[m];
    if (t.tags.has('Negative') || /n't$/.test(t.lower)) clause.negated = true;
    if (!isAux(t) && !SUBJECTS.has(t.lower)) break;
    let n = m + 1;
    while (n < to && (isAdverb(tokens[n]) || tokens[n].lower === 'not' || tokens[n].lower === 'never')) {
      if (tokens[n].lower === 'not' || tokens[n].lower === 'never') clause.negated = true;
      n += 1;
    }
    const next = tokens[n];
    const modal =
      t.tags.has('Modal') ||
      /^(do|does|did|don't|doesn't|didn't|will|would|can|could|shall|should|may|might|must)/.test(t.lower);
    if (n < to && !next.quote && !closed(next) && (next.tags.has('Verb') || (modal && !next.tags.has('Adjective'))))
      m = n;
    else break;
  }
  let verb = plainVerb(tokens[m], toPlain);
  const after = tokens[m + 1];
  if (CHAIN_VERBS.has(verb) && after?.lower === 'to' && m + 2 < to && !closed(tokens[m + 2]) && !tokens[m + 2].quote) {
    m += 2;
    verb = `${verb} to ${plainVerb(tokens[m], toPlain)}`;
  } else if (CHAIN_VERBS.has(verb) && after?.tags.has('Gerund')) {
    m += 1;
    verb = `${verb} ${after.lower}`;
  }
  let r = m + 1;
  const particle = tokens[r];
  const compound =
    particle &&
    COMPOUND_PREPOSITIONS.some(
      (c) => c[0] === particle.lower && tokens[r + 1]?.lower === c[1] && c[1] !== 'to' && c[1] !== 'into',
    );
  if (
    particle &&
    !particle.quote &&
    !compound &&
    (particle.tags.has('Particle') ||
      (PARTICLES.has(particle.lower) && !(PREPOSITIONS.has(particle.lower) && startsPhrase(tokens[r + 1])))) &&
    !WH.has(tokens[r + 1]?.lower ?? '')
  ) {
    verb = `${verb} ${particle.lower}`;
    used.add(r);
    r += 1;
  }
  clause.verb = verb;
  // The object: skip adverbs and quoted speech (what is said is never the thing acted on).
  while (r < to && (isAdverb(tokens[r]) || tokens[r].quote)) r += 1;
  let recipient = '';
  const t = tokens[r];
  const afterHer = tokens[r + 1];
  if (t && OBJECT_PRONOUNS.has(t.lower) && !(t.lower === 'her' && startsPhrase(afterHer) && !isDeterminer(afterHer))) {
    clause.objectPronoun = t.out;
    recipient = t.out;
    r += 1;
  }
  const np = nounPhrase(tokens, r, to);
  if (np) {
    const second = GIVE_VERBS.has(verb) && !recipient ? nounPhrase(tokens, np.end, to) : null;
    const object = second ?? np;
    if (second) recipient = phraseText(tokens, np);
    clause.object = phraseText(tokens, object);
    const head = tokens[object.head];
    clause.objectHead = isName(head) ? head.text.replace(/['’]s$/, '') : head.out.toLowerCase().replace(/['’]s$/, '');
    r = object.end;
    if (second || (GIVE_VERBS.has(verb) && recipient)) clause.destination = `to ${recipient}`;
    if (clause.objectPronoun && GIVE_VERBS.has(verb)) clause.objectPronoun = '';
  } else if (t && THING_PRONOUNS.has(t.lower) && !recipient) {
    clause.object = t.out;
    clause.objectHead = t.out.toLowerCase();
    r += 1;
  }
  const late = tokens[r];
  if (clause.object && late && PARTICLES.has(late.lower) && !startsPhrase(tokens[r + 1]) && !compoundAt(tokens, r)) {
    clause.verb = `${clause.verb} ${late.lower}`;
    used.add(r);
    r += 1;
  }
  if (!clause.destination) clause.destination = destination(tokens, r, to);
}

function compoundAt(tokens: Token[], r: number): string[] | undefined {
  return COMPOUND_PREPOSITIONS.find((c) => c.every((w, j) => tokens[r + j]?.lower === w));
}

/** The first prepositional phrase from r with a noun phrase after it, stopping at an embedded clause. */
function destination(tokens: Token[], r: number, to: number): string {
  for (let q = r; q < to; q += 1) {
    const t = tokens[q];
    if (t.quote || isAdverb(t)) continue;
    if (WH.has(t.lower) || SUBJECTS.has(t.lower)) return '';
    const compound = compoundAt(tokens, q);
    const width = compound ? compound.length : PREPOSITIONS.has(t.lower) ? 1 : 0;
    if (width === 0) continue;
    const np = nounPhrase(tokens, q + width, to);
    if (np) return trimEnd(render(tokens.slice(q, np.end))).replace(/^\S+/, (w) => w.toLowerCase());
    const pronoun = tokens[q + width];
    if (
      pronoun &&
      (OBJECT_PRONOUNS.has(pronoun.lower) || THING_PRONOUNS.has(pronoun.lower)) &&
      !startsPhrase(tokens[q + width + 1])
    )
      return trimEnd(render(tokens.slice(q, q + width + 1))).replace(/^\S+/, (w) => w.toLowerCase());
    q += width - 1;
  }
  return '';
}
