// Chooses the voice from TTS_PROVIDER and the transcriber from STT_PROVIDER. A new provider is a
// new adapter file plus one line here; 'none' means no server voices (the browser's own remain)
// or no server transcription, so the routes say so instead of failing.
import { createOpenAiSttProvider } from './openai-stt';
import { createOpenAiTtsProvider } from './openai-tts';
import type { SttConfig, SttProvider, SttProviderId, TtsConfig, TtsProvider, TtsProviderId } from './types';

const TTS_FACTORIES: Record<Exclude<TtsProviderId, 'none'>, (config: TtsConfig) => TtsProvider> = {
  openai: createOpenAiTtsProvider,
};

const STT_FACTORIES: Record<Exclude<SttProviderId, 'none'>, (config: SttConfig) => SttProvider> = {
  openai: createOpenAiSttProvider,
};

export function createTtsProvider(config: TtsConfig): TtsProvider | null {
  return config.provider === 'none' ? null : TTS_FACTORIES[config.provider](config);
}

export function createSttProvider(config: SttConfig): SttProvider | null {
  return config.provider === 'none' ? null : STT_FACTORIES[config.provider](config);
}
