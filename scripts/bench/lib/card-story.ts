// A story's lore and its play, made up from one seed for bench:cards: up to 1,000 story cards that
// look like a player's lorebook (people, places, things and factions with invented names, 1-3 keys
// each, some of them regular expressions, some secondary keys, contents of 200-1,500 characters,
// ~5 % always on, some sticky, cooling down, delayed, disabled or recursive), and the actions and
// replies of a story in which their names come up. Which cards come up in which message is decided
// by the seed alone, so stories with 0, 100 and 1,000 of the same cards see the same mentions; the
// words around them come from a stream of their own per story, so no two stories share a text
// (the app remembers token counts and scanned texts by text: shared texts would flatter the
// second story). And the hostile story: 500 keyed cards and 500 always-on recursive cards of
// punctuation (hostileLore).
import type { CardValues } from '../../../server/db/repositories/story-cards';
import { STORY_REGEX_KEYS_MAX } from '../../../shared/schemas/story-cards';
import { seededRandom } from '../../../server/test/varied-prose';

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const capital = (word: string) => word[0].toUpperCase() + word.slice(1);

const SYLLABLES = [
  'ka', 'ri', 'on', 'mel', 'dra', 'ven', 'tor', 'sa', 'lin', 'bre', 'eth', 'mor', 'quil', 'zan', 'fe', 'gro',
  'hal', 'ys', 'ur', 'nim', 'vax', 'thal', 'os', 'pel', 'cor', 'dun', 'iv', 'jas', 'ke', 'lo', 'mir', 'nal',
]; // prettier-ignore
/** Words the secondary keys use: never in the filler text, only put next to a mention on purpose. */
const SECONDARY_WORDS = ['storm', 'moonlight', 'bloodline', 'gold', 'wildfire', 'oath', 'ashes', 'frost', 'tide'];
const TITLES = ['Captain', 'Lady', 'Brother', 'Old', 'Magister', 'Sergeant', 'Mother', 'Warden'];
const PLACE_KINDS = ['Reach', 'Hollow', 'Gate', 'Marsh', 'Spire', 'Crossing', 'Vault', 'Harbour'];
const THING_KINDS = ['Compass', 'Crown', 'Lantern', 'Blade', 'Codex', 'Mask', 'Key', 'Chalice'];
const FACTION_KINDS = ['Order', 'Guild', 'Circle', 'Company', 'House', 'Brotherhood'];

const NOUNS = [
  'door', 'path', 'stair', 'window', 'river', 'bridge', 'lamp', 'table', 'road', 'forest', 'tower', 'cellar',
  'market', 'ship', 'rope', 'letter', 'map', 'horse', 'cloak', 'fire', 'rain', 'wall', 'garden', 'well',
]; // prettier-ignore
const ADJECTIVES = [
  'quiet', 'old', 'narrow', 'wet', 'broken', 'bright', 'heavy', 'cold', 'crooked', 'distant', 'faded', 'warm',
  'restless', 'hidden', 'silver', 'dusty', 'sharp', 'pale',
]; // prettier-ignore
const VERBS = ['creaks', 'glitters', 'shifts', 'waits', 'trembles', 'settles', 'flickers', 'groans', 'hums'];
const ACTIONS = [
  'I look around the {adj} {noun}',
  'I follow the {noun} north',
  'I ask {m} about the {noun}',
  'I tell {m} what I saw by the {noun}',
  'I open the {adj} {noun} slowly',
  'I listen at the {noun}',
  'I wait for {m} near the {noun}',
  'I climb higher, toward the {noun}',
  'I search {m} for anything {adj}',
  'I draw my blade and keep my back to the {noun}',
]; // prettier-ignore
const REPLY_SENTENCES = [
  'The {adj} {noun} {verb} as you pass.',
  '{M} watches you from beside the {noun}, {adj} and silent.',
  'Somewhere behind the {noun}, something {verb}.',
  '{M} speaks at last: the {noun} was never meant to be opened.',
  'You remember what you were told of {m}, and the {adj} {noun} it guarded.',
  'A {adj} wind moves through the {noun} and the {noun} beyond it.',
  'The talk in the {noun} turns to {m}, then falls quiet.',
  'Your hand finds the {adj} edge of the {noun}.',
  'Word has it that {m} was seen near the {adj} {noun}.',
  'Nothing here is as {adj} as it first seemed.',
]; // prettier-ignore
const LORE_SENTENCES = [
  '{N} was first named in the {adj} years, when the {noun} still stood.',
  'Those who know {N} say it keeps a {adj} {noun} close.',
  '{N} has no love for strangers and less for questions about the {noun}.',
  'In the old songs {N} is tied to the {adj} {noun} and to a debt never paid.',
  'Travellers speak of {N} in low voices near the {noun}.',
  '{N} remembers every promise made by the {adj} {noun}.',
  'It is said that {N} answers only to those who bring a {adj} {noun}.',
  '{N} is known to {r}, though neither speaks of it.',
]; // prettier-ignore

/** A card of the lore with the words that name it in the story: each surface form matches one of its primary keys. */
export interface LoreCard {
  values: Omit<CardValues, 'tokens'>;
  mentions: string[];
}

function fill(template: string, random: Random, words: { m?: string; n?: string; r?: string }): string {
  return template
    .replaceAll('{adj}', () => pick(random, ADJECTIVES))
    .replaceAll('{noun}', () => pick(random, NOUNS))
    .replaceAll('{verb}', () => pick(random, VERBS))
    .replaceAll('{M}', () => capital(words.m ?? 'someone'))
    .replaceAll('{m}', () => words.m ?? 'someone')
    .replaceAll('{N}', () => words.n ?? 'It')
    .replaceAll('{r}', () => words.r ?? 'someone');
}

/** `count` cards from `seed`: the first n of them are the same whatever the count. */
export function makeLore(seed: number, count: number): LoreCard[] {
  const random = seededRandom(seed);
  const used = new Set<string>();
  const word = (): string => {
    for (;;) {
      const parts = Array.from({ length: between(random, 2, 3) }, () => pick(random, SYLLABLES));
      const made = capital(parts.join(''));
      if (!used.has(made.toLowerCase())) {
        used.add(made.toLowerCase());
        return made;
      }
    }
  };
  const cards: LoreCard[] = [];
  for (let i = 0; i < count; i += 1) {
    const kind = i % 4;
    const main = word();
    let name: string;
    const keys: string[] = [];
    const mentions: string[] = [];
    if (kind === 0) {
      const surname = word();
      name = `${pick(random, TITLES)} ${main} ${surname}`;
      keys.push(main);
      mentions.push(main);
      if (random() < 0.6) {
        keys.push(surname);
        mentions.push(surname);
      }
    } else if (kind === 1) {
      name = `The ${main} ${pick(random, PLACE_KINDS)}`;
      keys.push(main);
      mentions.push(`the ${main} ${name.split(' ').at(-1)}`);
    } else if (kind === 2) {
      const thing = pick(random, THING_KINDS);
      name = `The ${thing} of ${main}`;
      keys.push(`${thing} of ${main}`);
      mentions.push(`the ${thing.toLowerCase()} of ${main}`);
    } else {
      const faction = pick(random, FACTION_KINDS);
      name = `The ${faction} of ${main}`;
      keys.push(main);
      mentions.push(`the ${faction} of ${main}`);
    }
    // About 5 % carry a regular expression (plural and possessive forms), a few of them as their only key.
    if (i % 20 === 4) {
      const regex = `/\\b${main.toLowerCase()}(s|'s)?\\b/i`;
      if (kind === 2) keys.push(regex);
      else keys[0] = regex;
      mentions.push(`${main}'s`);
    }
    if (keys.length < 3 && random() < 0.25) {
      const nickname = word();
      keys.push(nickname);
      mentions.push(nickname);
    }
    // About one in eight has a secondary condition: a word that must (or must not) come up with it.
    const secondaryKeys = i % 8 === 6 ? [pick(random, SECONDARY_WORDS)] : [];
    const secondaryLogic = i % 16 === 14 ? 'notAny' : 'andAny';
    // Contents of 200-1,500 characters, whole sentences; a few name another card (recursion).
    const target = between(random, 200, 1500);
    let content = '';
    while (content.length < target) {
      const other = cards.length > 0 ? pick(random, cards).mentions[0] : 'the old keeper';
      const sentence = fill(pick(random, LORE_SENTENCES), random, { n: name, r: other });
      if (content.length + sentence.length + 1 > 1500 && content.length >= 200) break;
      content = content ? `${content} ${sentence}` : sentence;
    }
    cards.push({
      mentions,
      values: {
        name,
        keys,
        secondaryKeys,
        secondaryLogic,
        content: content.slice(0, 1500),
        alwaysOn: i % 20 === 7,
        enabled: i % 40 !== 17,
        priority: i % 10 === 2 ? 10 : i % 20 === 9 ? -5 : 0,
        caseSensitive: false,
        wholeWords: true,
        scanDepth: i % 25 === 9 ? 2 : i % 25 === 19 ? 8 : 4,
        recursive: i % 33 === 5,
        sticky: i % 10 === 3 ? between(random, 1, 3) : 0,
        cooldown: i % 20 === 11 ? between(random, 1, 3) : 0,
        delay: i % 50 === 13 ? 5 : 0,
      },
    });
  }
  return cards;
}

/** Who comes up in one message: card indices, and whether each mention brings its secondary word along. */
export interface Mention {
  card: number;
  withSecondary: boolean;
}

export interface TurnPlan {
  action: Mention[];
  reply: Mention[];
}

/**
 * Which cards come up in each turn's action and reply, for `turns` turns: a scene's cast of six
 * (mostly from the first 100 cards, so the 100-card story meets them too) that changes one member
 * every third turn, and now and then a name from anywhere in the lore.
 */
export function planMentions(seed: number, turns: number, loreSize: number): TurnPlan[] {
  const random = seededRandom(seed ^ 0x5eed);
  const someone = () =>
    random() < 0.6 ? Math.floor(random() * Math.min(100, loreSize)) : Math.floor(random() * loreSize);
  const cast = Array.from({ length: 6 }, someone);
  const mention = (): Mention => ({
    card: random() < 0.75 ? pick(random, cast) : someone(),
    withSecondary: random() < 0.5,
  });
  const plans: TurnPlan[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    if (turn % 3 === 0) cast[Math.floor(random() * cast.length)] = someone();
    plans.push({
      action: Array.from({ length: random() < 0.5 ? 1 : random() < 0.5 ? 0 : 2 }, mention),
      reply: Array.from({ length: between(random, 1, 3) }, mention),
    });
  }
  return plans;
}

/** Writes the plan's texts for one story: the same mentions, this story's own words around them. */
export function storyTexts(
  lore: LoreCard[],
  plans: TurnPlan[],
  wordsSeed: number,
): Array<{ action: string; reply: string }> {
  const random = seededRandom(wordsSeed);
  const say = (m: Mention) => {
    const card = lore[m.card];
    const words = pick(random, card.mentions);
    const secondary = card.values.secondaryKeys[0];
    return m.withSecondary && secondary ? `${words}, marked by ${secondary},` : words;
  };
  return plans.map((plan) => {
    const first = plan.action[0];
    let action = fill(pick(random, first ? ACTIONS.filter((a) => a.includes('{m}')) : ACTIONS), random, {
      m: first ? say(first) : undefined,
    });
    if (plan.action[1]) action += ` and then find ${say(plan.action[1])}`;
    const sentences: string[] = [];
    const queue = [...plan.reply];
    const length = between(random, 4, 8);
    for (let i = 0; i < length || queue.length > 0; i += 1) {
      const next = queue.length > 0 && (random() < 0.5 || length - i <= queue.length) ? queue.shift() : undefined;
      const template = next
        ? pick(
            random,
            REPLY_SENTENCES.filter((s) => s.includes('{m}') || s.includes('{M}')),
          )
        : pick(
            random,
            REPLY_SENTENCES.filter((s) => !s.includes('{m}') && !s.includes('{M}')),
          );
      sentences.push(fill(template, random, { m: next ? say(next) : undefined }));
    }
    sentences.push('What do you do?');
    return { action: `${action}.`, reply: sentences.join(' ') };
  });
}

/** A memory as a fold would leave it: past-tense sentences of about `chars` characters. */
export function memoryText(random: Random, chars: number): string {
  let text = '';
  while (text.length < chars)
    text += `${fill('You passed the {adj} {noun} and the {noun} {verb} behind you.', random, {})} `;
  return text.trim();
}

/** Dots in each of a dust card's two runs: two of them and their closing words fill a card's 8,000 characters. */
const DUST_RUN = 3900;

/** The words closing a dust card's two runs, one pair a story: no two stories' contents are one text. */
const DUST_WORDS = [
  ['dust', 'settles'],
  ['ash', 'falls'],
];

/**
 * One always-on recursive card of bench:cards' hostile story: two runs of ~3,900 dots, each closed
 * by a word and a stop (two sentences, as long as a card may be), so one that does not fit whole
 * is cut at a sentence; the runs' lengths vary, so no two cards' contents are one text.
 */
function dustCard(index: number, words: string[]): LoreCard {
  const run = (offset: number) => '.'.repeat(DUST_RUN + ((index * 7 + offset) % 90));
  return {
    mentions: [],
    values: {
      name: `Dust ${index + 1}`,
      keys: [],
      secondaryKeys: [],
      secondaryLogic: 'andAny',
      content: `${run(0)}${words[0]}. ${run(45)}${words[1]}.`,
      alwaysOn: true,
      enabled: true,
      priority: 0,
      caseSensitive: false,
      wholeWords: true,
      scanDepth: 4,
      recursive: true,
      sticky: 0,
      cooldown: 0,
      delay: 0,
    },
  };
}

/**
 * bench:cards' hostile story: `keyed` cards of the lore (its first ones, none always on, each
 * sticky for 3 turns; with `longHistory` the first for 199, so a turn reads 200 turns of history)
 * and `dust` always-on recursive cards of punctuation (dustCard). Keyed first, so
 * planMentions(…, keyed) mentions only them.
 */
export function hostileLore(seed: number, longHistory: boolean, keyed = 500, dust = 500): LoreCard[] {
  let regexKeys = 0;
  const lore = makeLore(seed, keyed).map((card, index) => {
    // As many regular-expression keys as a story may hold (STORY_REGEX_KEYS_MAX); past them, the card's first mention.
    const keys = card.values.keys.map((key) =>
      !key.startsWith('/') ? key : (regexKeys += 1) <= STORY_REGEX_KEYS_MAX ? key : card.mentions[0],
    );
    return {
      ...card,
      values: {
        ...card.values,
        keys,
        alwaysOn: false,
        sticky: longHistory && index === 0 ? 199 : 3,
        cooldown: 0,
        delay: 0,
      },
    };
  });
  const words = DUST_WORDS[Number(longHistory)];
  return [...lore, ...Array.from({ length: dust }, (_, index) => dustCard(index, words))];
}
