// OpenAI-compatible embeddings (POST {base}/embeddings, JSON): OpenAI's text-embedding-3-*, and the
// local servers that speak the same protocol (Ollama's /v1, LM Studio, llama.cpp's server). Vectors
// are asked for in base64 (float32, little-endian), as OpenAI's own SDKs ask: a fifth of the JSON of
// plain numbers, and decoded without parsing 1,536 numbers a text on the server's one thread. A
// server that ignores the format (Ollama answers numbers whatever is asked) is read too. The answer
// is validated, never trusted: one finite, non-zero vector per input, each index once, all of one
// dimension; each is then scaled to unit length so that the memory bank's dot product is the cosine.
import { bearer, fail, isRecord, postJson, startCall, type CallContext } from './http';
import {
  EMBEDDING_BATCH_MAX,
  EMBEDDING_DIMENSIONS_MAX,
  type EmbeddingRequest,
  type EmbeddingResult,
  type EmbeddingsConfig,
  type EmbeddingsProvider,
} from './types';

/**
 * A full batch of the widest vectors written out as JSON numbers (about 20 characters each, from a
 * server that ignores base64) is 64 × 8,192 × 20 ≈ 10 MB; anything past three times that is not an
 * answer to our request.
 */
export const MAX_EMBEDDINGS_ANSWER_BYTES = 32 * 1024 * 1024;

/** The request's own rules: breaking them is a bug in the caller, not a provider failure. */
function checkRequest(request: EmbeddingRequest): void {
  const { inputs, timeoutMs } = request;
  if (inputs.length < 1 || inputs.length > EMBEDDING_BATCH_MAX)
    throw new Error(`an embedding call takes 1 to ${EMBEDDING_BATCH_MAX} inputs, not ${inputs.length}`);
  const empty = inputs.findIndex((text) => typeof text !== 'string' || text.length === 0);
  // Providers refuse an empty input with a 400 that would read as a misconfiguration.
  if (empty !== -1) throw new Error(`embedding input ${empty} is empty`);
  if (timeoutMs !== undefined && !(Number.isSafeInteger(timeoutMs) && timeoutMs > 0))
    throw new Error(`an embedding call's timeoutMs must be a whole number above 0, not ${timeoutMs}`);
}

/** A short picture of a value for a log detail: never a whole vector. */
function glimpse(value: unknown): string {
  // JSON would write Infinity (which 1e999 parses to) as null.
  if (typeof value === 'number') return String(value);
  return (JSON.stringify(value) ?? String(value)).slice(0, 120);
}

/**
 * The bytes a base64 text of this length decodes to when every character is of the alphabet. Node's
 * decoder skips characters outside it, so a text holding any decodes to fewer: comparing lengths
 * checks the whole text without a pattern scan over its 8 KB (which cost more than the decoding).
 */
function base64Bytes(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/** An item's embedding as numbers: base64 of float32 values (little-endian), or a JSON list of numbers. */
function componentsOf(raw: unknown, bad: (why: string) => Error): Float32Array | unknown[] {
  if (Array.isArray(raw)) return raw as unknown[];
  if (typeof raw !== 'string') throw bad(`embedding is neither base64 nor a list of numbers: ${glimpse(raw)}`);
  const bytes = Buffer.from(raw, 'base64');
  if (raw.length % 4 !== 0 || bytes.byteLength !== base64Bytes(raw) || bytes.byteLength % 4 !== 0)
    throw bad(`embedding is not base64 of float32 values: ${glimpse(raw)}`);
  // Copied: a Float32Array needs its bytes 4-aligned, which a slice of a pooled Buffer need not be.
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** Numbers parsed from JSON, checked one by one (doubles: a server may answer past float32's range). */
function float64Of(values: unknown[], bad: (why: string) => Error): Float64Array {
  const numbers = new Float64Array(values.length);
  for (let i = 0; i < values.length; i += 1) {
    const x = values[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) throw bad(`component ${i} is not a finite number: ${glimpse(x)}`);
    numbers[i] = x;
  }
  return numbers;
}

/** One item's vector, checked and scaled to unit length; `dimensions` is the batch's, once known. */
function unitVector(raw: unknown, position: number, dimensions: number | null, context: CallContext): Float32Array {
  const bad = (why: string) => fail(context, 'invalid_output', `answer item ${position}: ${why}`);
  const components = componentsOf(raw, bad);
  if (components.length < 1 || components.length > EMBEDDING_DIMENSIONS_MAX)
    throw bad(`embedding has ${components.length} dimensions, outside 1 to ${EMBEDDING_DIMENSIONS_MAX}`);
  if (dimensions !== null && components.length !== dimensions)
    throw bad(`embedding has ${components.length} dimensions where the batch's first has ${dimensions}`);
  // One typed array from here on: the loops below stay monomorphic (a tenth of a millisecond a vector before).
  const values = components instanceof Float32Array ? components : float64Of(components, bad);
  // Scaled by the largest magnitude first, so that huge (finite) components cannot overflow the norm.
  let largest = 0;
  for (let i = 0; i < values.length; i += 1) {
    const x = values[i];
    // x - x is 0 for every finite number, NaN for NaN and the infinities.
    if (x - x !== 0) throw bad(`component ${i} is not a finite number: ${glimpse(x)}`);
    const magnitude = x < 0 ? -x : x;
    if (magnitude > largest) largest = magnitude;
  }
  // A zero vector has no direction: every cosine with it is undefined, so it cannot be ranked.
  if (largest === 0) throw bad('embedding is all zeros');
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) {
    const x = values[i] / largest;
    sum += x * x;
  }
  const scale = 1 / largest / Math.sqrt(sum);
  const vector = new Float32Array(values.length);
  for (let i = 0; i < values.length; i += 1) vector[i] = values[i] * scale;
  return vector;
}

/** The answer's vectors in input order, or invalid_output saying what was wrong with it. */
function vectorsOf(answer: unknown, count: number, context: CallContext): Float32Array[] {
  const data = isRecord(answer) ? answer.data : undefined;
  if (!Array.isArray(data)) throw fail(context, 'invalid_output', `answer has no data list: ${glimpse(answer)}`);
  if (data.length !== count)
    throw fail(context, 'invalid_output', `answer has ${data.length} embeddings for ${count} inputs`);
  const vectors: Array<Float32Array | undefined> = new Array<Float32Array | undefined>(count);
  let dimensions: number | null = null;
  data.forEach((item: unknown, position) => {
    const index = isRecord(item) ? item.index : undefined;
    // The protocol orders items by `index`, not by their place in the list: sorted here, each once.
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count)
      throw fail(
        context,
        'invalid_output',
        `answer item ${position} has index ${glimpse(index)}, not 0 to ${count - 1}`,
      );
    if (vectors[index]) throw fail(context, 'invalid_output', `answer has index ${index} twice`);
    const vector = unitVector((item as Record<string, unknown>).embedding, position, dimensions, context);
    dimensions = vector.length;
    vectors[index] = vector;
  });
  // count items, each index in range and none twice: every slot is filled.
  return vectors as Float32Array[];
}

/** usage.prompt_tokens when it is a count (a reported 0 included); null when a server leaves usage out. */
function inputTokensOf(answer: unknown): number | null {
  const usage = isRecord(answer) ? answer.usage : undefined;
  const tokens = isRecord(usage) ? usage.prompt_tokens : undefined;
  return typeof tokens === 'number' && Number.isSafeInteger(tokens) && tokens >= 0 ? tokens : null;
}

export function createOpenAiEmbeddingsProvider(config: EmbeddingsConfig): EmbeddingsProvider {
  const endpoint = `${config.baseUrl.replace(/\/+$/, '')}/embeddings`;
  return {
    id: 'openai',
    model: config.model,
    async embed(request: EmbeddingRequest): Promise<EmbeddingResult> {
      checkRequest(request);
      const context = startCall(request.signal, request.timeoutMs ?? config.timeoutMs, config.apiKey);
      const answer = await postJson(
        endpoint,
        { model: config.model, input: request.inputs, encoding_format: 'base64' },
        bearer(config.apiKey),
        MAX_EMBEDDINGS_ANSWER_BYTES,
        context,
      );
      return { vectors: vectorsOf(answer, request.inputs.length, context), inputTokens: inputTokensOf(answer) };
    },
  };
}
