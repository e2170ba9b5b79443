// The streaming benchmarks' fake OpenAI-compatible provider, run as its own process
// (`node --import tsx scripts/bench/lib/fake-openai.ts [ttftMs] [words] [chunkMs] [apiKey]`) so
// its streaming work competes with neither the app's event loop nor the load generator's. It
// prints its base URL (ending in /v1) as the first stdout line.
// POST /v1/chat/completions speaks OpenAI's chat-completions wire format: with `stream: true`,
// `data: {chunk}` lines (a role chunk, then one word per chunk in choices[0].delta.content every
// chunkMs after ttftMs, on a fixed schedule, a chunk with finish_reason, a usage chunk when
// stream_options.include_usage, then `data: [DONE]`); without it one JSON completion (the app's
// memory-summary and title calls). POST /__bench/config {ttftMs?, words?, chunkMs?} changes the
// timing for the next requests (setup and story growth run with 0 delays); GET /__bench/stats
// answers the counts. It keeps no per-request state after a response ends, so a 10-minute soak
// does not grow it. GET /__bench/log answers the request log of bench:abuse: how many chat
// requests came (streamed or not), their bytes, and the largest request body whole (one body at
// most is kept, to count its prompt's tokens); POST /__bench/log/reset starts it again.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Timing {
  ttftMs: number;
  words: number;
  chunkMs: number;
}

const [ttftArg, wordsArg, chunkArg, keyArg] = process.argv.slice(2);
const timing: Timing = {
  ttftMs: Number(ttftArg ?? 200),
  words: Number(wordsArg ?? 150),
  chunkMs: Number(chunkArg ?? 5),
};
const API_KEY = keyArg ?? 'sk-bench';
const stats = { streams: 0, completions: 0, active: 0, rejected: 0 };
/** The request log (bench:abuse): counts and sizes since the last reset, and the largest body. */
const requestLog = { requests: 0, streamed: 0, requestBytes: 0, largestBytes: 0, largestBody: '' };
function logRequest(raw: string): void {
  const bytes = Buffer.byteLength(raw);
  requestLog.requests += 1;
  if (raw.includes('"stream":true')) requestLog.streamed += 1;
  requestLog.requestBytes += bytes;
  if (bytes > requestLog.largestBytes) {
    requestLog.largestBytes = bytes;
    requestLog.largestBody = raw;
  }
}

const PROSE = (
  'The rain drums on the slate roofs of the harbour town while lanterns sway above the wet cobbles and the ' +
  'smell of tar and salt drifts in from the quay where the night watch trades rumours about a ship with black sails'
).split(' ');
const ENDING = ['What', 'do', 'you', 'do?'];
const SUMMARY =
  `${'You crossed the harbour at night, bargained with the harbour master, lost the ledger and found it again in the chapel. '.repeat(20)}`.trim();

/** The reply as one-word pieces, ending in a question so the app's sentence tidying keeps all of it. */
function replyPieces(words: number): string[] {
  const body = Array.from({ length: Math.max(0, words - ENDING.length) }, (_, i) => PROSE[i % PROSE.length]);
  const all = [...body, ...ENDING].slice(-Math.max(1, words));
  return all.map((word, i) => (i < all.length - 1 ? `${word} ` : word));
}

/** Serialised SSE lines for one model name and timing, built once: the hot path only writes strings. */
interface Wire {
  role: string;
  pieces: string[];
  finish: string;
  usage: string;
  text: string;
}
const wires = new Map<string, Wire>();
function wireFor(model: string, withUsage: boolean): Wire {
  const key = `${model}\u0000${timing.words}\u0000${withUsage}`;
  const cached = wires.get(key);
  if (cached) return cached;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finish: string | null) => {
    const body: Record<string, unknown> = {
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    };
    // OpenAI sends `usage: null` on every chunk but the last when usage was asked for.
    if (withUsage) body.usage = null;
    return `data: ${JSON.stringify(body)}\n\n`;
  };
  const pieces = replyPieces(timing.words);
  const completion = timing.words + 2;
  const usage = { prompt_tokens: 1500, completion_tokens: completion, total_tokens: 1500 + completion };
  const wire: Wire = {
    role: chunk({ role: 'assistant', content: '' }, null),
    pieces: pieces.map((piece) => chunk({ content: piece }, null)),
    finish: chunk({}, 'stop'),
    usage: withUsage
      ? `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`
      : '',
    text: pieces.join(''),
  };
  wires.set(key, wire);
  return wire;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

function stream(res: ServerResponse, wire: Wire, chunkMs: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(wire.role);
  let next = 0;
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const finish = () => {
    stats.active -= 1;
    if (closed) return;
    res.end(`${wire.finish}${wire.usage}data: [DONE]\n\n`);
  };
  // Piece i is due chunkMs * i after the first, like a model writing at a steady rate: a timer that
  // fires late (this process shares the machine with the app and the load generator) sends every
  // piece due by then in one write, instead of pushing all the later pieces back by its lateness.
  const startedAt = performance.now();
  const tick = () => {
    if (closed) return finish();
    const due =
      chunkMs > 0
        ? Math.min(wire.pieces.length, Math.floor((performance.now() - startedAt) / chunkMs) + 1)
        : wire.pieces.length;
    res.write(due - next === 1 ? wire.pieces[next] : wire.pieces.slice(next, due).join(''));
    next = due;
    if (next === wire.pieces.length) return finish();
    setTimeout(tick, Math.max(0, startedAt + next * chunkMs - performance.now()));
  };
  tick();
}

async function completions(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
  if ((req.headers.authorization ?? '') !== `Bearer ${API_KEY}`) {
    stats.rejected += 1;
    return sendJson(res, 401, {
      error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
    });
  }
  const body = JSON.parse(raw) as { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean } };
  const model = body.model ?? 'bench-model';
  // Read the timing now: a config change during a request's wait applies to the next request.
  const { ttftMs, chunkMs } = timing;
  if (body.stream) {
    stats.streams += 1;
    stats.active += 1;
    const wire = wireFor(model, body.stream_options?.include_usage === true);
    if (ttftMs > 0) setTimeout(() => stream(res, wire, chunkMs), ttftMs);
    else stream(res, wire, chunkMs);
    return;
  }
  stats.completions += 1;
  if (ttftMs > 0) await new Promise((resolve) => setTimeout(resolve, ttftMs));
  sendJson(res, 200, {
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: SUMMARY }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1500, completion_tokens: 300, total_tokens: 1800 },
  });
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      logRequest(raw);
      completions(req, res, raw).catch((error: unknown) =>
        sendJson(res, 400, { error: { message: String(error), type: 'invalid_request_error' } }),
      );
    } else if (req.method === 'POST' && req.url === '/__bench/config') {
      Object.assign(timing, JSON.parse(raw) as Partial<Timing>);
      sendJson(res, 200, timing);
    } else if (req.method === 'GET' && req.url === '/__bench/stats') {
      sendJson(res, 200, { ...stats, timing });
    } else if (req.method === 'GET' && req.url === '/__bench/log') {
      sendJson(res, 200, requestLog);
    } else if (req.method === 'POST' && req.url === '/__bench/log/reset') {
      Object.assign(requestLog, { requests: 0, streamed: 0, requestBytes: 0, largestBytes: 0, largestBody: '' });
      sendJson(res, 200, requestLog);
    } else {
      sendJson(res, 404, { error: { message: 'not found' } });
    }
  });
});
// Streams idle between turns on the app's pooled connections; Node's default 5 s would close them.
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
