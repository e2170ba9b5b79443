// What a fake summarising model lists as the story bible's facts, for the API tests and benchmarks
// whose fake provider answers summaries: the facts the turns of the request's transcript state,
// found by the builtin narrator's rules (as a model asked for them would list them), as the FACTS
// section a summary answer ends with. Reads the transcript as the fold writes it ("Player (turn 12): …").
import { extractFacts } from '../ai/llm/builtin/facts';
import { factsSection } from '../ai/llm/summary-answer';

const TRANSCRIPT_LINE = /^(Player|Narrator) \(turn (\d+)\): (.*)$/gm;

/** The FACTS section a model would answer for the summary request whose user message is `prompt`. */
export function listedFacts(prompt: string): string {
  const turns = [...prompt.matchAll(TRANSCRIPT_LINE)].map((m) => ({
    role: m[1] === 'Player' ? ('user' as const) : ('assistant' as const),
    turn: Number(m[2]),
    content: m[3],
  }));
  return factsSection(extractFacts(turns));
}
