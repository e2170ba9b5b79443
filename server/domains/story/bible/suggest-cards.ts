// 'Suggest cards': the bible's recurring entities as proposed story cards. An entity recurs when it
// has facts from more than one turn, or when its name comes up in more than one passage of the
// memory bank; one a card already names (by its name or a key) is not proposed. A proposal is only
// a card's fields: nothing is saved until the player adds it. Made without a model call, so it
// costs the player nothing.
import { BIBLE_SUGGESTIONS_MAX } from '@shared/schemas/story-bible';
import {
  CARD_KEY_MAX_LENGTH,
  CARD_KEYS_MAX,
  storyCardFieldsSchema,
  type StoryCardFields,
} from '@shared/schemas/story-cards';
import { factKey, type BibleEntry } from './history';

export interface EntityGroup {
  key: string;
  /** The entity as its newest fact writes it. */
  entity: string;
  facts: BibleEntry[];
  /** The current value of its name, if it has one. */
  name?: string;
  /** Names it had before. */
  formerNames: string[];
}

const NAME_ATTRIBUTES = new Set(['name', 'called', 'title', 'named']);
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The bible's entities (the player's own "you" aside), each with its facts, newest fact's spelling. */
export function entityGroups(entries: BibleEntry[]): EntityGroup[] {
  const groups = new Map<string, EntityGroup>();
  for (const fact of entries) {
    const key = factKey(fact.entity);
    if (!key || key === 'you') continue;
    const group = groups.get(key) ?? { key, entity: fact.entity, facts: [], formerNames: [] };
    group.entity = fact.entity;
    group.facts.push(fact);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const names = group.facts.filter((f) => NAME_ATTRIBUTES.has(factKey(f.attribute)));
    group.name = names.find((f) => f.current)?.value;
    group.formerNames = [...new Set(names.filter((f) => !f.current).map((f) => f.value))].filter(
      (n) => n !== group.name,
    );
  }
  return [...groups.values()];
}

/** The words a card about the group is keyed by: its name, its thing ("horse") and its former names. */
export function groupKeys(group: EntityGroup): string[] {
  const keys = [group.name, group.key, ...group.formerNames]
    .filter((k): k is string => Boolean(k))
    .map((k) => k.slice(0, CARD_KEY_MAX_LENGTH).trim());
  return [...new Map(keys.map((k) => [k.toLowerCase(), k])).values()].slice(0, CARD_KEYS_MAX);
}

export function cardOf(group: EntityGroup): StoryCardFields {
  const current = group.facts.filter((f) => f.current);
  const lines = current.map((f) => {
    const before = group.facts.filter((h) => !h.current && factKey(h.attribute) === factKey(f.attribute));
    const formerly = before.length > 0 ? ` (formerly ${before.map((h) => h.value).join(', ')})` : '';
    return `${capitalise(f.attribute)}: ${f.value}${formerly}.`;
  });
  return storyCardFieldsSchema.parse({
    name: group.name ?? capitalise(group.entity),
    keys: groupKeys(group),
    content: `${capitalise(group.entity)}.\n${lines.join('\n')}`,
  });
}

/**
 * Proposed cards for the groups that recur (`mentions`: passages holding the group's name, from the
 * memory bank) and that no card names yet, the most recurring first.
 */
export function suggestCards(
  groups: EntityGroup[],
  mentions: (group: EntityGroup) => number,
  cards: Array<{ name: string; keys: string[] }>,
): StoryCardFields[] {
  const named = new Set(cards.flatMap((c) => [c.name, ...c.keys]).map((k) => factKey(k)));
  return groups
    .filter((g) => !groupKeys(g).some((k) => named.has(factKey(k))))
    .map((group) => ({ group, turns: new Set(group.facts.map((f) => f.turn)).size, mentions: mentions(group) }))
    .filter((g) => g.turns > 1 || g.mentions > 1)
    .sort((a, b) => b.turns + b.mentions - (a.turns + a.mentions) || a.group.key.localeCompare(b.group.key))
    .slice(0, BIBLE_SUGGESTIONS_MAX)
    .map(({ group }) => cardOf(group));
}
