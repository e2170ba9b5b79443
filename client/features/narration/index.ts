// The narration feature's door: the drawer's 'Narrator Voice' section and the hook that reads replies aloud.
export { NarratorVoiceSection } from './components/narrator-voice-section';
export { useNarration } from './hooks/use-narration';
