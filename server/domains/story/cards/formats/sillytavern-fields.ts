// SillyTavern's entry settings that have no meaning in Taleweaver, and when an entry's value of one
// differs from what SillyTavern (or Taleweaver's own export) writes by default, so the player hears
// about the settings a file really used and not about every field a modern export carries. Shared by
// World Info files and by character cards, whose lorebook entries keep the same settings in
// `extensions` under snake_case names.
import type { CardSecondaryLogic } from '@shared/schemas/story-cards';
import type { FieldNotes } from './entries';

/** SillyTavern's selectiveLogic numbers, in order: AND_ANY, NOT_ALL, NOT_ANY, AND_ALL. */
export const ST_LOGIC: readonly CardSecondaryLogic[] = ['andAny', 'notAll', 'notAny', 'andAll'];

/** SillyTavern's world_info_position values Taleweaver writes (see writeSillyTavern). */
export const ST_POSITION_BEFORE_CHAR = 0;
export const ST_POSITION_AT_DEPTH = 4;
export const ST_DEPTH_DEFAULT = 4;
/** Where Taleweaver's export puts an entry: always-on cards at the top, triggered ones near the latest turns. */
export const stPosition = (alwaysOn: boolean) => (alwaysOn ? ST_POSITION_BEFORE_CHAR : ST_POSITION_AT_DEPTH);

const PLACEMENT =
  'Taleweaver places cards itself: before the recent turns when always on, next to the action when triggered.';
const GROUPS =
  'Taleweaver has no inclusion groups: every triggered card is sent, highest priority first when space is short.';
const RECURSION =
  "Taleweaver's recursion is one level, set per card by whether its content may trigger others; this setting was not kept.";
const SOURCES = "Taleweaver looks for keys in the story's recent turns and the new action only.";

type Entry = Record<string, unknown>;
const nonEmptyText = (value: unknown) => typeof value === 'string' && value.trim() !== '';
const isTrue = (value: unknown) => value === true;

interface Unused {
  field: string;
  differs: (entry: Entry) => boolean;
  reason: string;
}

/** Each field by its World Info (camelCase) name; `differs` is false for the defaults and for what Taleweaver writes. */
const UNUSED: Unused[] = [
  {
    field: 'position',
    differs: (e) =>
      typeof e.position === 'number' &&
      e.position !== ST_POSITION_BEFORE_CHAR &&
      e.position !== stPosition(e.constant === true),
    reason: PLACEMENT,
  },
  {
    field: 'depth',
    differs: (e) => e.position === ST_POSITION_AT_DEPTH && typeof e.depth === 'number' && e.depth !== ST_DEPTH_DEFAULT,
    reason: PLACEMENT,
  },
  {
    field: 'role',
    differs: (e) => e.position === ST_POSITION_AT_DEPTH && typeof e.role === 'number' && e.role !== 0,
    reason: "Taleweaver sends cards among the narrator's instructions, not as a chat message of their own.",
  },
  {
    field: 'probability',
    differs: (e) => e.useProbability !== false && typeof e.probability === 'number' && e.probability !== 100,
    reason: 'A Taleweaver card is always sent when its keys come up: there is no chance of it being left out.',
  },
  { field: 'group', differs: (e) => nonEmptyText(e.group), reason: GROUPS },
  { field: 'groupOverride', differs: (e) => isTrue(e.groupOverride), reason: GROUPS },
  { field: 'groupWeight', differs: (e) => typeof e.groupWeight === 'number' && e.groupWeight !== 100, reason: GROUPS },
  { field: 'useGroupScoring', differs: (e) => isTrue(e.useGroupScoring), reason: GROUPS },
  { field: 'excludeRecursion', differs: (e) => isTrue(e.excludeRecursion), reason: RECURSION },
  {
    field: 'delayUntilRecursion',
    differs: (e) => e.delayUntilRecursion != null && e.delayUntilRecursion !== false,
    reason: RECURSION,
  },
  {
    field: 'vectorized',
    differs: (e) => isTrue(e.vectorized),
    reason: 'Taleweaver finds cards by their keys, not by similarity of meaning (vector search).',
  },
  {
    field: 'ignoreBudget',
    differs: (e) => isTrue(e.ignoreBudget),
    reason: "Every Taleweaver card shares the cards' part of the narrator's window; none is sent beyond it.",
  },
  {
    field: 'automationId',
    differs: (e) => nonEmptyText(e.automationId),
    reason: 'Taleweaver has no automations to run when a card is sent.',
  },
  {
    field: 'outletName',
    differs: (e) => nonEmptyText(e.outletName),
    reason: 'Taleweaver has no outlets: cards go into the prompt themselves.',
  },
  {
    field: 'triggers',
    differs: (e) => Array.isArray(e.triggers) && e.triggers.length > 0,
    reason: "Taleweaver sends cards for every narrator's reply; there are no kinds of generation to choose.",
  },
  {
    field: 'characterFilter',
    differs: (e) =>
      typeof e.characterFilter === 'object' &&
      e.characterFilter !== null &&
      ['names', 'tags'].some((list) => {
        const value = (e.characterFilter as Entry)[list];
        return Array.isArray(value) && value.length > 0;
      }),
    reason: 'A Taleweaver story has one narrator: cards are not limited to characters or tags.',
  },
  ...[
    'matchPersonaDescription',
    'matchCharacterDescription',
    'matchCharacterPersonality',
    'matchCharacterDepthPrompt',
    'matchScenario',
    'matchCreatorNotes',
  ].map((field) => ({ field, differs: (e: Entry) => isTrue(e[field]), reason: SOURCES })),
];

/**
 * Notes each field of `entry` (World Info names; `constant` and `position` as SillyTavern reads them)
 * whose value matters in SillyTavern but cannot here; `named` gives the field's name as the file spells it.
 */
export function noteUnusedFields(entry: Entry, notes: FieldNotes, named: (field: string) => string = (f) => f): void {
  for (const { field, differs, reason } of UNUSED) if (differs(entry)) notes.note(named(field), reason);
}
