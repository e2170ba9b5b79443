// The builtin narrator's story-bible facts, found by rules in the player's own actions (its replies
// are its own invention, so it takes no facts from them): the plain ways a player names a thing or a
// person ("my horse is called Bramble", "I name my horse Bramble", "my sister Maren", "Maren is my
// sister", "my sword, which I call Nightreed", "my ship is the Saltwren"), says what is written on
// something ("stamped with the number 4471") and where they keep it ("I hide my key in my boot").
// Each fact is about "your <thing>", as the memory is written to the player.
import type { FactInput } from '../summary-answer';

interface TurnText {
  role: 'user' | 'assistant';
  content: string;
  turn?: number;
}

/** A thing a player owns: one or two lower-case words ("horse", "old compass"). */
const THING = String.raw`([a-z][a-z'-]+(?: [a-z][a-z'-]+)?)`;
/** A name: one to three capitalised words, or a number. */
const NAME = String.raw`((?:[A-Z][\p{L}'-]+)(?: [A-Z][\p{L}'-]+){0,2}|\d[\d-]*)`;
/** Capitalised words that open a clause rather than name anything. */
const NOT_NAMES = new Set(['I', 'The', 'A', 'An', 'And', 'But', 'Then', 'When', 'While', 'As', 'If', 'It', 'You']);
/** Words after "my" that are not things one names ("my way", "my best"). */
const NOT_THINGS = new Set([
  'way',
  'best',
  'own',
  'turn',
  'time',
  'mind',
  'life',
  'name',
  'self',
  'eyes',
  'hand',
  'hands',
]);

interface Rule {
  pattern: RegExp;
  attribute: string;
  /** Which groups hold the thing and the value. */
  thing: number;
  value: number;
}

const rule = (source: string, attribute: string, thing = 1, value = 2): Rule => ({
  pattern: new RegExp(source, 'gu'),
  attribute,
  thing,
  value,
});

const RULES: Rule[] = [
  rule(String.raw`\bmy ${THING},? (?:is|was) (?:now |still )?(?:called|named) (?:the )?${NAME}`, 'name'),
  rule(String.raw`\bmy ${THING},? (?:which|whom|who|that) I (?:have )?(?:call|called|name|named|titled) (?:it |him |her )?(?:the )?${NAME}`, 'name'),
  rule(String.raw`\bI (?:name|call|named|called|rename|renamed) my ${THING} (?:to )?(?:the )?${NAME}`, 'name'),
  rule(String.raw`\bmy ${THING} is the ${NAME}`, 'name'),
  rule(String.raw`\bmy ${THING}, the ${NAME}`, 'name'),
  rule(String.raw`\b${NAME} is my ${THING}\b`, 'name', 2, 1),
  rule(String.raw`\bmy ([a-z][a-z'-]+) ${NAME}`, 'name'),
  rule(String.raw`\bmy ${THING},? (?:engraved|stamped|carved|marked|inscribed) with (?:the (?:word|number|name|letters?) )?${NAME}`, 'inscription'),
  rule(String.raw`\bI (?:hide|put|keep|leave|bury|stash|tuck) my ${THING} ((?:in|under|behind|inside|beneath|beside) [^.,;!?]{2,60})`, 'kept'),
]; // prettier-ignore

/** "my name is Ash", "I am called Ash": the player's own name. */
const OWN_NAME = new RegExp(String.raw`\b(?:[Mm]y name is|I am called|I'm called|[Cc]all me) ${NAME}`, 'gu');

/** The facts the player's actions in `turns` state, at most one per thing and attribute per action. */
export function extractFacts(turns: TurnText[]): FactInput[] {
  const facts: FactInput[] = [];
  for (const turn of turns) {
    if (turn.role !== 'user') continue;
    const seen = new Set<string>();
    const add = (entity: string, attribute: string, value: string) => {
      const key = `${entity}\u0000${attribute}`;
      if (seen.has(key)) return;
      seen.add(key);
      facts.push({ entity, attribute, value: value.trim(), turn: turn.turn ?? null });
    };
    for (const match of turn.content.matchAll(OWN_NAME))
      if (!NOT_NAMES.has(match[1].split(' ')[0])) add('you', 'name', match[1]);
    for (const { pattern, attribute, thing, value } of RULES)
      for (const match of turn.content.matchAll(pattern)) {
        const name = match[value];
        const noun = match[thing];
        if (NOT_NAMES.has(name.split(' ')[0]) || NOT_THINGS.has(noun.split(' ').at(-1)!)) continue;
        add(`your ${noun}`, attribute, attribute === 'kept' ? name.replace(/\bmy\b/g, 'your') : name);
      }
  }
  return facts;
}
