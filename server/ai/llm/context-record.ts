// The context record of a reply: what its prompt held, block by block, in the order sent, each
// with its tokens, whether it went in whole, in part or not at all, and why. Built from what the
// assembly decided (context.ts) and what the cards' selection decided; it names messages and cards
// by id and counts their tokens, never copying their text, so it stays small per turn.
import type { ContextBlock, NarratorContext } from '@shared/schemas/story-cards';
import type { AssembledPrompt, Count } from './context';

export interface RecordInput {
  assembled: AssembledPrompt;
  /** The system prompt's tokens. */
  systemTokens: number;
  /** The recent turns the turn read (before the action), oldest first: the first `droppedTurns` were left out. */
  window: Array<{ id: number; role: 'user' | 'assistant'; turn: number; content: string }>;
  /** The always-on cards, and the cards that came up (sent, then not sent), as the cards' selection listed them. */
  cards: { head: ContextBlock[]; tail: ContextBlock[] };
  /** The story bible's facts (sent, then left out for room), as the bible listed them. */
  facts?: ContextBlock[];
  /** The passages recalled from the memory bank (sent, then ranked but left out), as recall listed them. */
  passages?: ContextBlock[];
  hasMemory: boolean;
  opening: boolean;
  outputTokens: number;
  windowTokens: number;
  cardBudgetTokens: number;
  /** The room the story bible's facts and the recalled passages had this turn. */
  recallBudgetTokens?: number;
  count: Count;
}

const turnTitle = (turn: { role: 'user' | 'assistant'; turn: number }) =>
  turn.turn === 0
    ? turn.role === 'user'
      ? 'The premise'
      : 'The opening'
    : `Turn ${turn.turn}: ${turn.role === 'user' ? 'your action' : 'the narrator'}`;

export function contextRecord(input: RecordInput): NarratorContext {
  const { assembled } = input;
  const part = (name: string) => assembled.parts.find((p) => p.name === name);
  const blocks: ContextBlock[] = [
    {
      kind: 'system',
      title: "The narrator's rules and your preferences",
      tokens: input.systemTokens,
      included: 'full',
      reason: 'always sent',
    },
  ];
  const note = part('authorsNote');
  const place = assembled.authorsNote;
  const noteBlock: ContextBlock | null =
    note && place
      ? {
          kind: 'authorsNote',
          title: 'Author’s note',
          tokens: note.tokens,
          included: note.fit,
          reason:
            note.fit === 'full'
              ? `your direction, sent ${place.fromEnd === 1 ? 'in the last message' : `${place.fromEnd} messages from the end`}, where the narrator heeds it`
              : 'your direction, cut in the middle to fit the window',
        }
      : null;
  if (noteBlock && place?.at === 'head') blocks.push(noteBlock);
  const premise = part('premise');
  if (premise)
    blocks.push({
      kind: 'premise',
      title: 'Premise',
      tokens: premise.tokens,
      included: premise.fit,
      reason: premise.fit === 'full' ? 'pinned: always sent' : 'pinned, cut in the middle to fit the window',
    });
  blocks.push(...input.cards.head);
  const memory = part('memory');
  if (input.hasMemory && memory)
    blocks.push({
      kind: 'memory',
      title: 'Story memory',
      tokens: memory.fit === 'dropped' ? assembled.memoryTokens : memory.tokens,
      included: memory.fit,
      reason:
        memory.fit === 'full'
          ? 'the turns before these, summarised'
          : memory.fit === 'partial'
            ? 'oldest sentences left out to keep the last turns verbatim'
            : 'no room: the last turns come first',
    });
  input.window.forEach((message, i) => {
    const sent = i >= assembled.droppedTurns;
    if (noteBlock && place?.at === 'turn' && i - assembled.droppedTurns === place.index) blocks.push(noteBlock);
    blocks.push({
      kind: 'turn',
      title: turnTitle(message),
      tokens: sent ? assembled.turnTokens[i - assembled.droppedTurns] : input.count(message.content),
      included: sent ? 'full' : 'dropped',
      reason: sent ? 'recent turn, verbatim' : 'no room: older turns give way first (the memory will fold them in)',
      messageId: message.id,
    });
  });
  if (noteBlock && place?.at === 'tail') blocks.push(noteBlock);
  blocks.push(...(input.facts ?? []), ...(input.passages ?? []), ...input.cards.tail);
  const action = part('action');
  if (action)
    blocks.push({
      kind: 'action',
      title: input.opening ? 'Opening instruction' : 'Your action',
      tokens: action.tokens,
      included: action.fit,
      reason: action.fit === 'full' ? 'always sent, last' : 'cut in the middle to fit the window',
    });
  return {
    blocks,
    promptTokens: assembled.promptTokens,
    outputTokens: input.outputTokens,
    windowTokens: input.windowTokens,
    cardBudgetTokens: input.cardBudgetTokens,
    ...(input.recallBudgetTokens !== undefined ? { recallBudgetTokens: input.recallBudgetTokens } : {}),
  };
}
