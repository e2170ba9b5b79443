// What the offline narrator remembers: the premise's anchors (its city, its setting, the people and
// names in it) and the threads of the last few actions (what the player took or used, whom they
// named). Both are read once per distinct text and cached, so a reply stays within its time budget.
import type nlp from 'compromise';
import { scenarioOf } from '@shared/prompt/genre-mix';
import { BoundedCache } from '@server/kernel/bounded-cache';
import { readAction, type ActionReading, type English } from '../action';
import type { TurnRecord } from '../../types';
import { capital } from './types';

export interface PremiseAnchors {
  /** A proper place the premise names ("Paris", "Waterloo"), or ''. */
  city: string;
  /** The premise's own setting with its determiner ("the bakery", "the night market"), or ''. */
  setting: string;
  /** Someone the premise puts beside the player ("the florist", "Ada Quill", "the Duke of Wellington"). */
  people: string[];
  /** Other singular things the premise mentions ("the door"), for continuity. */
  things: string[];
}

/** Head nouns that name a place a story can start in; compromise tags cities, not bakeries. */
const SETTING_NOUNS = new Set(
  (
    'bakery shop store cafe café market bazaar city town village island lighthouse station ship starship ' +
    'castle palace tower fortress keep manor mansion house cottage inn tavern saloon hotel school academy ' +
    'library museum hospital church cathedral chapel abbey monastery temple shrine forest wood woods jungle ' +
    'desert canyon valley mountain harbour harbor port dock camp base colony outpost bunker shelter ruin ' +
    'ruins wasteland kingdom empire realm office factory farm ranch garden park street alley square ' +
    'restaurant kitchen bar club theatre theater studio ballroom court courtroom embassy prison jail mine ' +
    'cave cavern swamp marsh river lake sea ocean beach coast cliff plain prairie frontier asylum orphanage ' +
    'crypt cemetery graveyard cellar attic laboratory lab vessel freighter carriage train plane airport ' +
    'battlefield front trench fort settlement convoy metropolis megacity planet moon asteroid farmhouse ' +
    'apartment flat hall estate vineyard bookshop bookstore boutique salon diner pub motel resort casino spa ' +
    'spaceship submarine citadel stronghold hamlet orchard meadow greenhouse workshop bakehouse patisserie'
  ).split(' '),
);

type Nlp = typeof nlp;
type Term = { text: string; tags: string[] };

const has = (term: Term, tag: string) => term.tags.includes(tag);
const words = (terms: Term[]) =>
  terms
    .map((t) => t.text.replace(/[^\p{L}\p{N}'-]/gu, ''))
    .filter(Boolean)
    .join(' ');

/** "kingdom of Eldmoor" reads as "the kingdom of Eldmoor"; "Paris" stays as it is. */
const properPlace = (place: string) => (/^\p{Ll}/u.test(place) ? `the ${place}` : place);

/** Words that put the story in or at a place named next: "in Paris", "before Waterloo". */
const PLACE_PREPOSITIONS = new Set(
  'in at near outside inside to towards toward through across around before beyond under into within'.split(' '),
);

/**
 * Whether the name at `at` of a phrase's terms is where the story is: after "of" only a setting's
 * ("the kingdom of Eldmoor", not "heir of House Vex"), never after "from" ("out from Earth"); and a
 * name compromise does not know as a place only after a place's preposition ("before Waterloo").
 */
function placeIntroduced(terms: Term[], at: number, before: string | undefined): boolean {
  const previous = at > 0 ? terms[at - 1].text.toLowerCase() : before;
  if (previous === 'of') return at > 1 && SETTING_NOUNS.has(terms[at - 2].text.toLowerCase());
  if (previous === 'from') return false;
  return has(terms[at], 'Place') || (previous !== undefined && PLACE_PREPOSITIONS.has(previous));
}

/**
 * Only the premise's first sentence is read, and at most this much of it: tagging costs about
 * 0.2 ms per word, and a hostile 4,000-character sentence took 700 ms (a premise is read once per
 * story and cached, but every new story would pay it).
 */
const PREMISE_READ_CHARS = 300;

function firstSentence(text: string): string {
  const sentence = (/^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text).trim();
  if (sentence.length <= PREMISE_READ_CHARS) return sentence;
  const cut = sentence.slice(0, PREMISE_READ_CHARS);
  return cut.slice(0, Math.max(cut.lastIndexOf(' '), 1)).trim();
}

function readPremise(english: English, premise: string): PremiseAnchors {
  const anchors: PremiseAnchors = { city: '', setting: '', people: [], things: [] };
  const sentence = firstSentence(scenarioOf(premise.slice(0, PREMISE_READ_CHARS * 4)));
  if (!sentence) return anchors;
  const doc = (english as unknown as Nlp)(sentence);
  const phrases = doc.nouns().json() as Array<{ text: string; terms: Term[] }>;
  let selfAt = -2;
  // "A lighthouse keeper", "the tavern's cook": the place a role belongs to, where the story stands
  // when the premise names no setting of its own.
  let roleSetting = '';
  phrases.forEach((phrase, index) => {
    const all = phrase.terms;
    if (all.length === 0 || has(all[0], 'Pronoun')) return;
    const lead = sentence.slice(0, sentence.indexOf(phrase.text)).trim().toLowerCase().split(/\s+/);
    const before = lead.at(-1);
    // "I am Captain Imani Reyes", "my name is Wren", and what follows it ("I am Wren, a young
    // cartographer"): the player, not someone they meet.
    const namesPlayer =
      before === 'am' || before === "i'm" || before === 'i’m' || lead.slice(-2).join(' ') === 'name is';
    if (namesPlayer) selfAt = index;
    const isPlayer = namesPlayer || (selfAt === index - 1 && Boolean(before?.endsWith(',')));
    // "the Duke of Wellington": a titled person, kept whole with its article; "the Glass Citadel"
    // is a named place the story can stand in.
    if (has(all[0], 'Determiner') && all[1] && has(all[1], 'ProperNoun') && !has(all[1], 'Place')) {
      const named = `the ${words(all.slice(1))}`;
      if (SETTING_NOUNS.has(named.split(' ').at(-1)!.toLowerCase())) anchors.setting ||= named;
      else if (!isPlayer) anchors.people.push(named);
      return;
    }
    const cut = all.findIndex((t) => has(t, 'Preposition'));
    const terms = (cut >= 0 ? all.slice(0, cut) : all).filter(
      (t) => !has(t, 'Determiner') && !has(t, 'Value') && !has(t, 'Date'),
    );
    const placeAt = all.findIndex((t) => has(t, 'Place'));
    // Only a place the story is in, at or heading to ("in Paris", "before Waterloo", "the kingdom
    // of Eldmoor"): not one left behind ("out from Earth"), nor a house one is heir of.
    if (placeAt >= 0 && !anchors.city && placeIntroduced(all, placeAt, before))
      anchors.city = properPlace(words(all.slice(placeAt).filter((t) => has(t, 'Place'))));
    if (isPlayer) return;
    if (terms.length === 0 || terms.some((t) => has(t, 'Place'))) return;
    if (terms.some((t) => has(t, 'Person'))) return void anchors.people.push(words(terms));
    if (terms.some((t) => has(t, 'ProperNoun'))) {
      // A name compromise does not know: a place after a place's preposition ("before Waterloo"),
      // else someone ("Lady Oriane Vex").
      if (!anchors.city && placeIntroduced(all, 0, before)) anchors.city = properPlace(words(terms));
      else if (before !== 'from' && !anchors.city.includes(words(terms))) anchors.people.push(words(terms));
      return;
    }
    // Keep the phrase up to its last noun.
    // A person's phrase ends at the person ("the florist next door" -> "florist").
    const actor = terms.findIndex((t) => has(t, 'Actor'));
    const lastNoun = actor >= 0 ? actor : terms.map((t) => has(t, 'Noun')).lastIndexOf(true);
    const kept = terms.slice(0, lastNoun + 1);
    if (kept.length === 0 || has(kept[kept.length - 1], 'Plural')) return;
    const phraseText = `the ${words(kept).toLowerCase()}`;
    const head = words(kept.slice(-1)).toLowerCase();
    // The player's own role ("A detective named…", "as a courier") is not someone else in the story.
    const isPlayerRole = index === 0 || before === 'as';
    const isPerson = kept.some((t) => has(t, 'Actor'));
    // A setting noun before a role's head ("lighthouse keeper", "tavern cook") names the role's
    // place; before a thing's ("a ship's log") it does not.
    const place = kept
      .slice(0, -1)
      .map((t) => t.text.toLowerCase().replace(/['’]s$/, ''))
      .find((word) => SETTING_NOUNS.has(word));
    if (place && !SETTING_NOUNS.has(head) && (isPerson || isPlayerRole)) roleSetting ||= `the ${place}`;
    if (isPerson) {
      if (!isPlayerRole) anchors.people.push(phraseText);
    } else if (SETTING_NOUNS.has(head) && !anchors.setting) anchors.setting = phraseText;
    else if (!isPlayerRole) anchors.things.push(phraseText);
  });
  return {
    ...anchors,
    setting: anchors.setting || roleSetting,
    people: [...new Set(anchors.people)],
    things: [...new Set(anchors.things)],
  };
}

/** Bounded caches: a long-running server meets many premises and actions. */
function cached<T>(limit: number, compute: (text: string) => T): (text: string) => T {
  const cache = new BoundedCache<string, T>(limit);
  return (text) => cache.getOrSet(text, compute);
}

let premiseCache: { english: English; read: (text: string) => PremiseAnchors } | undefined;
let actionCache: { english: English; read: (text: string) => ActionReading } | undefined;

export function premiseAnchors(english: English, premise: string): PremiseAnchors {
  if (premiseCache?.english !== english) premiseCache = { english, read: cached(256, (t) => readPremise(english, t)) };
  return premiseCache.read(premise);
}

export function readActionCached(english: English, action: string): ActionReading {
  if (actionCache?.english !== english) actionCache = { english, read: cached(1024, (t) => readAction(english, t)) };
  return actionCache.read(action);
}

/** Verbs after which the player has the object with them. */
const TAKING =
  /^(pick|take|grab|pocket|collect|steal|lift|carry|keep|buy|hold|snatch|seize|fetch|use|wield|draw|clutch|borrow)\b/;

/** "a brass key" -> "the brass key": the thing is known now. A bare noun gets "the". */
function known(object: string): string {
  if (/^(a|an)\s/i.test(object)) return object.replace(/^(a|an)\s/i, 'the ');
  if (/^(the|your|his|her|their|its|this|that)\s/i.test(object) || /^\p{Lu}/u.test(object)) return object;
  return `the ${object}`;
}

export interface Threads {
  /** Things the player took or used in the last few actions, newest first. */
  held: string[];
  /** Names from the last few actions and the premise's people, newest first. */
  names: string[];
  /** Things the last few actions touched without taking them, newest first. */
  touched: string[];
}

const RECALLED_ACTIONS = 4;

/** The threads of the last few player turns before this one (the premise itself is not a turn). */
/** Verbs after which the player no longer has the object. */
const PARTING = /^(give|hand|drop|throw|toss|sell|lose|discard|trade|surrender|abandon|return)\b/;

/** Objects that stand in for a thing named elsewhere, or for nothing in particular. */
const STAND_INS = /^(it|this|that|these|those|them|him|her|one|everything|something|anything|nothing|all)$/i;

/**
 * The threads of the last few actions before `current` (the action being answered, read only for
 * what it gives away: "I give the key to the ferryman" is not answered with "you keep the key close").
 */
export function threadsOf(english: English, premise: string, recent: TurnRecord[], current = ''): Threads {
  const threads: Threads = { held: [], names: [], touched: [] };
  const actions = recent
    .filter((turn) => turn.role === 'user' && turn.content.trim() !== premise.trim())
    .slice(-RECALLED_ACTIONS)
    .map((turn) => turn.content)
    .reverse();
  const add = (list: string[], item: string) => {
    if (item && !list.includes(item)) list.push(item);
  };
  // Newest first: a thing given away or dropped since it was taken is no longer held.
  const parted = new Set<string>();
  if (current)
    for (const clause of readActionCached(english, current).clauses)
      if (clause.objectHead && PARTING.test(clause.verb)) parted.add(clause.objectHead.toLowerCase());
  for (const action of actions) {
    const reading = readActionCached(english, action);
    for (const clause of reading.clauses) {
      // "hide it in your boot": a pronoun names nothing to bring back ("the it").
      if (!clause.object || STAND_INS.test(clause.object)) continue;
      const isName = /^\p{Lu}/u.test(clause.object);
      const head = clause.objectHead.toLowerCase();
      if (isName) add(threads.names, clause.object);
      else if (PARTING.test(clause.verb)) parted.add(head);
      else if (TAKING.test(clause.verb) && !parted.has(head)) add(threads.held, known(clause.object));
      else add(threads.touched, known(clause.object));
    }
    for (const name of reading.names) add(threads.names, name);
  }
  for (const person of premiseAnchors(english, premise).people) add(threads.names, person);
  threads.touched = threads.touched.filter((thing) => !threads.held.includes(thing));
  return threads;
}

const isPlural = (phrase: string) => /[^s]s$/.test(phrase) && !/\b(glass|compass|dress|address)$/i.test(phrase);

/**
 * The opening's line for the first thing the premise names ("finds a letter sealed with green wax"):
 * the story begins with it in mind. '' when the premise names none.
 */
export function premiseThingLine(anchors: PremiseAnchors, pick: number): string {
  const thing = anchors.things[0];
  if (!thing) return '';
  const verb = isPlural(thing) ? 'are' : 'is';
  return [
    `Your thoughts keep returning to ${thing}.`,
    `${capital(thing)} ${verb} why you are here at all.`,
    `Whatever comes next, it began with ${thing}.`,
  ][pick % 3];
}

/**
 * One sentence that brings a thread back, or '' when there is none. Held things come first, so a
 * thing the player took turns up again within the next few replies; the choice rotates by turn.
 */
export function recall(threads: Threads, anchors: PremiseAnchors, turn: number): string {
  const options: string[] = [];
  for (const thing of threads.held.slice(0, 2)) {
    const verb = isPlural(thing) ? 'are' : 'is';
    options.push(
      [
        `${capital(thing)} ${verb} still heavy in your pocket.`,
        `You keep ${thing} close; it may matter yet.`,
        `Your hand finds ${thing} again, out of habit.`,
      ][turn % 3],
    );
  }
  for (const name of threads.names.slice(0, 2)) {
    options.push(
      [`${capital(name)} is never far from your thoughts.`, `You wonder what ${name} would make of all this.`][
        turn % 2
      ],
    );
  }
  if (anchors.setting)
    options.push(
      [`Your thoughts keep drifting back to ${anchors.setting}.`, `You have not forgotten ${anchors.setting}.`][
        turn % 2
      ],
    );
  for (const thing of threads.touched.slice(0, 1)) options.push(`You have not forgotten ${thing}.`);
  if (options.length === 0) return '';
  // Held things lead the list; rotating over the first three keeps them coming back every few turns.
  return options[turn % Math.min(options.length, 3)];
}
