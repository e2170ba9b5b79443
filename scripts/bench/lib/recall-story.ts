// bench:recall's story: small facts a player plants in the early turns ("my horse is called
// Bramble"), a quarter of them renamed midway, the things named again later without their values
// (as players do: "I check on my horse"), and the probes that name only the thing, another word for
// it, or a phrase for it ("the animal I ride"). The filler around them is varied prose (server/test/varied-prose.ts) that never uses the
// things' words, so a value reaches the prompt only through memory.
import { hashedFeatureVector } from '../../../server/test/fake-embeddings-server';
import { proseWriter, seededRandom } from '../../../server/test/varied-prose';

export interface Fact {
  thing: string;
  /** Another word a player might use for it: what full-text search cannot know. */
  alias: string;
  /** A phrase for it that shares no word with its planting: what only meaning can connect. */
  paraphrase: string;
  /** The planting action, `{v}` standing for the value. */
  plant: string;
  value: string;
  /** The new value of a renamed fact. */
  renamed?: string;
}

const FACTS: Array<Omit<Fact, 'renamed'> & { rename: string }> = [
  { thing: 'horse', alias: 'mount', paraphrase: 'the animal I ride', plant: 'I tell the stable boy that my horse is called {v}.', value: 'Bramble', rename: 'Thistle' },
  { thing: 'sister', alias: 'sibling', paraphrase: "my father's daughter", plant: 'I write a letter to my sister {v} in the capital.', value: 'Maren', rename: 'Ysolde' },
  { thing: 'dagger', alias: 'knife', paraphrase: 'the little weapon at my belt', plant: 'I show the guard my dagger, with {v} carved on its hilt.', value: 'Orrinmark', rename: 'Kestrelmark' },
  { thing: 'ring', alias: 'band', paraphrase: 'the jewellery I always wear', plant: 'I turn my ring, the one my grandmother named {v}, on my finger.', value: 'Emberlight', rename: 'Dawnglass' },
  { thing: 'dog', alias: 'hound', paraphrase: 'my four-legged companion who barks', plant: 'I whistle and my dog {v} comes running.', value: 'Pepperkin', rename: 'Juniper' },
  { thing: 'ship', alias: 'vessel', paraphrase: 'the craft I command at sea', plant: 'I remind the captain that my ship is the {v}.', value: 'Saltwren', rename: 'Gullwing' },
  { thing: 'key', alias: 'latchkey', paraphrase: 'the thing that opens my lock', plant: 'I hide my key, stamped with the number {v}, in my boot.', value: '4471', rename: '9013' },
  { thing: 'cat', alias: 'kitten', paraphrase: 'my purring pet', plant: 'I feed my cat {v} a scrap of fish.', value: 'Mothwick', rename: 'Cinder' },
  { thing: 'brother', alias: 'sibling', paraphrase: "my parents' son", plant: 'I recall that my brother {v} owes me money.', value: 'Tobias', rename: 'Corwin' },
  { thing: 'sword', alias: 'blade', paraphrase: 'my long steel weapon', plant: 'I swear on my sword, which I call {v}.', value: 'Nightreed', rename: 'Quietus' },
  { thing: 'falcon', alias: 'bird', paraphrase: 'my hunting raptor', plant: 'I let my falcon {v} stretch her wings.', value: 'Ashfeather', rename: 'Skylark' },
  { thing: 'compass', alias: 'needle', paraphrase: 'the instrument that finds my heading', plant: 'I check my compass, engraved with the word {v}.', value: 'Northward', rename: 'Homeward' },
  { thing: 'boat', alias: 'skiff', paraphrase: 'the little craft I row', plant: 'I tie my boat, the {v}, to the pier.', value: 'Driftmoss', rename: 'Lowtide' },
  { thing: 'mother', alias: 'mum', paraphrase: 'the woman who raised me', plant: 'I think of my mother {v}, who taught me to read.', value: 'Hestia', rename: 'Idony' },
  { thing: 'mentor', alias: 'teacher', paraphrase: 'the master I studied under', plant: 'I quote my mentor {v}, who trained me in the hills.', value: 'Alaric', rename: 'Severin' },
  { thing: 'amulet', alias: 'charm', paraphrase: 'the pendant around my neck', plant: 'I touch my amulet, a {v} stone on a cord.', value: 'bloodjasper', rename: 'moonopal' },
  { thing: 'journal', alias: 'diary', paraphrase: 'the book I keep my notes in', plant: 'I write in my journal, which I have titled {v}.', value: 'Roadsong', rename: 'Waystone' },
  { thing: 'flute', alias: 'pipe', paraphrase: 'my wooden whistle', plant: 'I play my flute, carved from {v} wood.', value: 'yewheart', rename: 'blackthorn' },
  { thing: 'goat', alias: 'billy', paraphrase: 'the bearded animal I herd', plant: 'I lead my goat {v} along the path.', value: 'Grumbleton', rename: 'Barnaby' },
  { thing: 'uncle', alias: 'relative', paraphrase: "my aunt's husband", plant: 'I mention that my uncle {v} runs the ferry.', value: 'Gideon', rename: 'Lucan' },
]; // prettier-ignore

export interface RecallPlan {
  facts: Fact[];
  /** The action of each turn 1..turns (index 0 is unused: the opening). */
  actions: string[];
  /** The turn each fact was planted at, and renamed at. */
  plantedAt: number[];
  renamedAt: Array<number | undefined>;
}

/**
 * Facts planted at even turns through turn 40, a quarter renamed from turn `turns / 2`, each thing
 * named again twice after turn 40 without its value; the rest filler.
 */
export function recallPlan(seed: number, turns: number, factCount: number): RecallPlan {
  const random = seededRandom(seed);
  const writer = proseWriter(seed + 1);
  const facts: Fact[] = FACTS.slice(0, factCount).map(({ rename, ...fact }, i) => ({
    ...fact,
    ...(i % 4 === 0 ? { renamed: rename } : {}),
  }));
  const actions: string[] = [''];
  for (let turn = 1; turn <= turns; turn += 1) actions.push(writer.action());
  const plantedAt = facts.map((_, i) => 2 + 2 * i);
  const renamedAt = facts.map((f, i) => (f.renamed ? Math.floor(turns / 2) + i : undefined));
  facts.forEach((fact, i) => {
    actions[plantedAt[i]] = fact.plant.replace('{v}', fact.value);
    const at = renamedAt[i];
    if (at !== undefined) actions[at] = `I decide that from now on my ${fact.thing} is called ${fact.renamed}.`;
  });
  const taken = new Set([...plantedAt, ...renamedAt.filter((t): t is number => t !== undefined)]);
  // Two later mentions of each thing, at turns after 40 drawn without repeats (fewer in a short story).
  const free = Array.from({ length: Math.max(0, turns - 40) }, (_, i) => 41 + i).filter((t) => !taken.has(t));
  for (let i = free.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [free[i], free[j]] = [free[j], free[i]];
  }
  for (const fact of facts)
    for (let mention = 0; mention < 2 && free.length > 0; mention += 1)
      actions[free.pop()!] = `I check on my ${fact.thing} before we move on.`;
  return { facts, actions, plantedAt, renamedAt };
}

export const probeAction = (word: string) => `I look for my ${word}.`;
/** A probe by paraphrase, which carries its own possessive ("the animal I ride", "my purring pet"). */
export const paraphraseProbe = (phrase: string) => `I look for ${phrase}.`;

/**
 * Vectors as an embedding model that knows what the facts' things are might give them: the fake's
 * meaning-blind features of the text (hashedFeatureVector), plus a strong feature for each thing the
 * text names by its word, another word or a phrase for it ("my mount", "the animal I ride": the
 * horse). Real models let the things a text is about outweigh its verbs ("look"); this stand-in does
 * so by construction. Not a model: it tells what fusion does when the vectors are right, which no
 * fake can say of a real model.
 */
export function knowingVectors(facts: Fact[], dimensions: number): (text: string) => number[] {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const names = facts.map((f) => ({
    thing: f.thing,
    pattern: new RegExp(`\\b(?:${[f.thing, f.alias, f.paraphrase].map(literal).join('|')})\\b`, 'i'),
  }));
  const thingVector = new Map(names.map(({ thing }) => [thing, hashedFeatureVector(`thing ${thing}`, dimensions)]));
  return (text) => {
    const vector = hashedFeatureVector(text, dimensions);
    for (const { thing, pattern } of names)
      if (pattern.test(text)) thingVector.get(thing)!.forEach((v, i) => (vector[i] += THING_WEIGHT * v));
    return vector;
  };
}

/** How much a named thing outweighs the rest of a text's features in knowingVectors. */
const THING_WEIGHT = 4;

export interface ProbeResult {
  /** The current value was in the prompt. */
  found: boolean;
  /** For a renamed fact: the old value was in the prompt too. */
  oldSent?: boolean;
  /** For a renamed fact: every recalled passage holding the old value names a turn before the rename. */
  oldDated?: boolean;
}

/** The turn a recalled passage names ("(turn 12, the player)"), for each passage holding `value`. */
function recalledTurnsHolding(prompt: string, value: string): number[] {
  const turns: number[] = [];
  for (const match of prompt.matchAll(/Recalled from earlier in the story \(turn (\d+), [^)]*\): ([^\n]*)/g))
    if (match[2].includes(value)) turns.push(Number(match[1]));
  return turns;
}

/** What a probe's prompt held of `fact` (renamed at turn `renamedAt`). */
export function judgeProbe(prompt: string, fact: Fact, renamedAt?: number): ProbeResult {
  const found = prompt.includes(fact.renamed ?? fact.value);
  if (!fact.renamed || renamedAt === undefined) return { found };
  return {
    found,
    oldSent: prompt.includes(fact.value),
    oldDated: recalledTurnsHolding(prompt, fact.value).every((turn) => turn < renamedAt),
  };
}
