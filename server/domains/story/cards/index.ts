// Story cards' door: the pure pieces of choosing which cards reach the narrator (matching their
// keys, their timing across turns, and fitting them into their share of the prompt).
export { createCardScanner, type KeyHit, type MatchableCard } from './matching';
export { isRegexKey, keyProblem } from './regex-keys';
export {
  cardTiming,
  historyTurnsNeeded,
  indexHistory,
  type CardHistoryIndex,
  type CardHistoryTurn,
  type CardTimingState,
} from './timing';
export { fitCards, type CardCandidate, type FittedCard } from './budget';
