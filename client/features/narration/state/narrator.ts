// The narrator: what is read aloud, when, and in which voice. The story page feeds
// it the story on screen (update); the drawer's section drives it (setEnabled, selectVoice, play,
// pause, resume, stop); both read its store. Rules:
// - With narration on, each new narrator reply is read. In a browser voice it is followed while it
//   is written, each sentence spoken once complete; in a server voice it is read once saved (the
//   server speaks saved messages only). A new reply, or 'Try again', replaces what is being read.
// - A reply already on screen when the page opens is not read by itself (browsers refuse speech
//   without a gesture, and a page that talks on open surprises people): Play reads it. A reply
//   being written in this tab as the page opens (a story just begun) counts as new.
// - Notices and the player's own messages are never read.
// - Speech stops on stop, when narration is turned off, and when the page is left (detach, pagehide).
// Dependencies (speech port, server player, toasts, storage) are injected so tests use fakes.
import { SPEECH_PITCH, SPEECH_RATE, SPEECH_VOLUME } from '@shared/constants';
import { toast } from '@client/components/ui/use-toast';
import { isApiRequestError } from '@client/lib/api-client';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { fetchSpeechPart } from '../api/get-speech-part';
import { createBrowserReading, type Reading } from '../speech/browser-reading';
import {
  playServerVoice,
  type AudioLike,
  type ServerVoiceCallbacks,
  type ServerVoicePlayback,
} from '../speech/server-voice-player';
import { createBrowserSynthesisPort, type SpeechSynthesisPort } from '../speech/synthesis-port';
import { NARRATION_STRINGS } from '../strings';
import { sortVoices, type VoiceChoice, type VoiceLike } from '../utils/voices';
import { readNarrationSettings, writeNarrationSettings, type NarrationSettings } from './narration-settings';
import {
  canSpeak,
  createNarrationStore,
  initialNarrationState,
  selectedVoice,
  type NarrationStore,
} from './narration-store';

/** The parts of a story message narration looks at (the story's LocalStoryMessage fits). */
export interface NarratableMessage {
  id: string;
  role: string;
  content: string;
  messageId?: number;
  isNotice?: boolean;
  /** The loop guard is having this reply written again; its new text replaces it. */
  rewriting?: boolean;
}

/** The story on screen (the story's StoryState fits). */
export interface NarrationStory {
  storyId: number | null;
  messages: readonly NarratableMessage[];
  /** Local id of the reply being written, if any. */
  streamingId: string | null;
}

export interface ServerSpeechRequest {
  storyId: number;
  messageId: number;
  voice: string;
}

export type NarrationNotice = { kind: 'unsupported' } | { kind: 'error'; error: unknown };

interface EventTargetLike {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
}

export interface NarratorDeps {
  store?: NarrationStore;
  /** The browser's synthesis; asked once, on first use. */
  createPort?: () => SpeechSynthesisPort | null;
  playServer?: (request: ServerSpeechRequest, callbacks: ServerVoiceCallbacks) => ServerVoicePlayback;
  notify?: (notice: NarrationNotice) => void;
  settings?: { read(): NarrationSettings; write(settings: NarrationSettings): void };
  readerLang?: () => string | undefined;
  /** Where 'pagehide' and 'storage' are heard (window); null in tests that do not need them. */
  target?: EventTargetLike | null;
}

/** Errors a browser gives when it refuses speech without a gesture: quiet for a reply read by itself. */
function refusedWithoutGesture(error: unknown): boolean {
  return (
    error === 'not-allowed' ||
    (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'NotAllowedError')
  );
}

export function defaultNotify(notice: NarrationNotice): void {
  if (notice.kind === 'unsupported') {
    toast({ title: NARRATION_STRINGS.notSupportedTitle, description: NARRATION_STRINGS.notSupported });
    return;
  }
  // The server's own words when it refuses for too much narration; the spec's text otherwise.
  const limited = isApiRequestError(notice.error) && notice.error.status === 429;
  toast({
    title: NARRATION_STRINGS.speechErrorTitle,
    description: limited ? (notice.error as Error).message : NARRATION_STRINGS.speechError,
    variant: 'destructive',
  });
}

let sharedAudio: HTMLAudioElement | null = null;
/** One Audio element for every server-voice reading of the tab. */
function audioElement(): AudioLike {
  sharedAudio ??= new Audio();
  sharedAudio.preload = 'auto';
  return sharedAudio;
}

function defaultPlayServer(request: ServerSpeechRequest, callbacks: ServerVoiceCallbacks): ServerVoicePlayback {
  return playServerVoice((part, signal) => fetchSpeechPart({ ...request, part }, signal), audioElement(), callbacks);
}

function isReply(message: NarratableMessage | undefined): message is NarratableMessage {
  return message !== undefined && message.role === 'assistant' && !message.isNotice;
}

function latestReply(messages: readonly NarratableMessage[]): NarratableMessage | null {
  for (let i = messages.length - 1; i >= 0; i -= 1) if (isReply(messages[i])) return messages[i];
  return null;
}

/** The message being read is normally the last one: search from the end. */
function findMessage(messages: readonly NarratableMessage[], id: string): NarratableMessage | null {
  for (let i = messages.length - 1; i >= 0; i -= 1) if (messages[i].id === id) return messages[i];
  return null;
}

function sameVoices(a: readonly VoiceLike[], b: readonly VoiceLike[]): boolean {
  return a.length === b.length && a.every((v, i) => v.name === b[i].name && v.lang === b[i].lang);
}

/**
 * Whether a reply's text is still the one being read: it grew, or lost an unfinished last sentence
 * when it was saved. A rewrite by the loop guard is neither.
 */
function sameReply(read: string, now: string): boolean {
  const a = read.trim();
  const b = now.trim();
  return a.startsWith(b) || b.startsWith(a);
}

interface CurrentReading {
  /** Local id of the reply. */
  id: string;
  voice: VoiceChoice | null;
  /** Asked for by the player (Play, the switch), not a reply read by itself. */
  manual: boolean;
  paused: boolean;
  browser: Reading | null;
  /** The text given to the browser reading so far. */
  pushed: string;
  /** Stopped while the reply is written again: it is read anew once its new text comes. */
  halted: boolean;
  finished: boolean;
  /** Server voice: null until the reply is saved and its parts are asked for. */
  server: ServerVoicePlayback | null;
}

export function createNarrator(deps: NarratorDeps = {}) {
  const settings = deps.settings ?? { read: readNarrationSettings, write: writeNarrationSettings };
  /** The state a tab opens with: nothing read yet, the saved settings. */
  const openingState = () => {
    const saved = settings.read();
    return { ...initialNarrationState, enabled: saved.enabled, choice: saved.voice };
  };
  const store = deps.store ?? createNarrationStore(openingState());
  const createPort = deps.createPort ?? (() => createBrowserSynthesisPort());
  const playServer = deps.playServer ?? defaultPlayServer;
  const notify = deps.notify ?? defaultNotify;
  const readerLang = deps.readerLang ?? (() => (typeof navigator === 'undefined' ? undefined : navigator.language));
  const target: EventTargetLike | null =
    deps.target === undefined ? (typeof window === 'undefined' ? null : window) : deps.target;

  let port: SpeechSynthesisPort | null = null;
  let initialised = false;
  let story: NarrationStory | null = null;
  /** The next update only records what is on screen. */
  let baselinePending = true;
  /** Replies that have been the last message: a new reply is one never seen there. */
  const seen = new Set<string>();
  let current: CurrentReading | null = null;

  const loadVoices = () => {
    if (!port) return;
    const unique = new Map<string, VoiceLike>();
    for (const v of sortVoices(port.getVoices()))
      if (!unique.has(v.name)) unique.set(v.name, { name: v.name, lang: v.lang });
    const voices = [...unique.values()];
    if (!sameVoices(voices, store.getState().browserVoices)) store.setState({ browserVoices: voices });
  };

  /** Asks the browser for its synthesis once, on first use (never while the module loads). */
  function init() {
    if (initialised) return;
    initialised = true;
    port = createPort();
    store.setState({ browserSupported: port !== null, readerLang: readerLang() });
    if (port) {
      // Chrome answers an empty list until 'voiceschanged'; Safari answers at once.
      loadVoices();
      port.onVoicesChanged(loadVoices);
    }
  }

  const persist = () => {
    const { enabled, choice } = store.getState();
    settings.write({ enabled, voice: choice });
  };

  function stopReading() {
    const reading = current;
    current = null;
    reading?.browser?.stop();
    reading?.server?.stop();
    store.setState({ status: 'idle' });
  }

  const ended = (reading: CurrentReading) => () => {
    if (current !== reading) return;
    current = null;
    store.setState({ status: 'idle' });
  };

  const failed = (reading: CurrentReading) => (error: unknown) => {
    if (current !== reading) return;
    current = null;
    store.setState({ status: 'idle' });
    if (!reading.manual && refusedWithoutGesture(error)) return;
    notify({ kind: 'error', error });
  };

  function startServer(reading: CurrentReading, storyId: number, messageId: number) {
    if (!reading.voice) return;
    reading.server = playServer(
      { storyId, messageId, voice: reading.voice.name },
      { onDone: ended(reading), onError: failed(reading) },
    );
    if (reading.paused && current === reading) reading.server.pause();
  }

  /** Gives the reading what is new in its reply: more text, the end of it, or its server id. */
  function follow(reading: CurrentReading, on: NarrationStory) {
    const message = findMessage(on.messages, reading.id);
    if (!message) {
      // The reply left the screen (a failed turn takes its half-written text away).
      stopReading();
      return;
    }
    const streaming = on.streamingId === message.id;
    if (reading.browser && message.rewriting) {
      // The narrator writes this reply again: what it said so far is not read on.
      if (!reading.halted) {
        reading.halted = true;
        reading.browser.stop();
      }
      return;
    }
    if (reading.browser && (reading.halted || !sameReply(reading.pushed, message.content))) {
      // The loop guard's rewrite replaced the text: it is read anew from its start.
      startReading(message, on, reading.manual);
      return;
    }
    if (reading.browser) {
      if (streaming) {
        if (message.content !== reading.pushed) {
          reading.pushed = message.content;
          reading.browser.push(message.content);
        }
      } else if (!reading.finished) {
        reading.finished = true;
        reading.browser.finish(message.content);
      }
    } else if (!reading.server && !streaming && message.messageId !== undefined && on.storyId !== null) {
      startServer(reading, on.storyId, message.messageId);
    }
  }

  function startReading(message: NarratableMessage, on: NarrationStory, manual: boolean) {
    stopReading();
    const voice = selectedVoice(store.getState());
    const server = voice?.source === 'server';
    if (!server && !port) {
      if (manual) notify({ kind: 'unsupported' });
      return;
    }
    const reading: CurrentReading = {
      id: message.id,
      voice,
      manual,
      paused: false,
      browser: null,
      pushed: '',
      halted: false,
      finished: false,
      server: null,
    };
    current = reading;
    if (!server && port) {
      const options = {
        voiceName: voice?.name ?? null,
        lang: voice?.lang || 'en-US',
        rate: SPEECH_RATE,
        pitch: SPEECH_PITCH,
        volume: SPEECH_VOLUME,
      };
      reading.browser = createBrowserReading(port, options, { onDone: ended(reading), onError: failed(reading) });
    }
    store.setState({ status: 'playing' });
    follow(reading, on);
  }

  function play() {
    init();
    if (!canSpeak(store.getState())) {
      notify({ kind: 'unsupported' });
      return;
    }
    const latest = story ? latestReply(story.messages) : null;
    if (story && latest) startReading(latest, story, true);
  }

  const onPageHide = () => stopReading();
  const onStorage = (event: Event) => {
    // Another tab changed the settings: follow them (the voice list is this browser's too).
    if ((event as StorageEvent).key !== LOCAL_STORAGE_KEYS.narrationSettings) return;
    const next = settings.read();
    store.setState({ enabled: next.enabled, choice: next.voice });
    if (!next.enabled) stopReading();
  };

  return {
    store,
    init,

    /** The story page is on screen: what it shows now is not read by itself. Answers the detach. */
    attach(): () => void {
      init();
      baselinePending = true;
      seen.clear();
      story = null;
      target?.addEventListener('pagehide', onPageHide);
      target?.addEventListener('storage', onStorage);
      return () => {
        target?.removeEventListener('pagehide', onPageHide);
        target?.removeEventListener('storage', onStorage);
        stopReading();
        story = null;
        store.setState({ hasReply: false });
      };
    },

    /** The story on screen changed (a word streamed in, a reply saved, a new story). */
    update(next: NarrationStory) {
      const previous = story;
      story = next;
      if (previous && previous.storyId !== null && next.storyId !== null && previous.storyId !== next.storyId) {
        // Another story: nothing of the old one is read, and this one's replies are not new.
        stopReading();
        seen.clear();
        baselinePending = true;
      }
      store.setState({ hasReply: latestReply(next.messages) !== null });
      const last = next.messages[next.messages.length - 1];
      if (baselinePending) {
        baselinePending = false;
        if (isReply(last) && last.id !== next.streamingId) seen.add(last.id);
      }
      if (isReply(last) && !seen.has(last.id)) {
        seen.add(last.id);
        if (store.getState().enabled) {
          startReading(last, next, false);
          return;
        }
        // Narration is off: a reply read with Play gives way to the new one all the same.
        if (current) stopReading();
      }
      if (current) follow(current, next);
    },

    setEnabled(enabled: boolean) {
      init();
      if (!enabled) {
        store.setState({ enabled: false });
        persist();
        stopReading();
        return;
      }
      if (!canSpeak(store.getState())) {
        notify({ kind: 'unsupported' });
        return;
      }
      store.setState({ enabled: true });
      persist();
      // Turning narration on reads the latest reply (the switch is the gesture browsers ask for).
      play();
    },

    /** The player picked a voice: kept, and what was being read in the old voice stops. */
    selectVoice(choice: VoiceChoice) {
      store.setState({ choice });
      persist();
      if (current) stopReading();
    },

    setServerVoices(names: readonly string[]) {
      const { serverVoices } = store.getState();
      if (names.length === serverVoices.length && names.every((n, i) => n === serverVoices[i])) return;
      store.setState({ serverVoices: [...names] });
    },

    /** Reads the latest narrator reply from its start. */
    play,

    pause() {
      if (!current || current.paused) return;
      current.paused = true;
      current.browser?.pause();
      current.server?.pause();
      store.setState({ status: 'paused' });
    },

    resume() {
      if (!current || !current.paused) return;
      current.paused = false;
      current.browser?.resume();
      current.server?.resume();
      store.setState({ status: 'playing' });
    },

    stop: stopReading,

    /**
     * As if the tab had just opened: stops, forgets the story, the replies seen and the synthesis
     * it asked the browser for, and reads the saved settings again. A tab never needs it; the
     * component tests do, file after file in one page, each standing in its own synthesis (or none).
     */
    startOver() {
      stopReading();
      initialised = false;
      port = null;
      story = null;
      baselinePending = true;
      seen.clear();
      store.setState(openingState());
    },
  };
}

export type Narrator = ReturnType<typeof createNarrator>;

/** The tab's narrator; created with the story page's code (never on Home). */
export const narrator = createNarrator();
