// A fake narrator that falls into a loop, as models do: it answers every turn with the same
// paragraph (or a reply cycling one sentence) until it is asked differently, by the loop guard's
// instruction in the last user message. Its other answers are varied prose, so a guard that flags
// them too is caught. A fallback for the fake LLM server, on either protocol.
import type { Behaviour, RecordedRequest } from './fake-llm-server';
import { proseWriter } from './varied-prose';

/** The words the loop guard's second call carries (domains/story/loop-guard.ts). */
const ASKED_AGAIN = 'repeated the story';

/** The last user message's text, as either protocol carries it. */
export function lastUserText(request: RecordedRequest): string {
  const last = request.body.messages.at(-1);
  if (!last || last.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : last.content.map((part) => part.text).join('');
}

export const askedAgain = (request: RecordedRequest) => lastUserText(request).includes(ASKED_AGAIN);

export interface RepeatingNarrator {
  /** The paragraph it is stuck on. */
  stuck: string;
  /** Its replies in the order written. */
  replies: string[];
  fallback(request: RecordedRequest): Behaviour;
}

/**
 * `stuck`: the text it repeats; `always`: it repeats even when asked again. The opening (no history
 * to repeat) is the stuck paragraph too, so the second turn is the first loop.
 */
export function repeatingNarrator(
  options: { seed?: number; stuck?: string; always?: boolean } = {},
): RepeatingNarrator {
  const writer = proseWriter(options.seed ?? 27);
  const stuck = options.stuck ?? writer.reply(7);
  const narrator: RepeatingNarrator = {
    stuck,
    replies: [],
    fallback(request) {
      const text = askedAgain(request) && !options.always ? writer.reply() : stuck;
      narrator.replies.push(text);
      return { kind: 'ok', text };
    },
  };
  return narrator;
}
