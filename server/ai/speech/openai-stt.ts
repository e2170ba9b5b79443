// OpenAI-compatible transcription (POST {base}/audio/transcriptions, multipart): OpenAI's whisper-1
// and gpt-4o-mini-transcribe, faster-whisper-server, whisper.cpp's server. The recording goes up as
// the `file` part named after its real container; the JSON answer's text is validated, not trusted.
import { z } from 'zod';
import { bearer, call, fail, startCall } from './http';
import type { SttConfig, SttProvider, TranscriptionRequest } from './types';

/** A minute of speech is about a thousand characters; the answer is JSON around it. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** The spec's recognition language is en-US; the API takes ISO 639-1, and naming it spares a detection pass. */
const LANGUAGE = 'en';

const answerSchema = z.object({ text: z.string() });

export function createOpenAiSttProvider(config: SttConfig): SttProvider {
  const endpoint = `${config.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
  return {
    id: 'openai',
    model: config.model,
    async transcribe(request: TranscriptionRequest) {
      const context = startCall(request.signal, config.timeoutMs, config.apiKey);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(request.audio)], { type: request.mime }), request.filename);
      form.append('model', config.model);
      form.append('response_format', 'json');
      form.append('language', LANGUAGE);
      // fetch sets the multipart Content-Type with its boundary itself.
      const { body } = await call(
        endpoint,
        { method: 'POST', headers: { accept: 'application/json', ...bearer(config.apiKey) }, body: form },
        MAX_ANSWER_BYTES,
        context,
      );
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch (error) {
        const start = body.subarray(0, 80).toString('utf8').replace(/\s+/g, ' ');
        throw fail(context, 'invalid_output', `answer is not JSON: ${JSON.stringify(start)}`, error);
      }
      const answer = answerSchema.safeParse(parsed);
      if (!answer.success)
        throw fail(context, 'invalid_output', `answer has no text: ${JSON.stringify(parsed).slice(0, 120)}`);
      return { text: answer.data.text };
    },
  };
}
