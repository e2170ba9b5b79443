// A fake OpenAI-compatible voice and transcriber for the browser tests (the API suites' wire-protocol
// fake, server/test/fake-speech-server.ts). It prints its base URL (http://127.0.0.1:PORT/v1, for
// TTS_BASE_URL and STT_BASE_URL) on the first line of stdout, as e2e/support/fake-llm.ts does.
// Speech answers silent MP3 as long as the sentence; a recording is transcribed as DEFAULT_TRANSCRIPT.
// The same origin serves GET /sponsor (a page titled 'Sponsor', for AD_SPONSOR_URL), GET /__requests
// (what the app sent, audio bytes left out), POST /__reset, and POST /__queue with
// {"path": "speech" | "transcriptions", "kind": "status", "status": 500} (or hang, drop, garbage,
// empty, ok with "text") so a journey can make the next call fail.
import { startFakeSpeechServer } from '../../server/test/fake-speech-server';

export const FAKE_SPEECH_API_KEY = 'sk-e2e-speech-key';

// `node --import tsx e2e/support/fake-speech.ts [PORT]`: a fixed port lets the journeys read /__requests.
const fake = await startFakeSpeechServer({ apiKey: FAKE_SPEECH_API_KEY, port: Number(process.argv[2] ?? 0) });
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
process.on('SIGINT', () => void fake.close().then(() => process.exit(0)));
console.log(fake.baseUrl);
