// Recognises audio by its first bytes rather than by what a Content-Type header claims: a voice's
// answer must really be MP3 before it is stored and served, and a recording must really be one of
// the containers browsers record (WebM, Ogg, MP4, MP3, WAV) before it is sent on for transcription.

export type AudioContainer = 'webm' | 'ogg' | 'mp4' | 'mp3' | 'wav';

/** What a transcription server is told the recording is: its type and a file name with the matching extension. */
export const CONTAINER_FILES: Record<AudioContainer, { mime: string; filename: string }> = {
  webm: { mime: 'audio/webm', filename: 'recording.webm' },
  ogg: { mime: 'audio/ogg', filename: 'recording.ogg' },
  mp4: { mime: 'audio/mp4', filename: 'recording.mp4' },
  mp3: { mime: 'audio/mpeg', filename: 'recording.mp3' },
  wav: { mime: 'audio/wav', filename: 'recording.wav' },
};

const ascii = (bytes: Uint8Array, offset: number, text: string) =>
  bytes.length >= offset + text.length && [...text].every((char, i) => bytes[offset + i] === char.charCodeAt(0));

/**
 * An MP3 stream: an ID3v2 tag, or an MPEG audio frame header (11 sync bits, then a version and a
 * layer that are not the reserved values, so AAC's ADTS header, whose layer is 00, is not taken for one).
 */
export function isMp3(bytes: Uint8Array): boolean {
  if (ascii(bytes, 0, 'ID3')) return true;
  if (bytes.length < 4 || bytes[0] !== 0xff || (bytes[1] & 0xe0) !== 0xe0) return false;
  const version = (bytes[1] >> 3) & 0b11;
  const layer = (bytes[1] >> 1) & 0b11;
  const bitrate = bytes[2] >> 4;
  return version !== 0b01 && layer !== 0b00 && bitrate !== 0b1111;
}

export function sniffAudio(bytes: Uint8Array): AudioContainer | null {
  // EBML: WebM is Matroska with the "webm" doctype; both are what MediaRecorder writes in Chromium and Firefox.
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return 'webm';
  if (ascii(bytes, 0, 'OggS')) return 'ogg';
  if (ascii(bytes, 4, 'ftyp')) return 'mp4';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE')) return 'wav';
  if (isMp3(bytes)) return 'mp3';
  return null;
}
