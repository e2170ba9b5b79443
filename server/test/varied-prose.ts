// Story prose that reads like a model's, from one seed: actions and replies built from many
// sentence shapes and words, so no two replies are alike (a fake that repeats one sentence would
// flatter retrieval, and a repetition guard could not be tested). Its nouns avoid the things that
// tests and bench:recall plant as facts (a horse, a sister, a dagger, a ring, a dog, a ship, a key,
// a falcon, …), so a planted fact is found by its own words, not by filler that shares them.

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same story. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOUNS = [
  'door', 'path', 'stair', 'window', 'river', 'bridge', 'lamp', 'table', 'road', 'forest', 'tower', 'cellar',
  'market', 'rope', 'letter', 'map', 'cloak', 'fire', 'rain', 'wall', 'garden', 'well', 'chapel', 'orchard',
  'courtyard', 'ledger', 'candle', 'barrel', 'hill', 'archway', 'fountain', 'mill', 'lantern', 'gate', 'roof',
]; // prettier-ignore
const ADJECTIVES = [
  'quiet', 'old', 'narrow', 'wet', 'broken', 'bright', 'heavy', 'cold', 'crooked', 'distant', 'faded', 'warm',
  'restless', 'hidden', 'silver', 'dusty', 'sharp', 'pale', 'smoky', 'mossy', 'sunlit', 'hollow',
]; // prettier-ignore
const VERBS = ['creaks', 'glitters', 'shifts', 'waits', 'trembles', 'settles', 'flickers', 'groans', 'hums', 'sways'];
const PEOPLE = ['a ferryman', 'an old weaver', 'two soldiers', 'a child with a kite', 'the innkeeper', 'a tired monk'];
const SENTENCES = [
  'The {adj} {noun} {verb} as you pass.',
  'Somewhere beyond the {noun}, {person} is singing under their breath.',
  'You notice that the {noun} is more {adj} than you remembered.',
  'A {adj} wind comes off the {noun} and carries the smell of {noun2}s.',
  '{Person} looks up from the {noun} and nods, saying nothing.',
  'For a moment nothing moves except the {adj} light on the {noun}.',
  'The path bends past a {adj} {noun}, and the {noun2} beyond it {verb}.',
  'You hear {person} arguing about the price of a {noun}.',
  'Dust drifts through the {adj} air around the {noun}.',
  'It is late, and the {noun} {verb} in the {adj} dark.',
  '{Person} points towards the {noun2} without a word.',
  'Rain begins to tap on the {noun}, slow and {adj}.',
]; // prettier-ignore
const ACTIONS = [
  'I look around the {adj} {noun}',
  'I follow the {noun} north',
  'I ask {person} about the {noun}',
  'I open the {adj} {noun} slowly',
  'I listen at the {noun}',
  'I climb towards the {noun}',
  'I sit by the {noun} and rest',
  'I walk along the {adj} {noun2}',
]; // prettier-ignore

export interface ProseWriter {
  /** A reply of `sentences` sentences (5-9 when not given), ending with a question to the player. */
  reply(sentences?: number): string;
  action(): string;
}

export function proseWriter(seed: number): ProseWriter {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const fill = (template: string) => {
    const person = pick(PEOPLE);
    return template
      .replace('{adj}', pick(ADJECTIVES))
      .replace('{noun}', pick(NOUNS))
      .replace(/\{noun\}/g, pick(NOUNS))
      .replace('{noun2}', pick(NOUNS))
      .replace('{verb}', pick(VERBS))
      .replace('{person}', person)
      .replace('{Person}', person[0].toUpperCase() + person.slice(1));
  };
  return {
    reply(sentences = 5 + Math.floor(random() * 5)) {
      const text = Array.from({ length: sentences }, () => fill(pick(SENTENCES)));
      return `${text.join(' ')} What do you do?`;
    },
    action: () => `${fill(pick(ACTIONS))}.`,
  };
}
