// Narration settings in localStorage: written as {enabled, voice}, read back validated, and anything
// unreadable falls back to the defaults (off, the preferred voice) field by field.
import { describe, expect, it } from 'vitest';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import {
  DEFAULT_NARRATION_SETTINGS,
  parseNarrationSettings,
  readNarrationSettings,
  writeNarrationSettings,
} from './narration-settings';

const KEY = LOCAL_STORAGE_KEYS.narrationSettings;

describe('narration settings', () => {
  it('are off with the preferred voice when nothing is stored', () => {
    expect(readNarrationSettings()).toEqual({ enabled: false, voice: null });
    expect(DEFAULT_NARRATION_SETTINGS).toEqual({ enabled: false, voice: null });
  });

  it('survive a write and a read under the narration key', () => {
    writeNarrationSettings({ enabled: true, voice: { name: 'Alice', lang: 'en-GB', source: 'browser' } });
    expect(JSON.parse(window.localStorage.getItem(KEY) ?? 'null')).toEqual({
      enabled: true,
      voice: { name: 'Alice', lang: 'en-GB', source: 'browser' },
    });
    expect(readNarrationSettings()).toEqual({
      enabled: true,
      voice: { name: 'Alice', lang: 'en-GB', source: 'browser' },
    });
    writeNarrationSettings({ enabled: false, voice: { name: 'aria', lang: '', source: 'server' } });
    expect(readNarrationSettings()).toEqual({ enabled: false, voice: { name: 'aria', lang: '', source: 'server' } });
  });

  it('fall back to the defaults for unreadable JSON or a value that is not an object', () => {
    for (const raw of ['{not json', '"on"', '42', 'null', '[]']) {
      window.localStorage.setItem(KEY, raw);
      expect(readNarrationSettings()).toEqual({ enabled: false, voice: null });
    }
  });

  it('keep the readable field when the other is broken', () => {
    expect(parseNarrationSettings({ enabled: true, voice: { name: '', lang: 'en', source: 'browser' } })).toEqual({
      enabled: true,
      voice: null,
    });
    expect(parseNarrationSettings({ enabled: true, voice: { name: 'Alice', lang: 'en-GB', source: 'radio' } })).toEqual(
      { enabled: true, voice: null },
    );
    expect(
      parseNarrationSettings({ enabled: 'yes', voice: { name: 'Alice', lang: 'en-GB', source: 'browser' } }),
    ).toEqual({ enabled: false, voice: { name: 'Alice', lang: 'en-GB', source: 'browser' } });
    expect(parseNarrationSettings({ voice: { name: 'x'.repeat(500), lang: 'en', source: 'browser' } })).toEqual({
      enabled: false,
      voice: null,
    });
  });

  it('drop unknown fields', () => {
    expect(parseNarrationSettings({ enabled: true, voice: null, volume: 11 })).toEqual({ enabled: true, voice: null });
  });
});
