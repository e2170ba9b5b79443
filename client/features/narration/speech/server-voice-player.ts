// One saved reply read aloud in a server voice: its parts (one sentence group each; part 0 answers
// how many there are) are fetched as audio and played one after the other through one Audio
// element, each from a Blob object URL. The next part is fetched while the current one plays, so
// the voice starts after the first part and goes on without gaps. Object URLs are revoked as soon
// as their part is over. Pause, resume and stop act on the Audio element.

export interface SpeechPart {
  audio: Blob;
  /** How many parts the whole reply is spoken in (the x-speech-parts header). */
  parts: number;
}

export type FetchSpeechPart = (part: number, signal: AbortSignal) => Promise<SpeechPart>;

/** The bits of HTMLAudioElement the player uses; tests pass a fake. */
export interface AudioLike {
  src: string;
  play(): Promise<void> | void;
  pause(): void;
  load(): void;
  removeAttribute(name: string): void;
  addEventListener(type: 'ended' | 'error', listener: () => void): void;
  removeEventListener(type: 'ended' | 'error', listener: () => void): void;
}

export interface ObjectUrls {
  create(blob: Blob): string;
  revoke(url: string): void;
}

export interface ServerVoiceCallbacks {
  onDone(): void;
  /** A part could not be fetched, decoded or played; the playback has stopped. */
  onError(error: unknown): void;
}

export interface ServerVoicePlayback {
  pause(): void;
  resume(): void;
  stop(): void;
}

const browserUrls: ObjectUrls = {
  create: (blob) => URL.createObjectURL(blob),
  revoke: (url) => URL.revokeObjectURL(url),
};

function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

export function playServerVoice(
  fetchPart: FetchSpeechPart,
  audio: AudioLike,
  callbacks: ServerVoiceCallbacks,
  urls: ObjectUrls = browserUrls,
): ServerVoicePlayback {
  const aborter = new AbortController();
  const fetched = new Map<number, Promise<SpeechPart>>();
  let index = 0;
  let total = 1;
  let url: string | null = null;
  /** The current part's audio is on the element (it may be paused). */
  let loaded = false;
  let paused = false;
  let over = false;

  const release = () => {
    if (url !== null) urls.revoke(url);
    url = null;
    loaded = false;
  };

  const finish = () => {
    over = true;
    aborter.abort();
    fetched.clear();
    audio.removeEventListener('ended', handleEnded);
    audio.removeEventListener('error', handleError);
    audio.pause();
    release();
    audio.removeAttribute('src');
    audio.load();
  };

  const fail = (error: unknown) => {
    if (over) return;
    finish();
    callbacks.onError(error);
  };

  const fetchOnce = (part: number) => {
    let pending = fetched.get(part);
    if (!pending) {
      pending = fetchPart(part, aborter.signal);
      // A prefetch nobody waits for yet must not count as unhandled; playPart reads its outcome.
      pending.catch(() => undefined);
      fetched.set(part, pending);
    }
    return pending;
  };

  const start = () => {
    try {
      const played = audio.play();
      if (played) played.catch((error: unknown) => (isAbort(error) ? undefined : fail(error)));
    } catch (error) {
      fail(error);
    }
  };

  const playPart = async (part: number) => {
    let result: SpeechPart;
    try {
      result = await fetchOnce(part);
    } catch (error) {
      fail(error);
      return;
    }
    fetched.delete(part);
    if (over || part !== index) return;
    total = Math.max(1, result.parts);
    // Fetched while this part plays, so the next one starts without a wait.
    if (part + 1 < total) fetchOnce(part + 1);
    release();
    url = urls.create(result.audio);
    audio.src = url;
    loaded = true;
    if (!paused) start();
  };

  function handleEnded() {
    if (over) return;
    release();
    index += 1;
    if (index >= total) {
      finish();
      callbacks.onDone();
      return;
    }
    void playPart(index);
  }

  function handleError() {
    // The element could not decode the part (or lost it): the same 'Speech Error' as a failed fetch.
    if (over || !loaded) return;
    fail(new Error('The audio could not be played'));
  }

  audio.addEventListener('ended', handleEnded);
  audio.addEventListener('error', handleError);
  void playPart(0);

  return {
    pause() {
      if (over || paused) return;
      paused = true;
      if (loaded) audio.pause();
    },
    resume() {
      if (over || !paused) return;
      paused = false;
      // A part still being fetched starts by itself when it arrives.
      if (loaded) start();
    },
    stop() {
      if (!over) finish();
    },
  };
}
