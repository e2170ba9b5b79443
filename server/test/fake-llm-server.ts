// A local stand-in for the paid LLM APIs on 127.0.0.1, speaking their real wire protocols: OpenAI
// chat completions (POST /v1/chat/completions, JSON and SSE with usage chunks) and Anthropic
// messages (POST /v1/messages, JSON and SSE events). It checks the key like the real services and
// can fail the way they do: an HTTP error status, a hang, or a stream dropped midway.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour =
  | {
      kind: 'ok';
      text?: string;
      usage?: { input: number; output: number };
      finish?: string;
      ttftMs?: number;
      chunkDelayMs?: number;
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
  close(): Promise<void>;
}

export const DEFAULT_FAKE_TEXT =
  'The lantern gutters as you step inside. Somewhere above, a floorboard creaks. What do you do?';

function words(text: string, perChunk: number): string[] {
  const pieces = text.match(/\S+\s*/g) ?? [''];
  const chunks: string[] = [];
  for (let i = 0; i < pieces.length; i += perChunk) chunks.push(pieces.slice(i, i + perChunk).join(''));
  return chunks;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeLlmServer(options: { apiKey?: string; model?: string } = {}): Promise<FakeLlmServer> {
  const apiKey = options.apiKey ?? 'sk-test-key';
  const fake: FakeLlmServer = {
    baseUrl: '',
    requests: [],
    queue: [],
    fallback: { kind: 'ok' },
    abandoned: 0,
    connections: 0,
    close: async () => {},
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
    const protocol = req.url === '/v1/chat/completions' ? 'openai' : req.url === '/v1/messages' ? 'anthropic' : null;
    if (!protocol || req.method !== 'POST') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const recorded: RecordedRequest = { protocol, headers: req.headers, body: JSON.parse(raw) };
    fake.requests.push(recorded);
    const presented =
      protocol === 'openai' ? (req.headers.authorization ?? '').replace(/^Bearer /, '') : req.headers['x-api-key'];
    if (presented !== apiKey) {
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
              usage: {
                prompt_tokens: usage.input,
                completion_tokens: usage.output,
                total_tokens: usage.input + usage.output,
              },
            }
          : anthropicMessage(model, [{ type: 'text', text }], next.finish ?? 'end_turn', {
              input_tokens: usage.input,
              output_tokens: usage.output,
            });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const pieces = words(text, next.chunkWords ?? 1);
    if (protocol === 'openai') {
      res.write(`data: ${JSON.stringify(openAiChunk(model, { role: 'assistant', content: '' }, null))}\n\n`);
      for (const piece of pieces) {
        res.write(`data: ${JSON.stringify(openAiChunk(model, { content: piece }, null))}\n\n`);
        if (next.chunkDelayMs) await sleep(next.chunkDelayMs);
      }
      res.write(`data: ${JSON.stringify(openAiChunk(model, {}, next.finish ?? 'stop'))}\n\n`);
      const usageChunk = {
        ...openAiChunk(model, {}, null),
        choices: [],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
        },
      };
      res.write(`data: ${JSON.stringify(usageChunk)}\n\ndata: [DONE]\n\n`);
    } else {
      res.write(
        anthropicEvent('message_start', {
          type: 'message_start',
          message: anthropicMessage(model, [], null, { input_tokens: usage.input, output_tokens: 1 }),
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
    }
    res.end();
  }

  server.on('connection', () => {
    fake.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

function sendError(res: ServerResponse, protocol: 'openai' | 'anthropic', status: number, message: string) {
  const type = status === 401 ? 'authentication_error' : status === 404 ? 'not_found_error' : 'api_error';
  const body =
    protocol === 'openai' ? { error: { message, type, code: null } } : { type: 'error', error: { type, message } };
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function openAiChunk(model: string, delta: object, finish: string | null) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

function anthropicMessage(
  model: string,
  content: object[],
  stopReason: string | null,
  usage: { input_tokens: number; output_tokens: number },
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

function anthropicEvent(event: string, data: object): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Text of a message's content, whichever shape the provider package sent. */
export function contentText(
  content: RecordedRequest['body']['messages'][number]['content'] | RecordedRequest['body']['system'],
): string {
  if (content === undefined) return '';
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}
