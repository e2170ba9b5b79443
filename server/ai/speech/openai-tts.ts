// OpenAI-compatible speech (POST {base}/audio/speech): OpenAI's tts-1 and gpt-4o-mini-tts, and the
// local servers that copy the API (Kokoro-FastAPI, openedai-speech). One sentence in, MP3 out; the
// answer is checked to really be MP3 (and not an error page sent with a 200) before anyone keeps it.
import { isMp3 } from './audio-format';
import { bearer, call, fail, startCall } from './http';
import type { SynthesisRequest, TtsConfig, TtsProvider } from './types';

/** A sentence of MP3 at 128 kbit/s is tens of kilobytes; a minute is about 1 MB. More is not speech. */
export const MAX_SPEECH_BYTES = 5 * 1024 * 1024;
/** OpenAI refuses longer input with a 400; a sentence this long is clipped at a word rather than failing. */
export const MAX_SPEECH_INPUT_CHARS = 4096;

/** The text as sent: at most MAX_SPEECH_INPUT_CHARS, cut at the last space before the limit. */
export function speechInput(text: string): string {
  if (text.length <= MAX_SPEECH_INPUT_CHARS) return text;
  const cut = text.slice(0, MAX_SPEECH_INPUT_CHARS);
  const space = cut.lastIndexOf(' ');
  return (space > MAX_SPEECH_INPUT_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd();
}

const AUDIO_TYPE = /^(audio\/[\w.+-]+|application\/octet-stream)$/;

export function createOpenAiTtsProvider(config: TtsConfig): TtsProvider {
  const endpoint = `${config.baseUrl.replace(/\/+$/, '')}/audio/speech`;
  return {
    id: 'openai',
    model: config.model,
    async synthesize(request: SynthesisRequest) {
      const context = startCall(request.signal, config.timeoutMs, config.apiKey);
      const { response, body } = await call(
        endpoint,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'audio/mpeg', ...bearer(config.apiKey) },
          body: JSON.stringify({
            model: config.model,
            voice: request.voice,
            input: speechInput(request.text),
            response_format: 'mp3',
          }),
        },
        MAX_SPEECH_BYTES,
        context,
      );
      const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
      if (!AUDIO_TYPE.test(type)) {
        const start = body.subarray(0, 80).toString('utf8').replace(/\s+/g, ' ');
        throw fail(context, 'invalid_output', `answer is ${type || 'untyped'}, not audio: ${JSON.stringify(start)}`);
      }
      if (body.length === 0) throw fail(context, 'invalid_output', 'answer is empty');
      if (!isMp3(body))
        throw fail(
          context,
          'invalid_output',
          `answer (${type}, ${body.length} bytes) is not MP3: starts ${body.subarray(0, 8).toString('hex')}`,
        );
      return { bytes: new Uint8Array(body), mime: 'audio/mpeg' as const };
    },
  };
}
