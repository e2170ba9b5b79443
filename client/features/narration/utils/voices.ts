// Voice choice ('Speech'): the list is sorted English voices first, then by name; the
// preferred voice is an English one whose name suggests premium, enhanced, neural or Google, else
// any English voice, else the first. Pure functions over {name, lang}, so the browser's voices, the
// test fakes and the stored choice all go through the same rule.

export interface VoiceLike {
  name: string;
  lang: string;
}

export type VoiceSource = 'browser' | 'server';

/** A voice as the player picks it and as it is stored: server voices have no language. */
export interface VoiceChoice {
  name: string;
  lang: string;
  source: VoiceSource;
}

const PREMIUM = /premium|enhanced|neural|google/i;

/** 'en', 'en-US', 'en_GB' (Android), 'EN-au': any English. */
export function isEnglish(voice: VoiceLike): boolean {
  return voice.lang.trim().toLowerCase().startsWith('en');
}

export function compareVoices(a: VoiceLike, b: VoiceLike): number {
  const english = Number(isEnglish(b)) - Number(isEnglish(a));
  if (english !== 0) return english;
  return a.name.localeCompare(b.name) || a.lang.localeCompare(b.lang);
}

/** A sorted copy: English voices first, then by name. */
export function sortVoices<T extends VoiceLike>(voices: readonly T[]): T[] {
  return [...voices].sort(compareVoices);
}

/**
 * The spec's preferred voice among `voices` (in the order given: pass the sorted list, so "the
 * first" is the picker's first). Where several voices fit the same step, one speaking the reader's
 * own language (e.g. en-GB for a British browser) wins; the spec leaves that tie open.
 */
export function preferredVoice<T extends VoiceLike>(voices: readonly T[], readerLang?: string): T | null {
  if (voices.length === 0) return null;
  const english = voices.filter(isEnglish);
  const premium = english.filter((v) => PREMIUM.test(v.name));
  const local = (list: T[]) => (readerLang ? list.find((v) => sameLang(v.lang, readerLang)) : undefined) ?? list[0];
  if (premium.length > 0) return local(premium);
  if (english.length > 0) return local(english);
  return voices[0];
}

function sameLang(a: string, b: string): boolean {
  return a.replace('_', '-').toLowerCase() === b.replace('_', '-').toLowerCase();
}

/** The select's value for a voice; names are unique per source. */
export function voiceKey(voice: Pick<VoiceChoice, 'name' | 'source'>): string {
  return `${voice.source}:${voice.name}`;
}

/**
 * The voice narration speaks with: the stored choice while this browser or server still offers it,
 * else the preferred browser voice, else the first server voice. Null when nothing is listed (the
 * browser's voices may still be loading: its default voice speaks then).
 */
export function effectiveVoice(
  choice: VoiceChoice | null,
  browserVoices: readonly VoiceLike[],
  serverVoices: readonly string[],
  readerLang?: string,
): VoiceChoice | null {
  if (choice?.source === 'server' && serverVoices.includes(choice.name)) return choice;
  if (choice?.source === 'browser') {
    const listed = browserVoices.find((v) => v.name === choice.name);
    if (listed) return { name: listed.name, lang: listed.lang, source: 'browser' };
  }
  const preferred = preferredVoice(sortVoices(browserVoices), readerLang);
  if (preferred) return { name: preferred.name, lang: preferred.lang, source: 'browser' };
  // A browser voice chosen before, while the browser's list is still empty: keep it, it may load.
  if (choice?.source === 'browser') return choice;
  if (serverVoices.length > 0) return { name: serverVoices[0], lang: '', source: 'server' };
  return null;
}
