// User-facing strings of the story memory panel and its Story Bible.
import { BIBLE_PINNED_MAX } from '@shared/schemas/story-bible';
import { STORY_NOTES_MAX_LENGTH } from '@shared/schemas/story-memory';

export const STORY_MEMORY_STRINGS = {
  tooltip: 'Story Memory',
  title: 'Story Memory',
  description: 'What the narrator works from besides the latest turns. Changes count from the next turn.',
  loading: 'Loading the story memory…',
  loadFailed: 'Failed to load the story memory',
  premiseLabel: 'Premise',
  premiseHint: 'Pinned: the narrator always sees it.',
  summaryLabel: 'Memory',
  summaryHint:
    'A summary of the earlier turns, written by the narrator as the story grows. Correct it or add what matters.',
  summaryEmpty: 'Nothing folded yet: the narrator still sees every turn.',
  chunksLabel: (n: number) => `Written in ${n} parts, oldest first`,
  chunksHint:
    'Each time turns are folded, a part is added at the end, so the narrator’s provider can reuse the start of its prompt. Saving an edited memory below makes it one part.',
  chunkLabel: (i: number, n: number) => `Part ${i} of ${n}`,
  notesLabel: 'Author’s note',
  notesHint:
    'Your direction for the story from here on, such as tone, pace or what to keep building. The narrator reads it on every turn, a few messages from the end, where it heeds it most.',
  notesPlaceholder: 'For example: tense, short sentences; the storm keeps building.',
  notesCount: (n: number) => `${n} / ${STORY_NOTES_MAX_LENGTH}`,
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',
  saved: 'Story memory saved',
  saveFailed: 'Failed to save the story memory',
  successTitle: 'Success',
  errorTitle: 'Error',
} as const;

/** The turn a fact came from: turn 0 is the story's opening. */
const turnText = (turn: number) => (turn === 0 ? 'the opening' : `turn ${turn}`);
/** A fact named by what it is about and what it says about it: "your horse, name". */
const factName = (entity: string, attribute: string) => `${entity}, ${attribute}`;

export const STORY_BIBLE_STRINGS = {
  title: 'Story Bible',
  description:
    'The lasting facts of this story, noted as turns are folded into memory. Pinned facts go to the narrator with every turn; the others when a turn calls them up.',
  loading: 'Loading the story bible…',
  loadFailed: 'Failed to load the story bible',
  retry: 'Try again',
  empty: 'No facts yet. As the story grows, the narrator’s memory notes names, places and things here.',
  listLabel: 'Facts of this story',
  entityFactsLabel: (entity: string) => `Facts about ${entity}`,
  turn: turnText,
  pinnedBadge: 'Pinned',
  pinnedCount: (n: number) => `${n} of ${BIBLE_PINNED_MAX} pinned`,
  historyLabel: (entity: string, attribute: string) => `Earlier values of ${factName(entity, attribute)}`,
  was: (value: string, turn: number) => `was ${value} (${turnText(turn)})`,

  pin: 'Pin',
  unpin: 'Unpin',
  pinLabel: (entity: string, attribute: string) => `Pin fact: ${factName(entity, attribute)}`,
  unpinLabel: (entity: string, attribute: string) => `Unpin fact: ${factName(entity, attribute)}`,
  pinFailed: 'Failed to change the fact',

  edit: 'Edit',
  editLabel: (entity: string, attribute: string) => `Edit fact: ${factName(entity, attribute)}`,
  entityLabel: 'Who or what',
  attributeLabel: 'Attribute',
  valueLabel: 'Value',
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',
  saved: 'Fact saved',
  saveFailed: 'Failed to save the fact',

  delete: 'Delete',
  deleteLabel: (entity: string, attribute: string) => `Delete fact: ${factName(entity, attribute)}`,
  deleteTitle: 'Delete Fact',
  deleteText: (entity: string, attribute: string, value: string, earlier: number) =>
    `Are you sure you want to delete the fact "${factName(entity, attribute)}: ${value}"?${
      earlier > 0 ? ` Its ${earlier === 1 ? 'earlier value goes' : `${earlier} earlier values go`} with it.` : ''
    } This action cannot be undone.`,
  deleting: 'Deleting…',
  deleted: 'Fact deleted',
  deleteFailed: 'Failed to delete the fact',
  successTitle: 'Success',
  errorTitle: 'Error',

  suggest: 'Suggest cards',
  suggesting: 'Suggesting…',
  suggestFailed: 'Failed to suggest cards',
  suggestionsLabel: 'Suggested cards',
  suggestionsHint: 'Story cards made from these facts. Nothing is saved until you add one.',
  noSuggestions:
    'No suggestions yet: a card is suggested for a person, place or thing with several facts here that no story card names. Try again as the story grows.',
  keysLabel: (name: string) => `Keys of ${name}`,
  noKeys: 'No keys',
  addCard: 'Add card',
  addCardLabel: (name: string) => `Add card: ${name}`,
  adding: 'Adding…',
  cardAdded: (name: string) => `Card added: ${name}`,
  addFailed: 'Failed to add the card',
  dismiss: 'Dismiss',
  dismissLabel: (name: string) => `Dismiss: ${name}`,
} as const;
