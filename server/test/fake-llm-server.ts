// A local stand-in for the paid LLM APIs on 127.0.0.1, speaking their real wire protocols: OpenAI
// chat completions (POST /v1/chat/completions, JSON and SSE with usage chunks) and Anthropic
// messages (POST /v1/messages, JSON and SSE events). It checks the key like the real services and
// can fail the way they do: an HTTP error status, a hang, or a stream dropped midway. The API
// suites start it in their process; the browser tests' narrator (e2e/support/fake-llm.ts) and the
// streaming benchmarks' provider (scripts/bench/lib/fake-openai.ts) run it as a process of its own,
// the latter with replies written on a steady schedule (`chunkEveryMs`), no request kept
// (`keepRequests: false`) and control routes of its own (`controlRoutes`).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  anthropicUsage,
  type FakeUsage,
  openAiUsage,
  anthropicEvent,
  anthropicMessage,
  openAiChunk,
  openAiWire,
  sendError,
  words,
  writeSteadily,
} from './fake-llm-wire';
import { listenOnLoopback } from './listen-on-loopback';

export type Behaviour =
  | {
      kind: 'ok';
      text?: string;
      usage?: FakeUsage;
      finish?: string;
      ttftMs?: number;
      /** A pause after each chunk (API and browser tests). */
      chunkDelayMs?: number;
      /** Instead: chunk i due chunkEveryMs · i after the first, late ones sent together (OpenAI only; the benchmarks' steady model). */
      chunkEveryMs?: number;
      chunkWords?: number;
      /** Answers only once this settles: the request is in flight for as long as a test needs. */
      hold?: Promise<unknown>;
    }
  | { kind: 'status'; status: number; message?: string }
  | { kind: 'hang' }
  | { kind: 'drop'; text?: string; afterChunks?: number }
  /** A 200 whose body is not what the protocol promises: broken JSON, or an event stream of it. */
  | { kind: 'garbage'; body?: string; contentType?: string }
  /** A few words, then the provider's own error event in the stream (overloaded, rate limited). */
  | { kind: 'stream-error'; message: string; text?: string; afterChunks?: number };

export interface RecordedRequest {
  protocol: 'openai' | 'anthropic';
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    stream?: boolean;
    max_tokens?: number;
    max_completion_tokens?: number;
    temperature?: number;
    /** Asked by the loop guard's second call (OpenAI-compatible), with DRY's when LOOP_DRY is on. */
    frequency_penalty?: number;
    dry_multiplier?: number;
    stream_options?: { include_usage?: boolean };
    system?: string | Array<{ type: string; text: string }>;
    messages: Array<{ role: string; content: string | Array<{ type: string; text: string }> }>;
  };
}

export interface FakeLlmServer {
  /** Base URL to configure as LLM_BASE_URL (ends in /v1). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Behaviours used by the next requests, in order; afterwards `fallback`. */
  queue: Behaviour[];
  fallback: Behaviour | ((request: RecordedRequest) => Behaviour);
  /** Connections the fake saw closed by the client before it answered (hangs). */
  abandoned: number;
  /** TCP connections opened to the fake so far (keep-alive reuse keeps this low). */
  connections: number;
  /** Replies so far: streamed, whole, streaming now, and requests refused for their key. */
  stats: { streams: number; completions: number; active: number; rejected: number };
  /** Request sizes since the last reset (`requestLog` below), kept even when the requests are not. */
  log: RequestLog;
  close(): Promise<void>;
}

/** How many requests came, streamed or not, their bytes, and the largest body whole (one body at most). */
export interface RequestLog {
  requests: number;
  streamed: number;
  requestBytes: number;
  largestBytes: number;
  largestBody: string;
}

export const emptyRequestLog = (): RequestLog => ({
  requests: 0,
  streamed: 0,
  requestBytes: 0,
  largestBytes: 0,
  largestBody: '',
});

export interface FakeLlmOptions {
  apiKey?: string;
  model?: string;
  /** A fixed port (0, the default: any free one). */
  port?: number;
  /** false: `requests` stays empty, so a long benchmark does not grow the fake. */
  keepRequests?: boolean;
  /** Extra JSON routes, by 'METHOD /path', for a fake run as its own process: the request body in, the answer out. */
  controlRoutes?: Record<string, (body: string) => unknown>;
}

export const DEFAULT_FAKE_TEXT =
  'The lantern gutters as you step inside. Somewhere above, a floorboard creaks. What do you do?';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeLlmServer(options: FakeLlmOptions = {}): Promise<FakeLlmServer> {
  const apiKey = options.apiKey ?? 'sk-test-key';
  const fake: FakeLlmServer = {
    baseUrl: '',
    requests: [],
    queue: [],
    fallback: { kind: 'ok' },
    abandoned: 0,
    connections: 0,
    stats: { streams: 0, completions: 0, active: 0, rejected: 0 },
    log: emptyRequestLog(),
    close: async () => {},
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });

  function logRequest(raw: string, streamed: boolean) {
    const bytes = Buffer.byteLength(raw);
    fake.log.requests += 1;
    if (streamed) fake.log.streamed += 1;
    fake.log.requestBytes += bytes;
    if (bytes > fake.log.largestBytes) {
      fake.log.largestBytes = bytes;
      fake.log.largestBody = raw;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
    const protocol = req.url === '/v1/chat/completions' ? 'openai' : req.url === '/v1/messages' ? 'anthropic' : null;
    const control = options.controlRoutes?.[`${req.method} ${req.url}`];
    if (control) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(control(raw)));
      return;
    }
    if (!protocol || req.method !== 'POST') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    let parsed: RecordedRequest['body'];
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      return sendError(res, protocol, 400, String(error));
    }
    const recorded: RecordedRequest = { protocol, headers: req.headers, body: parsed };
    if (options.keepRequests !== false) fake.requests.push(recorded);
    logRequest(raw, parsed.stream === true);
    const presented =
      protocol === 'openai' ? (req.headers.authorization ?? '').replace(/^Bearer /, '') : req.headers['x-api-key'];
    if (presented !== apiKey) {
      fake.stats.rejected += 1;
      sendError(res, protocol, 401, protocol === 'openai' ? 'Incorrect API key provided.' : 'invalid x-api-key');
      return;
    }
    const next = fake.queue.shift() ?? (typeof fake.fallback === 'function' ? fake.fallback(recorded) : fake.fallback);
    if (next.kind === 'status')
      return sendError(
        res,
        protocol,
        next.status,
        next.message ?? 'The server had an error while processing your request.',
      );
    if (next.kind === 'hang') {
      res.on('close', () => {
        fake.abandoned += 1;
      });
      return;
    }
    const model = recorded.body.model;
    if (next.kind === 'garbage') {
      const type = next.contentType ?? (recorded.body.stream ? 'text/event-stream' : 'application/json');
      res
        .writeHead(200, { 'content-type': type })
        .end(
          next.body ??
            (recorded.body.stream ? 'data: {"choices": [{"delta": {"content": "Hel\n\n' : '{"choices": [{"mess'),
        );
      return;
    }
    const text = next.text ?? DEFAULT_FAKE_TEXT;
    if (next.kind === 'stream-error') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const pieces = words(text, 1).slice(0, next.afterChunks ?? 3);
      const error = { type: 'error', error: { type: 'overloaded_error', message: next.message } };
      if (protocol === 'openai') {
        for (const piece of pieces)
          res.write(`data: ${JSON.stringify(openAiChunk(model, { content: piece }, null))}\n\n`);
        res.end(`data: ${JSON.stringify({ error: { message: next.message, code: 502 } })}\n\n`);
      } else {
        res.write(
          anthropicEvent('message_start', {
            type: 'message_start',
            message: anthropicMessage(model, [], null, { input_tokens: 10, output_tokens: 1 }),
          }),
        );
        for (const piece of pieces)
          res.write(
            anthropicEvent('content_block_delta', {
              type: 'content_block_delta',
              index: 0,
              delta: { type: 'text_delta', text: piece },
            }),
          );
        res.end(anthropicEvent('error', error));
      }
      return;
    }
    if (next.kind === 'drop') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const pieces = words(text, 1).slice(0, next.afterChunks ?? 3);
      if (protocol === 'openai')
        for (const piece of pieces)
          res.write(`data: ${JSON.stringify(openAiChunk(model, { content: piece }, null))}\n\n`);
      else {
        res.write(
          anthropicEvent('message_start', {
            type: 'message_start',
            message: anthropicMessage(model, [], null, { input_tokens: 10, output_tokens: 1 }),
          }),
        );
        res.write(
          anthropicEvent('content_block_start', {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: '' },
          }),
        );
        for (const piece of pieces)
          res.write(
            anthropicEvent('content_block_delta', {
              type: 'content_block_delta',
              index: 0,
              delta: { type: 'text_delta', text: piece },
            }),
          );
      }
      await sleep(20);
      res.socket?.destroy();
      return;
    }
    const usage = next.usage ?? { input: 123, output: 45 };
    if (next.ttftMs) await sleep(next.ttftMs);
    if (next.hold) await next.hold;
    if (!recorded.body.stream) {
      fake.stats.completions += 1;
      const body =
        protocol === 'openai'
          ? {
              id: 'chatcmpl-fake',
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model,
              choices: [
                { index: 0, message: { role: 'assistant', content: text }, finish_reason: next.finish ?? 'stop' },
              ],
              usage: openAiUsage(usage),
            }
          : anthropicMessage(model, [{ type: 'text', text }], next.finish ?? 'end_turn', anthropicUsage(usage));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    fake.stats.streams += 1;
    fake.stats.active += 1;
    const ended = () => {
      fake.stats.active -= 1;
    };
    if (protocol === 'openai') {
      const wire = openAiWire({
        model,
        text,
        chunkWords: next.chunkWords ?? 1,
        finish: next.finish ?? 'stop',
        usage,
        withUsage: recorded.body.stream_options?.include_usage === true,
      });
      if (next.chunkEveryMs !== undefined) return writeSteadily(res, wire, next.chunkEveryMs, ended);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(wire.role);
      for (const piece of wire.pieces) {
        res.write(piece);
        if (next.chunkDelayMs) await sleep(next.chunkDelayMs);
      }
      ended();
      res.end(wire.tail);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const pieces = words(text, next.chunkWords ?? 1);
    res.write(
      anthropicEvent('message_start', {
        type: 'message_start',
        message: anthropicMessage(model, [], null, anthropicUsage(usage, 1)),
      }),
    );
    res.write(
      anthropicEvent('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      }),
    );
    res.write(anthropicEvent('ping', { type: 'ping' }));
    for (const piece of pieces) {
      res.write(
        anthropicEvent('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: piece },
        }),
      );
      if (next.chunkDelayMs) await sleep(next.chunkDelayMs);
    }
    res.write(anthropicEvent('content_block_stop', { type: 'content_block_stop', index: 0 }));
    res.write(
      anthropicEvent('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: next.finish ?? 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.output },
      }),
    );
    res.write(anthropicEvent('message_stop', { type: 'message_stop' }));
    ended();
    res.end();
  }

  server.on('connection', () => {
    fake.connections += 1;
  });
  // Streams idle between turns on a client's pooled connections; Node's default 5 s would close them.
  server.keepAliveTimeout = 60_000;
  fake.baseUrl = `${(await listenOnLoopback(server, options.port)).url}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** Text of a message's content, whichever shape the provider package sent. */
export function contentText(
  content: RecordedRequest['body']['messages'][number]['content'] | RecordedRequest['body']['system'],
): string {
  if (content === undefined) return '';
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}
