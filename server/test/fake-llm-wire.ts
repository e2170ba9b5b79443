// The wire formats of the fake LLM server (fake-llm-server.ts): OpenAI chat-completion chunks,
// Anthropic message events and both services' error bodies, and an OpenAI reply serialised once
// into SSE strings and written on a steady schedule (the streaming benchmarks' pacing: the fake's
// hot path then only writes strings, so its own work barely competes with the app it measures).
import type { ServerResponse } from 'node:http';

export type Protocol = 'openai' | 'anthropic';

/** A text cut into chunks of `perChunk` words, each with the spaces that follow it. */
export function words(text: string, perChunk: number): string[] {
  const pieces = text.match(/\S+\s*/g) ?? [''];
  const chunks: string[] = [];
  for (let i = 0; i < pieces.length; i += perChunk) chunks.push(pieces.slice(i, i + perChunk).join(''));
  return chunks;
}

export function sendError(res: ServerResponse, protocol: Protocol, status: number, message: string): void {
  const type = status === 401 ? 'authentication_error' : status === 404 ? 'not_found_error' : 'api_error';
  const body =
    protocol === 'openai' ? { error: { message, type, code: null } } : { type: 'error', error: { type, message } };
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export function openAiChunk(model: string, delta: object, finish: string | null) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

export function anthropicMessage(
  model: string,
  content: object[],
  stopReason: string | null,
  usage: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number },
) {
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
}

export function anthropicEvent(event: string, data: object): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** An OpenAI streamed reply as the SSE strings it is written in. */
export interface OpenAiWire {
  role: string;
  pieces: string[];
  /** The finish chunk, the usage chunk and the end marker. */
  tail: string;
}

/** Tokens a fake answer reports; `cached` of the input came from the prompt cache (0 unless a test says). */
export interface FakeUsage {
  input: number;
  output: number;
  cached?: number;
}

/** OpenAI's usage object: prompt_tokens counts the cached ones, which prompt_tokens_details names. */
export function openAiUsage(usage: FakeUsage) {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cached ?? 0, audio_tokens: 0 },
  };
}

/** Anthropic's usage object: input_tokens is only what was neither read from nor written to the cache. */
export function anthropicUsage(usage: FakeUsage, outputTokens = usage.output) {
  const cached = usage.cached ?? 0;
  return {
    input_tokens: usage.input - cached,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: outputTokens,
  };
}

export interface OpenAiWireSpec {
  model: string;
  text: string;
  chunkWords: number;
  finish: string;
  usage: FakeUsage;
  /** The request asked for usage (stream_options.include_usage): every chunk but the last says `usage: null`, as OpenAI's do. */
  withUsage: boolean;
}

const wires = new Map<string, OpenAiWire>();
/** Built wires are kept (a few replies repeat thousands of times in a benchmark); at most this many. */
const MAX_WIRES = 64;

/** The reply's SSE strings, built once per distinct reply. */
export function openAiWire(spec: OpenAiWireSpec): OpenAiWire {
  const key = JSON.stringify(spec);
  const cached = wires.get(key);
  if (cached) return cached;
  const { model, withUsage } = spec;
  const line = (body: object) => `data: ${JSON.stringify(body)}\n\n`;
  const chunk = (delta: object, finish: string | null) =>
    line(withUsage ? { ...openAiChunk(model, delta, finish), usage: null } : openAiChunk(model, delta, finish));
  const usage = openAiUsage(spec.usage);
  const wire: OpenAiWire = {
    role: chunk({ role: 'assistant', content: '' }, null),
    pieces: words(spec.text, spec.chunkWords).map((piece) => chunk({ content: piece }, null)),
    tail: `${chunk({}, spec.finish)}${line({ ...openAiChunk(model, {}, null), choices: [], usage })}data: [DONE]\n\n`,
  };
  if (wires.size >= MAX_WIRES) wires.delete(wires.keys().next().value!);
  wires.set(key, wire);
  return wire;
}

/**
 * Writes a wire with piece i due `everyMs * i` after the first, like a model writing at a steady
 * rate: a timer that fires late (the fake shares the machine with the app and the load generator)
 * sends every piece due by then in one write, instead of pushing all the later pieces back by its
 * lateness. Stops writing when the client goes; `done` runs once either way.
 */
export function writeSteadily(res: ServerResponse, wire: OpenAiWire, everyMs: number, done: () => void): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(wire.role);
  let next = 0;
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const finish = () => {
    done();
    if (!closed) res.end(wire.tail);
  };
  const startedAt = performance.now();
  const tick = () => {
    if (closed) return finish();
    const due =
      everyMs > 0
        ? Math.min(wire.pieces.length, Math.floor((performance.now() - startedAt) / everyMs) + 1)
        : wire.pieces.length;
    res.write(due - next === 1 ? wire.pieces[next] : wire.pieces.slice(next, due).join(''));
    next = due;
    if (next === wire.pieces.length) return finish();
    setTimeout(tick, Math.max(0, startedAt + next * everyMs - performance.now()));
  };
  tick();
}
