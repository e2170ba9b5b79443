// Every user-facing string of narration, verbatim where the spec names
// them, so tests and UI agree. The speech error text is the shared contract's, the same words the
// server answers with.
import { PRODUCT_NAME } from '@shared/constants';
import { SPEECH_MESSAGES } from '@shared/schemas/speech';

export const NARRATION_STRINGS = {
  // The 'Story Experience' drawer's section
  section: 'Narrator Voice',
  enableToggle: 'Read replies aloud',
  enableHelp: 'The narrator reads each new reply aloud, sentence by sentence.',
  voiceLabel: 'Voice',
  defaultVoice: 'Default voice',
  browserVoices: 'Voices of this browser',
  serverVoices: `${PRODUCT_NAME} voices`,
  voiceOption: (name: string, lang: string) => (lang ? `${name} (${lang})` : name),
  controls: 'Playback',
  play: 'Play',
  playHelp: 'Reads the latest narrator reply from the start.',
  pause: 'Pause',
  resume: 'Resume',
  stop: 'Stop',

  // Toasts
  notSupportedTitle: 'Not Supported',
  notSupported: 'Text-to-speech is not supported in your browser.',
  speechErrorTitle: 'Speech Error',
  speechError: SPEECH_MESSAGES.speakFailed,
} as const;
