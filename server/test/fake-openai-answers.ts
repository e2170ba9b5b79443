// What the local fakes of OpenAI's APIs (speech, embeddings, images) answer alike: a JSON body, an
// error in OpenAI's `{error: {message, type, param, code}}` shape with the type OpenAI gives each
// status, and a wrong key shown back masked as OpenAI shows it.
import type { ServerResponse } from 'node:http';

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
