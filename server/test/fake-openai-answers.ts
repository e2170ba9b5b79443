// What the local fakes of OpenAI's APIs (speech, embeddings, images) do alike: read each request's
// whole body before answering it, answer a JSON body, an error in OpenAI's `{error: {message, type,
// param, code}}` shape with the type OpenAI gives each status, and show a wrong key back masked as
// OpenAI shows it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** OpenAI's error body for `status`. */
export function openAiError(message: string, status: number) {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: status === 401 ? 'invalid_api_key' : null } };
}

export function sendOpenAiError(res: ServerResponse, status: number, message: string) {
  json(res, status, openAiError(message, status));
}

/** How OpenAI shows a wrong key back: its first and last characters only. */
export function masked(key: string): string {
  return key.length > 8 ? `${key.slice(0, 6)}***${key.slice(-2)}` : '***';
}

/**
 * An HTTP server that hands `handle` each request with its whole body; a handler that throws
 * answers `failed` (a 500 in the fake's own error shape) unless it had started answering.
 */
export function bodyServer(
  handle: (req: IncomingMessage, res: ServerResponse, body: Buffer) => Promise<void>,
  failed: (res: ServerResponse, error: unknown) => void,
): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch((error: unknown) => {
        if (!res.headersSent) failed(res, error);
      });
    });
  });
}
