// Audio recognised by its first bytes: each container browsers record, MP3 by tag or frame sync,
// and the look-alikes that must not pass (AAC's ADTS header, HTML, text, too few bytes).
import { describe, expect, it } from 'vitest';
import { silentMp3 } from '@server/test/fake-speech-server';
import { isMp3, sniffAudio } from './audio-format';

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p)))));

describe('sniffAudio', () => {
  it('recognises each container by its magic bytes', () => {
    expect(sniffAudio(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]))).toBe('webm');
    expect(sniffAudio(bytes('OggS', [0, 2, 0, 0]))).toBe('ogg');
    expect(sniffAudio(bytes([0, 0, 0, 0x20], 'ftypM4A ', [0, 0, 0, 0]))).toBe('mp4');
    expect(sniffAudio(bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '))).toBe('wav');
    expect(sniffAudio(bytes('ID3', [4, 0, 0, 0, 0, 0, 0]))).toBe('mp3');
    expect(sniffAudio(silentMp3('Hello.'))).toBe('mp3');
  });

  it('refuses what only looks like audio', () => {
    expect(sniffAudio(bytes('<html><body>hi</body></html>'))).toBeNull();
    expect(sniffAudio(bytes('RIFF', [0x24, 0, 0, 0], 'AVI LIST'))).toBeNull();
    expect(sniffAudio(bytes([0x1a, 0x45]))).toBeNull();
    expect(sniffAudio(new Uint8Array(0))).toBeNull();
    // AAC in ADTS: the same sync bits, but layer 00.
    expect(sniffAudio(bytes([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]))).toBeNull();
  });
});

describe('isMp3', () => {
  it('takes an ID3 tag or an MPEG audio frame header, nothing else', () => {
    expect(isMp3(silentMp3('A sentence.'))).toBe(true);
    expect(isMp3(bytes([0xff, 0xf3, 0x64, 0xc4]))).toBe(true);
    expect(isMp3(bytes([0xff, 0xfb, 0xf0, 0x64]))).toBe(false);
    expect(isMp3(bytes([0xff, 0xe8, 0x90, 0x64]))).toBe(false);
    expect(isMp3(bytes('{"error":"x"}'))).toBe(false);
    expect(isMp3(bytes([0xff]))).toBe(false);
  });
});
