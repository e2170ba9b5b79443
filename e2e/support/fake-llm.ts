// A fake OpenAI-compatible narrator for the browser tests (the API suites' wire-protocol fake). It
// prints its base URL on the first line of stdout for e2e/support/e2e-server.mjs. It streams a short reply, and fails on demand: an action containing FAIL_ONCE gets
// one HTTP 500 (the retry then succeeds); DROP_ONCE gets a stream cut after a few words, once;
// SLOWLY (in the action or the premise) gets its reply at a crawl (about 5 s), long enough to
// reload the page mid-reply. Its replies are varied prose, as a model's are; in a story whose premise
// says STUCK_IN_A_LOOP it answers every turn with the same paragraph until the loop guard asks again,
// and then takes a second and a half to answer, so the page's 'rewriting…' can be seen.
import { startFakeLlmServer, type Behaviour, type RecordedRequest } from '../../server/test/fake-llm-server';
import { askedAgain } from '../../server/test/repeating-narrator';
import { proseWriter } from '../../server/test/varied-prose';

export const FAKE_LLM_API_KEY = 'sk-e2e-key';
const failedOnce = new Set<string>();

function lastUserText(request: RecordedRequest): string {
  const last = [...request.body.messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  return typeof last.content === 'string' ? last.content : last.content.map((part) => part.text).join(' ');
}

function once(marker: string, text: string): boolean {
  if (!text.includes(marker) || failedOnce.has(text)) return false;
  failedOnce.add(text);
  return true;
}

const prose = proseWriter(2027);
/** A few varied sentences ending with the question the journeys wait for. */
const writer = {
  reply: (sentences: number) => prose.reply(sentences).replace(/What do you do\?$/, 'What do you do next?'),
};
/** The paragraph a looping story is stuck on. */
const STUCK =
  'The tide rolls in under a low grey sky, and the lanterns along the pier sway in the wind. A bell rings twice somewhere beyond the harbour wall. What do you do next?';

/**
 * Usage shaped as OpenAI reports it: the prompt's tokens (about four characters each), of which the
 * cache served whole 128-token blocks of the unchanged prefix (here the system prompt, which every
 * turn repeats; OpenAI also waits for 1,024 tokens, which these short prompts never reach).
 */
function openAiLikeUsage(request: RecordedRequest) {
  const tokens = (text: string) => Math.ceil(text.length / 4);
  const system = request.body.messages.find((m) => m.role === 'system');
  const input = tokens(JSON.stringify(request.body.messages));
  const prefix = system ? tokens(JSON.stringify(system.content)) : 0;
  const cached = Math.min(input, Math.floor(prefix / 128) * 128);
  return { input, output: 60 + (input % 90), cached };
}

const fake = await startFakeLlmServer({ apiKey: FAKE_LLM_API_KEY });
fake.fallback = (request): Behaviour => {
  const action = lastUserText(request);
  if (once('FAIL_ONCE', action)) return { kind: 'status', status: 500 };
  if (once('DROP_ONCE', action))
    return { kind: 'drop', text: 'The floor gives way beneath you and the dark rushes up', afterChunks: 3 };
  const prompt = JSON.stringify(request.body.messages);
  if (prompt.includes('STUCK_IN_A_LOOP'))
    return askedAgain(request)
      ? { kind: 'ok', text: writer.reply(3), ttftMs: 1500, chunkDelayMs: 40, chunkWords: 2 }
      : { kind: 'ok', text: STUCK, chunkDelayMs: 40, chunkWords: 2 };
  const echo = action.includes('FAIL_ONCE') || action.includes('DROP_ONCE') ? 'Second time lucky: ' : '';
  const usage = openAiLikeUsage(request);
  // Anywhere in the prompt, so a premise can slow its opening down too.
  const slowly = prompt.includes('SLOWLY');
  // A slow reply is a short one: about 5 s at 450 ms for every two words.
  return {
    kind: 'ok',
    text: `${echo}${writer.reply(slowly ? 2 : 3)}`,
    chunkDelayMs: slowly ? 450 : 40,
    chunkWords: 2,
    usage,
  };
};
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
process.on('SIGINT', () => void fake.close().then(() => process.exit(0)));
console.log(fake.baseUrl);
