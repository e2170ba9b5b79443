// The recorder port over getUserMedia + MediaRecorder: the first supported audio type, chunks
// collected into one Blob of that type, the 60 s limit, the microphone released afterwards, and
// each way it can fail.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_RECORDING_MS } from '@shared/schemas/speech';
import { FakeMediaRecorder, fakeStream } from '../testing/fakes';
import {
  canRecordAudio,
  createBrowserAudioRecorder,
  pickRecordingMimeType,
  type RecorderEnvironment,
} from './audio-recorder';

function environment(
  getUserMedia = vi.fn(async () => fakeStream().stream),
): RecorderEnvironment & { getUserMedia: typeof getUserMedia } {
  return {
    navigator: { mediaDevices: { getUserMedia } },
    MediaRecorder: FakeMediaRecorder as unknown as RecorderEnvironment['MediaRecorder'],
    getUserMedia,
  };
}

beforeEach(() => FakeMediaRecorder.reset());
afterEach(() => FakeMediaRecorder.reset());

describe('pickRecordingMimeType', () => {
  it('takes the first supported type in order: webm/opus, webm, ogg/opus, mp4', () => {
    FakeMediaRecorder.supported = ['audio/mp4', 'audio/ogg;codecs=opus'];
    expect(pickRecordingMimeType(FakeMediaRecorder)).toBe('audio/ogg;codecs=opus');
    FakeMediaRecorder.supported = ['audio/mp4'];
    expect(pickRecordingMimeType(FakeMediaRecorder)).toBe('audio/mp4');
    FakeMediaRecorder.supported = ['audio/webm', 'audio/webm;codecs=opus'];
    expect(pickRecordingMimeType(FakeMediaRecorder)).toBe('audio/webm;codecs=opus');
  });

  it('lets the browser choose when it supports none or cannot tell', () => {
    FakeMediaRecorder.supported = [];
    expect(pickRecordingMimeType(FakeMediaRecorder)).toBeUndefined();
    expect(pickRecordingMimeType({})).toBeUndefined();
  });
});

describe('createBrowserAudioRecorder', () => {
  it('is null without getUserMedia or MediaRecorder', () => {
    expect(
      createBrowserAudioRecorder({
        navigator: {},
        MediaRecorder: FakeMediaRecorder as unknown as RecorderEnvironment['MediaRecorder'],
      }),
    ).toBeNull();
    expect(createBrowserAudioRecorder({ navigator: { mediaDevices: { getUserMedia: vi.fn() } } })).toBeNull();
    expect(canRecordAudio(environment())).toBe(true);
  });

  it('records the microphone in the first supported type and gives one Blob of that type', async () => {
    const env = environment();
    const recording = await createBrowserAudioRecorder(env)!.start();
    expect(env.getUserMedia).toHaveBeenCalledWith({ audio: true });
    const [recorder] = FakeMediaRecorder.instances;
    expect(recorder.options).toEqual({ mimeType: 'audio/webm;codecs=opus' });
    expect(recorder.state).toBe('recording');
    expect(recorder.timeslice).toBe(1000);
    recorder.emitData(1000);
    recorder.emitData(0); // empty chunks are dropped
    recording.stop();
    const audio = await recording.done;
    expect(audio).toBeInstanceOf(Blob);
    expect(audio!.type).toBe('audio/webm;codecs=opus');
    expect(audio!.size).toBe(1512);
  });

  it('stops the microphone tracks once recording ends, so the browser indicator goes off', async () => {
    const { stream, track } = fakeStream();
    const recording = await createBrowserAudioRecorder(environment(vi.fn(async () => stream)))!.start();
    expect(track.stop).not.toHaveBeenCalled();
    recording.stop();
    await recording.done;
    expect(track.stop).toHaveBeenCalled();
  });

  it('stops by itself after 60 seconds', async () => {
    vi.useFakeTimers();
    const { stream, track } = fakeStream();
    const recording = await createBrowserAudioRecorder(environment(vi.fn(async () => stream)))!.start();
    const [recorder] = FakeMediaRecorder.instances;
    vi.advanceTimersByTime(MAX_RECORDING_MS - 1);
    expect(recorder.state).toBe('recording');
    vi.advanceTimersByTime(1);
    expect(recorder.state).toBe('inactive');
    expect(track.stop).toHaveBeenCalled();
    await expect(recording.done).resolves.toBeInstanceOf(Blob);
  });

  it('takes a shorter limit when asked, and a stop before it clears the timer', async () => {
    vi.useFakeTimers();
    const recording = await createBrowserAudioRecorder(environment())!.start({ maxDurationMs: 5000 });
    recording.stop();
    await recording.done;
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cancel() drops the recording and frees the microphone at once', async () => {
    const { stream, track } = fakeStream();
    const recording = await createBrowserAudioRecorder(environment(vi.fn(async () => stream)))!.start();
    recording.cancel();
    await expect(recording.done).resolves.toBeNull();
    expect(track.stop).toHaveBeenCalled();
    expect(FakeMediaRecorder.instances[0].state).toBe('inactive');
  });

  it.each(['NotAllowedError', 'SecurityError'])('reports getUserMedia %s as a refused microphone', async (name) => {
    const env = environment(vi.fn(async () => Promise.reject(new DOMException('no', name))));
    await expect(createBrowserAudioRecorder(env)!.start()).rejects.toMatchObject({ kind: 'permission-denied' });
    expect(FakeMediaRecorder.instances).toHaveLength(0);
  });

  it('reports a microphone that will not open (NotReadableError) as a start failure', async () => {
    const env = environment(vi.fn(async () => Promise.reject(new DOMException('busy', 'NotReadableError'))));
    await expect(createBrowserAudioRecorder(env)!.start()).rejects.toMatchObject({ kind: 'start-failed' });
  });

  it('reports a MediaRecorder that fails to start as a start failure, and frees the microphone', async () => {
    FakeMediaRecorder.constructorError = new DOMException('unsupported', 'NotSupportedError');
    const { stream, track } = fakeStream();
    await expect(createBrowserAudioRecorder(environment(vi.fn(async () => stream)))!.start()).rejects.toMatchObject({
      kind: 'start-failed',
    });
    expect(track.stop).toHaveBeenCalled();
  });

  it('reports a recorder error mid-way as a failed recording, and frees the microphone', async () => {
    const { stream, track } = fakeStream();
    const recording = await createBrowserAudioRecorder(environment(vi.fn(async () => stream)))!.start();
    FakeMediaRecorder.instances[0].emitError();
    await expect(recording.done).rejects.toMatchObject({ kind: 'record-failed' });
    expect(track.stop).toHaveBeenCalled();
  });
});
