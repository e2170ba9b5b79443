// A fake OpenAI-compatible narrator for the browser tests (the API suites' wire-protocol fake). It
// prints its base URL on the first line of stdout for e2e/support/e2e-server.mjs. It streams a short reply, and fails on demand: an action containing FAIL_ONCE gets
// one HTTP 500 (the retry then succeeds); DROP_ONCE gets a stream cut after a few words, once;
// SLOWLY (in the action or the premise) gets its reply at a crawl (about 5 s), long enough to
// reload the page mid-reply.
import { startFakeLlmServer, type Behaviour, type RecordedRequest } from '../../server/test/fake-llm-server';

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

const fake = await startFakeLlmServer({ apiKey: FAKE_LLM_API_KEY });
fake.fallback = (request): Behaviour => {
  const action = lastUserText(request);
  if (once('FAIL_ONCE', action)) return { kind: 'status', status: 500 };
  if (once('DROP_ONCE', action))
    return { kind: 'drop', text: 'The floor gives way beneath you and the dark rushes up', afterChunks: 3 };
  const echo =
    action.includes('FAIL_ONCE') || action.includes('DROP_ONCE')
      ? 'Second time lucky: the narrator answers.'
      : 'The narrator answers.';
  // Anywhere in the prompt, so a premise can slow its opening down too.
  const chunkDelayMs = JSON.stringify(request.body.messages).includes('SLOWLY') ? 450 : 40;
  return {
    kind: 'ok',
    text: `${echo} Lanterns sway as the tide rolls in, and somewhere a bell rings twice. What do you do next?`,
    chunkDelayMs,
    chunkWords: 2,
  };
};
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
process.on('SIGINT', () => void fake.close().then(() => process.exit(0)));
console.log(fake.baseUrl);
