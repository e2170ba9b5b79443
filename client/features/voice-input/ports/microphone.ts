// The microphone permission check (voice input needs granted microphone access).
// The Permissions API answers without prompting where the browser has it ('denied' means ask the
// player to enable it in the browser; nothing we do can prompt again); otherwise getUserMedia is
// the real check, and the stream it opens is released at once so the browser's mic indicator
// goes off.
import { fromGetUserMediaError, VoiceInputError } from '../errors';

export type MicrophonePermission = 'granted' | 'denied' | 'prompt' | 'unknown';

export interface MicrophonePort {
  /** What the browser says about the microphone without prompting; 'unknown' where it cannot tell. */
  query(): Promise<MicrophonePermission>;
  /** Opens the microphone (prompting if needed) and releases it; throws a VoiceInputError. */
  probe(): Promise<void>;
}

/** The parts of `navigator` used here, so tests can pass their own. */
export interface MicrophoneNavigator {
  permissions?: Pick<Permissions, 'query'>;
  mediaDevices?: Pick<MediaDevices, 'getUserMedia'>;
}

export function releaseStream(stream: MediaStream): void {
  stream.getTracks().forEach((track) => track.stop());
}

export function createBrowserMicrophone(nav: MicrophoneNavigator = navigator): MicrophonePort {
  return {
    async query() {
      if (!nav.permissions?.query) return 'unknown';
      try {
        // Firefox before 131 throws a TypeError for 'microphone': it cannot tell, getUserMedia will.
        const status = await nav.permissions.query({ name: 'microphone' as PermissionName });
        return status.state;
      } catch {
        return 'unknown';
      }
    },
    async probe() {
      if (!nav.mediaDevices?.getUserMedia)
        throw new VoiceInputError('unsupported', 'navigator.mediaDevices is missing');
      let stream: MediaStream;
      try {
        stream = await nav.mediaDevices.getUserMedia({ audio: true });
      } catch (error) {
        throw fromGetUserMediaError(error);
      }
      releaseStream(stream);
    },
  };
}
