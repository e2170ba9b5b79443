// The story bible's door: the service (the player's bible, the facts of each fold), a turn's facts
// for its prompt, and the pure pieces its tests and benchmarks reach.
export { createStoryBible, factJson, type StoryBible } from './story-bible';
export { NO_FACTS, recallFacts, RECALLED_FACTS_MAX, type FactRecall } from './recall-facts';
export { factKey, lineThrough, withHistory, type BibleEntry } from './history';
export { factsFromFold, type FoldSource } from './from-fold';
export { cardOf, entityGroups, suggestCards } from './suggest-cards';
