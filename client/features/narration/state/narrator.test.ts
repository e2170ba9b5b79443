// The narrator with a fake speech port: what is read and when (switching on, Play, new replies
// followed while they stream, 'Try again', notices and the player's messages never), in which
// sentence pieces and voice at rate 0.9, pitch 1, volume 1; pause, resume and stop; errors and the
// unsupported case; leaving the page; the settings kept; and server voices through a fake player.
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { splitSentences } from '@shared/speech/sentences';
import { useToastState } from '@client/components/ui/use-toast';
import { ApiRequestError } from '@client/lib/api-client';
import { LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { FakeSynthesisPort } from '../testing/fakes';
import type { ServerVoiceCallbacks } from '../speech/server-voice-player';
import { DEFAULT_NARRATION_SETTINGS, type NarrationSettings } from './narration-settings';
import {
  createNarrator,
  defaultNotify,
  type NarratableMessage,
  type NarrationNotice,
  type NarrationStory,
  type ServerSpeechRequest,
} from './narrator';

const VOICES = [
  { name: 'Zed', lang: 'de-DE' },
  { name: 'Amelie', lang: 'fr-FR' },
  { name: 'Google US English', lang: 'en-US' },
  { name: 'Alice', lang: 'en-GB' },
];

const OPENING = 'The bells fall silent as you arrive. A gull watches from the pier! Nobody else is here.';
const SECOND = 'At the top, a rope sways with no wind. Something waits above. You hear breathing.';

const user = (id: string, content: string, messageId?: number): NarratableMessage => ({
  id,
  role: 'user',
  content,
  messageId,
});
const reply = (id: string, content: string, messageId?: number): NarratableMessage => ({
  id,
  role: 'assistant',
  content,
  messageId,
});

function story(
  messages: NarratableMessage[],
  streamingId: string | null = null,
  storyId: number | null = 5,
): NarrationStory {
  return { storyId, messages, streamingId };
}

interface SetupOptions {
  port?: FakeSynthesisPort | null;
  settings?: NarrationSettings;
  serverVoices?: string[];
}

function setup({
  port = new FakeSynthesisPort(VOICES),
  settings = DEFAULT_NARRATION_SETTINGS,
  serverVoices = [],
}: SetupOptions = {}) {
  let stored = settings;
  const notices: NarrationNotice[] = [];
  const target = new EventTarget();
  const server: Array<{
    request: ServerSpeechRequest;
    callbacks: ServerVoiceCallbacks;
    pause: ReturnType<typeof vi.fn>;
    resume: ReturnType<typeof vi.fn>;
    stop: ReturnType<typeof vi.fn>;
  }> = [];
  const narrator = createNarrator({
    createPort: () => port,
    notify: (notice) => notices.push(notice),
    settings: { read: () => stored, write: (next) => (stored = next) },
    readerLang: () => 'en-US',
    target,
    playServer: (request, callbacks) => {
      const playback = { request, callbacks, pause: vi.fn(), resume: vi.fn(), stop: vi.fn() };
      server.push(playback);
      return playback;
    },
  });
  narrator.setServerVoices(serverVoices);
  return {
    narrator,
    port: port as FakeSynthesisPort,
    notices,
    target,
    server,
    stored: () => stored,
    setStored: (next: NarrationSettings) => (stored = next),
    status: () => narrator.store.getState().status,
  };
}

const opened = [user('u1', 'A harbour where bells ring alone', 1), reply('a1', OPENING, 2)];

describe('narrator: what is read', () => {
  it('does not read the reply on screen when the story opens with narration on; Play reads it', () => {
    const { narrator, port, status } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story(opened));
    expect(port.spoken).toHaveLength(0);
    expect(narrator.store.getState().hasReply).toBe(true);

    narrator.play();
    expect(status()).toBe('playing');
    port.endAll();
    expect(port.texts).toEqual(splitSentences(OPENING));
    expect(port.texts).toEqual([
      'The bells fall silent as you arrive.',
      'A gull watches from the pier!',
      'Nobody else is here.',
    ]);
    expect(status()).toBe('idle');
  });

  it('switching narration on reads the latest reply, one utterance per sentence, in the preferred voice at rate 0.9, pitch 1, volume 1', () => {
    const { narrator, port, stored } = setup();
    narrator.attach();
    narrator.update(story(opened));
    narrator.setEnabled(true);
    expect(stored()).toEqual({ enabled: true, voice: null });
    // One at a time: the next sentence starts when the one before ends.
    expect(port.active.map((u) => u.text)).toEqual(['The bells fall silent as you arrive.']);
    port.endAll();
    expect(port.texts).toEqual(splitSentences(OPENING));
    for (const { options } of port.spoken)
      expect(options).toEqual({ voiceName: 'Google US English', lang: 'en-US', rate: 0.9, pitch: 1, volume: 1 });
  });

  it('speaks each sentence of a streaming reply as soon as it is complete, and the rest once it is saved', () => {
    const { narrator, port, status } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story(opened));
    const asked = [...opened, user('u2', 'I climb the tower', 3)];
    narrator.update(story(asked));
    expect(port.spoken).toHaveLength(0);

    narrator.update(story([...asked, reply('a2', 'At the top, a rope')], 'a2'));
    expect(port.spoken).toHaveLength(0);
    expect(status()).toBe('playing');
    narrator.update(story([...asked, reply('a2', 'At the top, a rope sways with no wind. Some')], 'a2'));
    expect(port.texts).toEqual(['At the top, a rope sways with no wind.']);
    narrator.update(
      story([...asked, reply('a2', 'At the top, a rope sways with no wind. Something waits above. You')], 'a2'),
    );
    // The second sentence is complete but waits for the first to end.
    expect(port.texts).toEqual(['At the top, a rope sways with no wind.']);
    port.endCurrent();
    expect(port.texts).toEqual(['At the top, a rope sways with no wind.', 'Something waits above.']);
    port.endCurrent();
    // Caught up with the writing: still playing, waiting for the next sentence.
    expect(status()).toBe('playing');
    narrator.update(story([...asked, reply('a2', SECOND, 4)]));
    expect(port.texts).toEqual(splitSentences(SECOND));
    port.endAll();
    expect(status()).toBe('idle');
    expect(port.texts).toEqual(splitSentences(SECOND));
  });

  it('a new reply replaces the one being read, and the cancel it causes is no error', () => {
    const { narrator, port, notices } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    port.endCurrent();
    expect(port.active.map((u) => u.text)).toEqual(['A gull watches from the pier!']);
    const asked = [...opened, user('u2', 'I climb the tower', 3)];
    narrator.update(story(asked));
    // Until the new reply starts, the old one goes on.
    expect(port.cancels).toBe(0);
    narrator.update(story([...asked, reply('a2', 'At the top, a rope sways with no wind. ')], 'a2'));
    expect(port.cancels).toBe(1);
    narrator.update(story([...asked, reply('a2', SECOND, 4)]));
    port.endAll();
    expect(port.texts).toEqual([
      'The bells fall silent as you arrive.',
      'A gull watches from the pier!',
      ...splitSentences(SECOND),
    ]);
    expect(notices).toEqual([]);
  });

  it('stops while the loop guard has a reply written again, and reads the new text from its start', () => {
    const { narrator, port } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story(opened));
    const asked = [...opened, user('u2', 'I climb the tower', 3)];
    narrator.update(story(asked));
    const looping = 'The bells fall silent as you arrive. A gull watches from the pier! Nobody else is here.';
    narrator.update(story([...asked, reply('a2', looping)], 'a2'));
    expect(port.texts).toEqual(['The bells fall silent as you arrive.']);
    // 'rewriting': the sentence being spoken is cut, nothing more is read of the old text.
    narrator.update(story([...asked, { ...reply('a2', looping), rewriting: true }], 'a2'));
    expect(port.cancels).toBe(1);
    port.endAll();
    expect(port.texts).toEqual(['The bells fall silent as you arrive.']);
    // 'replace', then 'done': the new text is read from its start.
    narrator.update(story([...asked, reply('a2', SECOND)], 'a2'));
    narrator.update(story([...asked, reply('a2', SECOND, 4)]));
    port.endAll();
    expect(port.texts).toEqual(['The bells fall silent as you arrive.', ...splitSentences(SECOND)]);
  });

  it('goes on reading when the saved reply only loses an unfinished last sentence', () => {
    const { narrator, port } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story(opened));
    const asked = [...opened, user('u2', 'I climb the tower', 3)];
    narrator.update(story(asked));
    narrator.update(story([...asked, reply('a2', `${SECOND} And then`)], 'a2'));
    narrator.update(story([...asked, reply('a2', SECOND, 4)]));
    port.endAll();
    expect(port.cancels).toBe(0);
    expect(port.texts).toEqual(splitSentences(SECOND));
  });

  it("'Try again' reads the new reply, never the older one left on screen meanwhile", () => {
    const { narrator, port } = setup({ settings: { enabled: true, voice: null } });
    const before = [...opened, user('u2', 'I climb the tower', 3), reply('a2', SECOND, 4)];
    narrator.attach();
    narrator.update(story(before));
    // 'Try again': the reply leaves the screen, and its new words stream in.
    const withoutReply = before.slice(0, 3);
    narrator.update(story(withoutReply));
    expect(port.spoken).toHaveLength(0);
    narrator.update(story([...withoutReply, reply('a3', 'A bell rings once. ')], 'a3'));
    narrator.update(story([...withoutReply, reply('a3', 'A bell rings once. Then silence.', 5)]));
    port.endAll();
    expect(port.texts).toEqual(['A bell rings once.', 'Then silence.']);
  });

  it('stops when the reply being read leaves the screen (a failed turn), and does not read the reply put back', () => {
    const { narrator, port, status } = setup({ settings: { enabled: true, voice: null } });
    const before = [...opened, user('u2', 'I climb the tower', 3), reply('a2', SECOND, 4)];
    narrator.attach();
    narrator.update(story(before));
    narrator.update(story([...before.slice(0, 3), reply('a3', 'A bell rings once. Then')], 'a3'));
    expect(port.texts).toEqual(['A bell rings once.']);
    narrator.update(story(before));
    expect(port.cancels).toBe(1);
    expect(status()).toBe('idle');
    expect(port.texts).toEqual(['A bell rings once.']);
  });

  it('never reads notices or the player’s own messages', () => {
    const { narrator, port } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story([]));
    narrator.update(
      story([
        {
          id: 'n1',
          role: 'assistant',
          content: 'Note: This story was recovered with some missing data.',
          isNotice: true,
        },
      ]),
    );
    expect(narrator.store.getState().hasReply).toBe(false);
    narrator.play();
    narrator.update(
      story([{ id: 'n1', role: 'assistant', content: 'Note.', isNotice: true }, user('u1', 'I look around.')]),
    );
    expect(port.spoken).toHaveLength(0);
    narrator.update(story([user('u1', 'I look around.'), reply('a1', 'The fog lifts.', 2)]));
    port.endAll();
    expect(port.texts).toEqual(['The fog lifts.']);
    // A notice after the reply (a recovered story) is skipped by Play too.
    narrator.update(
      story([
        user('u1', 'I look around.'),
        reply('a1', 'The fog lifts.', 2),
        { id: 'n2', role: 'assistant', content: 'A notice.', isNotice: true },
      ]),
    );
    expect(port.spoken).toHaveLength(1);
    port.spoken.length = 0;
    narrator.play();
    port.endAll();
    expect(port.texts).toEqual(['The fog lifts.']);
  });

  it('reads a reply that is being written as the page opens (a story just begun)', () => {
    const { narrator, port } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story([user('u1', 'A harbour', undefined), reply('a1', 'The bells fall silent. A')], 'a1', null));
    expect(port.texts).toEqual(['The bells fall silent.']);
  });

  it('reads nothing by itself while narration is off, and a new reply stops a reply read with Play', () => {
    const { narrator, port, status } = setup();
    narrator.attach();
    narrator.update(story(opened));
    narrator.update(story([...opened, user('u2', 'Go', 3), reply('a2', SECOND, 4)]));
    expect(port.spoken).toHaveLength(0);
    narrator.play();
    expect(port.texts).toEqual(['At the top, a rope sways with no wind.']);
    narrator.update(
      story([...opened, user('u2', 'Go', 3), reply('a2', SECOND, 4), user('u3', 'Run', 5), reply('a3', 'You run.', 6)]),
    );
    expect(status()).toBe('idle');
    expect(port.cancels).toBe(1);
    expect(port.texts).toEqual(['At the top, a rope sways with no wind.']);
  });

  it('turning narration off stops speech and is kept', () => {
    const { narrator, port, status, stored } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    narrator.setEnabled(false);
    expect(port.cancels).toBe(1);
    expect(status()).toBe('idle');
    expect(stored()).toEqual({ enabled: false, voice: null });
  });

  it('forgets the old story when another one is shown', () => {
    const { narrator, port, status } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    narrator.update(story([user('x1', 'Elsewhere', 10), reply('x2', 'Another story entirely.', 11)], null, 9));
    expect(status()).toBe('idle');
    expect(port.cancels).toBe(1);
    expect(port.texts).toEqual(['The bells fall silent as you arrive.']);
  });
});

describe('narrator: pause, resume, stop', () => {
  it('pauses and resumes the sentence being spoken, and stop cancels everything', () => {
    const { narrator, port, status } = setup();
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    narrator.pause();
    expect(status()).toBe('paused');
    expect(port.paused).toBe(true);
    narrator.pause();
    expect(port.pauses).toBe(1);
    narrator.resume();
    expect(status()).toBe('playing');
    expect(port.paused).toBe(false);
    port.endCurrent();
    expect(port.texts).toHaveLength(2);
    narrator.stop();
    expect(status()).toBe('idle');
    expect(port.cancels).toBe(1);
    expect(port.active).toHaveLength(0);
    expect(port.texts).toHaveLength(2);
  });

  it('a sentence that ends while paused does not start the next one until Resume', () => {
    const { narrator, port } = setup();
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    narrator.pause();
    port.endCurrent();
    expect(port.texts).toHaveLength(1);
    narrator.resume();
    expect(port.texts).toHaveLength(2);
  });

  it('paused while waiting for the writing: nothing is paused in the engine, new sentences wait', () => {
    const { narrator, port, status } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story(opened));
    narrator.update(story([...opened, reply('a2', 'One')], 'a2'));
    narrator.pause();
    expect(status()).toBe('paused');
    expect(port.pauses).toBe(0);
    narrator.update(story([...opened, reply('a2', 'One. Two')], 'a2'));
    expect(port.spoken).toHaveLength(0);
    narrator.resume();
    expect(port.texts).toEqual(['One.']);
  });

  it('does nothing for pause, resume or stop when idle', () => {
    const { narrator, port, status } = setup();
    narrator.pause();
    narrator.resume();
    narrator.stop();
    expect(status()).toBe('idle');
    expect([port.pauses, port.resumes, port.spoken.length]).toEqual([0, 0, 0]);
  });
});

describe('narrator: errors and support', () => {
  it("an utterance error stops the reading with a 'Speech Error'; our own cancel's errors are no error", () => {
    const { narrator, port, notices, status } = setup();
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    port.failCurrent('synthesis-failed');
    expect(status()).toBe('idle');
    expect(notices).toEqual([{ kind: 'error', error: 'synthesis-failed' }]);
    expect(port.texts).toHaveLength(1);
  });

  it("an utterance cut by someone else ('interrupted', 'canceled') ends the reading quietly", () => {
    const { narrator, port, notices, status } = setup();
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    port.failCurrent('canceled');
    expect(status()).toBe('idle');
    expect(notices).toEqual([]);
  });

  it("a reply read by itself that the browser refuses without a gesture ('not-allowed') ends quietly; Play still reports it", () => {
    const { narrator, port, notices } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story(opened));
    narrator.update(story([...opened, reply('a2', SECOND, 4)]));
    port.failCurrent('not-allowed');
    expect(notices).toEqual([]);
    narrator.play();
    port.failCurrent('not-allowed');
    expect(notices).toEqual([{ kind: 'error', error: 'not-allowed' }]);
  });

  it("without speech synthesis or server voices, turning on and Play say 'Not Supported' and narration stays off", () => {
    const { narrator, notices, stored } = setup({ port: null });
    narrator.attach();
    narrator.update(story(opened));
    narrator.setEnabled(true);
    expect(narrator.store.getState().enabled).toBe(false);
    expect(stored().enabled).toBe(false);
    narrator.play();
    expect(notices).toEqual([{ kind: 'unsupported' }, { kind: 'unsupported' }]);
    expect(narrator.store.getState().browserSupported).toBe(false);
  });

  it('toasts the spec texts, with the server’s own words for too much narration', () => {
    const { result } = renderHook(() => useToastState());
    const notify = (notice: NarrationNotice) => act(() => defaultNotify(notice));
    notify({ kind: 'unsupported' });
    expect(result.current.toasts[0]).toMatchObject({
      title: 'Not Supported',
      description: 'Text-to-speech is not supported in your browser.',
    });
    notify({ kind: 'error', error: 'synthesis-failed' });
    expect(result.current.toasts[0]).toMatchObject({
      title: 'Speech Error',
      description: 'Failed to speak the text. Please try again.',
      variant: 'destructive',
    });
    notify({
      kind: 'error',
      error: new ApiRequestError('Please wait a little.', { status: 429, code: 'RATE_LIMITED' }),
    });
    expect(result.current.toasts[0]).toMatchObject({ title: 'Speech Error', description: 'Please wait a little.' });
    notify({ kind: 'error', error: new ApiRequestError('Message not found', { status: 404, code: 'NOT_FOUND' }) });
    expect(result.current.toasts[0]).toMatchObject({ description: 'Failed to speak the text. Please try again.' });
  });
});

describe('narrator: voices and the page', () => {
  it('lists the browser voices once Chrome announces them, sorted, without duplicate names', () => {
    const port = new FakeSynthesisPort([]);
    const { narrator } = setup({ port });
    narrator.init();
    expect(narrator.store.getState().browserVoices).toEqual([]);
    port.setVoices([...VOICES, { name: 'Alice', lang: 'en-GB' }]);
    expect(narrator.store.getState().browserVoices.map((v) => v.name)).toEqual([
      'Alice',
      'Google US English',
      'Amelie',
      'Zed',
    ]);
  });

  it('speaks in the chosen voice, keeps the choice, and stops what the old voice was reading', () => {
    const { narrator, port, stored, status } = setup();
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    narrator.selectVoice({ name: 'Alice', lang: 'en-GB', source: 'browser' });
    expect(status()).toBe('idle');
    expect(stored()).toEqual({ enabled: false, voice: { name: 'Alice', lang: 'en-GB', source: 'browser' } });
    narrator.play();
    expect(port.spoken.at(-1)?.options).toMatchObject({ voiceName: 'Alice', lang: 'en-GB' });
  });

  it('speaks with the browser default voice while no voice is listed', () => {
    const { narrator, port } = setup({ port: new FakeSynthesisPort([]) });
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    expect(port.spoken[0].options).toEqual({ voiceName: null, lang: 'en-US', rate: 0.9, pitch: 1, volume: 1 });
  });

  it("stops speech when the page is left (detach) and on 'pagehide'", () => {
    const { narrator, port, target, status } = setup();
    const detach = narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    target.dispatchEvent(new Event('pagehide'));
    expect(status()).toBe('idle');
    expect(port.cancels).toBe(1);
    narrator.play();
    detach();
    expect(port.cancels).toBe(2);
    expect(narrator.store.getState().hasReply).toBe(false);
    // Nothing more to read once the page is gone.
    narrator.play();
    expect(port.texts).toHaveLength(2);
  });

  it('follows settings changed in another tab', () => {
    const { narrator, target, port, setStored } = setup({ settings: { enabled: true, voice: null } });
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    setStored({ enabled: false, voice: { name: 'Alice', lang: 'en-GB', source: 'browser' } });
    target.dispatchEvent(new StorageEvent('storage', { key: 'some-other-key' }));
    expect(narrator.store.getState().enabled).toBe(true);
    target.dispatchEvent(new StorageEvent('storage', { key: LOCAL_STORAGE_KEYS.narrationSettings }));
    expect(narrator.store.getState()).toMatchObject({
      enabled: false,
      choice: { name: 'Alice', lang: 'en-GB', source: 'browser' },
      status: 'idle',
    });
    expect(port.cancels).toBe(1);
  });
});

describe('narrator: server voices', () => {
  const serverSetup = () =>
    setup({
      serverVoices: ['aria', 'nova'],
      settings: { enabled: true, voice: { name: 'nova', lang: '', source: 'server' } },
    });

  it('reads a new reply in the chosen server voice once it is saved, not while it streams', () => {
    const { narrator, port, server, status } = serverSetup();
    narrator.attach();
    narrator.update(story(opened));
    narrator.update(story([...opened, reply('a2', 'At the top. A rope')], 'a2'));
    expect(server).toHaveLength(0);
    expect(status()).toBe('playing');
    narrator.update(story([...opened, reply('a2', SECOND, 4)]));
    expect(server.map((s) => s.request)).toEqual([{ storyId: 5, messageId: 4, voice: 'nova' }]);
    expect(port.spoken).toHaveLength(0);
    server[0].callbacks.onDone();
    expect(status()).toBe('idle');
  });

  it('Play reads the latest saved reply; pause, resume and stop act on the player', () => {
    const { narrator, server, status } = serverSetup();
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    expect(server[0].request).toEqual({ storyId: 5, messageId: 2, voice: 'nova' });
    narrator.pause();
    expect(server[0].pause).toHaveBeenCalledTimes(1);
    expect(status()).toBe('paused');
    narrator.resume();
    expect(server[0].resume).toHaveBeenCalledTimes(1);
    narrator.stop();
    expect(server[0].stop).toHaveBeenCalledTimes(1);
    expect(status()).toBe('idle');
  });

  it('a pause before the reply is saved holds the player as it starts', () => {
    const { narrator, server } = serverSetup();
    narrator.attach();
    narrator.update(story(opened));
    narrator.update(story([...opened, reply('a2', 'At the top.')], 'a2'));
    narrator.pause();
    narrator.update(story([...opened, reply('a2', SECOND, 4)]));
    expect(server[0].pause).toHaveBeenCalledTimes(1);
  });

  it("a failed part stops with a 'Speech Error'", () => {
    const { narrator, server, notices, status } = serverSetup();
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    const error = new Error('decode');
    server[0].callbacks.onError(error);
    expect(status()).toBe('idle');
    expect(notices).toEqual([{ kind: 'error', error }]);
  });

  it('server voices make narration possible without speech synthesis', () => {
    const { narrator, server, notices } = setup({ port: null, serverVoices: ['aria'] });
    narrator.attach();
    narrator.update(story(opened));
    narrator.setEnabled(true);
    expect(notices).toEqual([]);
    expect(server[0].request).toEqual({ storyId: 5, messageId: 2, voice: 'aria' });
  });

  it('falls back to the preferred browser voice when the chosen server voice is no longer offered', () => {
    const { narrator, port, server } = serverSetup();
    narrator.setServerVoices([]);
    narrator.attach();
    narrator.update(story(opened));
    narrator.play();
    expect(server).toHaveLength(0);
    expect(port.spoken[0].options.voiceName).toBe('Google US English');
  });
});
