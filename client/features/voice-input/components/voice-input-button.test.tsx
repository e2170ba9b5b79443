// The microphone button with fake ports: each state (idle, starting, recording, processing) with
// its label, aria-pressed and announcement; both paths (browser recognition, server
// transcription); every toast with its title and text; the 60 s limit; and
// leaving the page mid-way.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MAX_RECORDING_BYTES, MAX_RECORDING_MS } from '@shared/schemas/speech';
import { featuresQueryKey } from '@client/lib/features';
import { jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { VoiceInputError } from '../errors';
import { createBrowserAudioRecorder, type RecorderEnvironment } from '../ports/audio-recorder';
import type { VoiceInputPorts } from '../ports/voice-input-ports';
import { VOICE_INPUT_STRINGS as S } from '../strings';
import { createFakePorts, fakeAudio, FakeMediaRecorder, fakeStream, type FakePorts } from '../testing/fakes';
import { VoiceInputButton } from './voice-input-button';

function features(transcription: boolean) {
  return mockFetch((request) => {
    if (request.url === '/api/features')
      return jsonResponse({
        images: false,
        speech: { voices: [], transcription },
        ads: { enabled: false, sponsorUrl: null },
      });
    return jsonResponse({ message: 'unexpected' }, { status: 500 });
  });
}

function renderButton(ports: VoiceInputPorts, options: { transcription?: boolean } = {}) {
  const onTranscript = vi.fn();
  const view = renderWithProviders(
    <VoiceInputButton onTranscript={onTranscript} ports={ports} transcription={options.transcription ?? false} />,
  );
  return { ...view, onTranscript };
}

const speakButton = () => screen.getByRole('button', { name: S.speak });
const stopButton = () => screen.getByRole('button', { name: S.stop });
const liveRegion = () => document.querySelector('[aria-live="polite"][aria-atomic="true"]');

async function expectToast(title: string, text: string) {
  expect(await screen.findByText(title, { exact: true })).toBeInTheDocument();
  expect(screen.getByText(text, { exact: true })).toBeInTheDocument();
}

async function startRecognition(ports: FakePorts) {
  await userEvent.click(speakButton());
  await waitFor(() => expect(ports.recognitionSessions).toHaveLength(1));
  return ports.recognitionSessions[0];
}

async function startRecording(ports: FakePorts) {
  await userEvent.click(speakButton());
  await screen.findByRole('button', { name: S.stop });
  await waitFor(() => expect(ports.recordings).toHaveLength(1));
  return ports.recordings[0];
}

describe('VoiceInputButton: idle', () => {
  it('is a toggle button, not pressed, labelled for speaking, with a tooltip', async () => {
    renderButton(createFakePorts());
    const button = speakButton();
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(button).toBeEnabled();
    expect(screen.queryByTestId('recording-indicator')).not.toBeInTheDocument();
    await userEvent.hover(button);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(S.speak);
  });
});

describe('VoiceInputButton: browser recognition (the server does not transcribe)', () => {
  it('records, puts the heard text through, and goes back to idle on the end', async () => {
    const ports = createFakePorts();
    const { onTranscript } = renderButton(ports);
    const session = await startRecognition(ports);
    expect(ports.recorder!.start).not.toHaveBeenCalled();
    const button = stopButton();
    expect(button).toHaveAttribute('aria-pressed', 'true');
    // 'Stop' shows from the start; the indicator once the microphone records, a render later.
    expect(await screen.findByTestId('recording-indicator')).toBeInTheDocument();
    expect(liveRegion()).toHaveTextContent(S.announceRecording);

    act(() => session.handlers.onResult('  look behind the door '));
    expect(onTranscript).toHaveBeenCalledWith('look behind the door');
    act(() => session.handlers.onEnd());
    expect(speakButton()).toHaveAttribute('aria-pressed', 'false');
    expect(liveRegion()).toHaveTextContent(S.announceAdded);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('checks the microphone permission first; with it granted, nothing prompts', async () => {
    const ports = createFakePorts({ permission: 'granted' });
    renderButton(ports);
    await startRecognition(ports);
    expect(ports.microphone.query).toHaveBeenCalled();
    expect(ports.microphone.probe).not.toHaveBeenCalled();
  });

  it.each(['prompt', 'unknown'] as const)(
    'opens the microphone once to ask when the permission is %s',
    async (permission) => {
      const ports = createFakePorts({ permission });
      renderButton(ports);
      await startRecognition(ports);
      expect(ports.microphone.probe).toHaveBeenCalledTimes(1);
      expect(ports.microphone.probe.mock.invocationCallOrder[0]).toBeLessThan(
        vi.mocked(ports.recognizer!.start).mock.invocationCallOrder[0],
      );
    },
  );

  it('a second click stops listening: the result still arrives, then the end', async () => {
    const ports = createFakePorts();
    const { onTranscript } = renderButton(ports);
    const session = await startRecognition(ports);
    await userEvent.click(stopButton());
    expect(session.stop).toHaveBeenCalledTimes(1);
    const busy = screen.getByRole('button', { name: S.transcribing });
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(busy).toHaveAttribute('aria-pressed', 'false');
    expect(liveRegion()).toHaveTextContent(S.announceTranscribing);
    // Clicking while the text is on its way changes nothing.
    await userEvent.click(busy);
    expect(session.stop).toHaveBeenCalledTimes(1);
    expect(ports.recognitionSessions).toHaveLength(1);
    act(() => {
      session.handlers.onResult('open the chest');
      session.handlers.onEnd();
    });
    expect(onTranscript).toHaveBeenCalledWith('open the chest');
    expect(speakButton()).toBeInTheDocument();
  });

  it("'no-speech' ends quietly: no toast, nothing added, a gentle announcement", async () => {
    const ports = createFakePorts();
    const { onTranscript } = renderButton(ports);
    const session = await startRecognition(ports);
    act(() => {
      session.handlers.onError('no-speech');
      session.handlers.onEnd();
    });
    expect(speakButton()).toBeInTheDocument();
    expect(onTranscript).not.toHaveBeenCalled();
    expect(liveRegion()).toHaveTextContent(S.announceNoSpeech);
    expect(screen.queryByText(S.recordingErrorTitle)).not.toBeInTheDocument();
  });

  it("'aborted' ends quietly too", async () => {
    const ports = createFakePorts();
    renderButton(ports);
    const session = await startRecognition(ports);
    act(() => {
      session.handlers.onError('aborted');
      session.handlers.onEnd();
    });
    expect(speakButton()).toBeInTheDocument();
    expect(screen.queryByText(S.recordingErrorTitle)).not.toBeInTheDocument();
    expect(screen.queryByText(S.permissionTitle)).not.toBeInTheDocument();
  });

  it.each(['not-allowed', 'service-not-allowed'])("a '%s' error asks for microphone access", async (code) => {
    const ports = createFakePorts();
    renderButton(ports);
    const session = await startRecognition(ports);
    act(() => session.handlers.onError(code));
    await expectToast('Permission Required', 'Please enable microphone access to use voice input.');
    expect(speakButton()).toBeInTheDocument();
    // The end that follows changes nothing.
    act(() => session.handlers.onEnd());
    expect(liveRegion()).toHaveTextContent('');
  });

  it.each(['network', 'audio-capture', 'language-not-supported'])("a '%s' error is a recording error", async (code) => {
    const ports = createFakePorts();
    const { onTranscript } = renderButton(ports);
    const session = await startRecognition(ports);
    act(() => session.handlers.onError(code));
    await expectToast('Recording Error', 'Failed to record audio. Please try again.');
    expect(speakButton()).toHaveAttribute('aria-pressed', 'false');
    // A result arriving after the failure is dropped.
    act(() => session.handlers.onResult('too late'));
    expect(onTranscript).not.toHaveBeenCalled();
  });

  it('recognition.start() throwing is a failure to start', async () => {
    const ports = createFakePorts({ recognitionStartError: new DOMException('already started', 'InvalidStateError') });
    renderButton(ports);
    await userEvent.click(speakButton());
    await expectToast('Recording Error', 'Failed to start recording. Please try again.');
    expect(speakButton()).toBeInTheDocument();
  });

  it('a denied permission asks for access without prompting or listening', async () => {
    const ports = createFakePorts({ permission: 'denied' });
    renderButton(ports);
    await userEvent.click(speakButton());
    await expectToast('Permission Required', 'Please enable microphone access to use voice input.');
    expect(ports.microphone.probe).not.toHaveBeenCalled();
    expect(ports.recognizer!.start).not.toHaveBeenCalled();
    expect(speakButton()).toBeInTheDocument();
  });

  it('the microphone refused at the prompt (NotAllowedError, SecurityError) asks for access', async () => {
    const ports = createFakePorts({ permission: 'prompt', probeError: new VoiceInputError('permission-denied') });
    renderButton(ports);
    await userEvent.click(speakButton());
    await expectToast('Permission Required', 'Please enable microphone access to use voice input.');
    expect(ports.recognizer!.start).not.toHaveBeenCalled();
  });

  it('a browser without navigator.mediaDevices is told speech input is not supported', async () => {
    const ports = createFakePorts({ permission: 'unknown', probeError: new VoiceInputError('unsupported') });
    renderButton(ports);
    await userEvent.click(speakButton());
    await expectToast('Not Supported', 'Speech input is not supported in your browser.');
  });

  it('a microphone that will not open is a failure to start', async () => {
    const ports = createFakePorts({ permission: 'prompt', probeError: new VoiceInputError('start-failed') });
    renderButton(ports);
    await userEvent.click(speakButton());
    await expectToast('Recording Error', 'Failed to start recording. Please try again.');
  });

  it('without SpeechRecognition (and no server transcription) says so and asks nothing of the microphone', async () => {
    const ports = createFakePorts({ recognizer: false });
    renderButton(ports);
    await userEvent.click(speakButton());
    await expectToast(
      'Speech Recognition Not Supported',
      "Your browser doesn't support speech recognition. Please try using Chrome.",
    );
    expect(ports.microphone.query).not.toHaveBeenCalled();
    expect(ports.recorder!.start).not.toHaveBeenCalled();
    expect(speakButton()).toHaveAttribute('aria-pressed', 'false');
  });

  it('leaving the page aborts listening and drops what comes after', async () => {
    const ports = createFakePorts();
    const { onTranscript, unmount } = renderButton(ports);
    const session = await startRecognition(ports);
    unmount();
    expect(session.abort).toHaveBeenCalled();
    session.handlers.onResult('after leaving');
    session.handlers.onEnd();
    expect(onTranscript).not.toHaveBeenCalled();
  });
});

describe('VoiceInputButton: server transcription', () => {
  it('reads GET /api/features: with transcription on it records instead of using the browser recogniser', async () => {
    features(true);
    const ports = createFakePorts();
    const { queryClient } = renderWithProviders(<VoiceInputButton onTranscript={vi.fn()} ports={ports} />);
    // The features are known before the player's click, as they would be on a real page.
    await waitFor(() => expect(queryClient.getQueryData(featuresQueryKey)).toBeDefined());
    await startRecording(ports);
    expect(ports.recognizer!.start).not.toHaveBeenCalled();
  });

  it('records, stops on the second click, uploads that recording and puts the text through', async () => {
    const audio = fakeAudio(3000, 'audio/ogg;codecs=opus');
    const ports = createFakePorts({ audio });
    const { onTranscript } = renderButton(ports, { transcription: true });
    const recording = await startRecording(ports);
    expect(ports.recorder!.start).toHaveBeenCalledWith({ maxDurationMs: MAX_RECORDING_MS });
    expect(stopButton()).toHaveAttribute('aria-pressed', 'true');
    // 'Stop' shows from the start; the indicator once the microphone records, a render later.
    expect(await screen.findByTestId('recording-indicator')).toBeInTheDocument();

    await userEvent.click(stopButton());
    expect(recording.stop).toHaveBeenCalled();
    expect(await screen.findByRole('button', { name: S.transcribing })).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(ports.uploads).toHaveLength(1));
    expect(ports.uploads[0]).toBe(audio);
    expect(ports.uploads[0].type).toBe('audio/ogg;codecs=opus');
    expect(onTranscript).not.toHaveBeenCalled();

    await act(async () => ports.answerUpload(' the fake transcript '));
    expect(onTranscript).toHaveBeenCalledWith('the fake transcript');
    expect(speakButton()).toHaveAttribute('aria-pressed', 'false');
    expect(liveRegion()).toHaveTextContent(S.announceAdded);
  });

  it('uploads by itself when the recording reaches its time limit', async () => {
    const ports = createFakePorts();
    renderButton(ports, { transcription: true });
    const recording = await startRecording(ports);
    const audio = fakeAudio(500);
    await act(async () => recording.finish(audio));
    expect(ports.uploads).toEqual([audio]);
    expect(screen.getByRole('button', { name: S.transcribing })).toBeInTheDocument();
  });

  it('an empty transcript adds nothing and says so quietly', async () => {
    const ports = createFakePorts();
    const { onTranscript } = renderButton(ports, { transcription: true });
    await startRecording(ports);
    await userEvent.click(stopButton());
    await waitFor(() => expect(ports.uploads).toHaveLength(1));
    await act(async () => ports.answerUpload('   '));
    expect(onTranscript).not.toHaveBeenCalled();
    expect(liveRegion()).toHaveTextContent(S.announceNoSpeech);
    expect(screen.queryByText(S.recordingErrorTitle)).not.toBeInTheDocument();
  });

  it('a denied permission asks for access without opening the microphone', async () => {
    const ports = createFakePorts({ permission: 'denied' });
    renderButton(ports, { transcription: true });
    await userEvent.click(speakButton());
    await expectToast('Permission Required', 'Please enable microphone access to use voice input.');
    expect(ports.recorder!.start).not.toHaveBeenCalled();
  });

  it.each([
    [
      'a refused microphone',
      new VoiceInputError('permission-denied'),
      'Permission Required',
      'Please enable microphone access to use voice input.',
    ],
    [
      'no microphone API',
      new VoiceInputError('unsupported'),
      'Not Supported',
      'Speech input is not supported in your browser.',
    ],
    [
      'MediaRecorder failing to start',
      new VoiceInputError('start-failed'),
      'Recording Error',
      'Failed to start recording. Please try again.',
    ],
    ['an unexpected error', new Error('???'), 'Recording Error', 'Failed to start recording. Please try again.'],
  ])('%s when starting shows its toast', async (_label, error, title, text) => {
    const ports = createFakePorts({ recorderStartError: error });
    renderButton(ports, { transcription: true });
    await userEvent.click(speakButton());
    await expectToast(title, text);
    expect(speakButton()).toHaveAttribute('aria-pressed', 'false');
  });

  it('a recorder failing mid-way is a recording error, with nothing uploaded', async () => {
    const ports = createFakePorts();
    renderButton(ports, { transcription: true });
    const recording = await startRecording(ports);
    await act(async () => recording.break());
    await expectToast('Recording Error', 'Failed to record audio. Please try again.');
    expect(ports.uploads).toHaveLength(0);
    expect(speakButton()).toBeInTheDocument();
  });

  it('a failed upload (4xx, 5xx, network, bad JSON) is a recording error', async () => {
    const ports = createFakePorts();
    const { onTranscript } = renderButton(ports, { transcription: true });
    await startRecording(ports);
    await userEvent.click(stopButton());
    await waitFor(() => expect(ports.uploads).toHaveLength(1));
    await act(async () => ports.failUpload());
    await expectToast('Recording Error', 'Failed to record audio. Please try again.');
    expect(onTranscript).not.toHaveBeenCalled();
    expect(speakButton()).toBeInTheDocument();
  });

  it.each([
    ['over 10 MB', new Blob([new Uint8Array(MAX_RECORDING_BYTES + 1)], { type: 'audio/webm' })],
    ['empty', new Blob([], { type: 'audio/webm' })],
  ])('a recording %s is a recording error and is not uploaded', async (_label, audio) => {
    const ports = createFakePorts({ audio });
    renderButton(ports, { transcription: true });
    await startRecording(ports);
    await userEvent.click(stopButton());
    await expectToast('Recording Error', 'Failed to record audio. Please try again.');
    expect(ports.transcribe).not.toHaveBeenCalled();
  });

  it('without a recorder the browser recogniser is used; without either, speech input is not supported', async () => {
    const withRecogniser = createFakePorts({ recorder: false });
    const first = renderButton(withRecogniser, { transcription: true });
    await startRecognition(withRecogniser);
    first.unmount();

    const neither = createFakePorts({ recorder: false, recognizer: false });
    renderButton(neither, { transcription: true });
    await userEvent.click(speakButton());
    await expectToast('Not Supported', 'Speech input is not supported in your browser.');
  });

  it('a click while the microphone is still opening cancels, and the microphone is let go when it opens', async () => {
    const ports = createFakePorts();
    let grant!: () => void;
    const slowQuery = new Promise<'granted'>((resolve) => {
      grant = () => resolve('granted');
    });
    ports.microphone.query.mockReturnValueOnce(slowQuery);
    renderButton(ports, { transcription: true });
    await userEvent.click(speakButton());
    const starting = stopButton();
    expect(starting).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByTestId('recording-indicator')).not.toBeInTheDocument();
    await userEvent.click(starting);
    expect(speakButton()).toBeInTheDocument();
    expect(liveRegion()).toHaveTextContent(S.announceCancelled);
    await act(async () => grant());
    expect(ports.recorder!.start).not.toHaveBeenCalled();
  });

  it('leaving the page while recording stops without uploading', async () => {
    const ports = createFakePorts();
    const { unmount } = renderButton(ports, { transcription: true });
    const recording = await startRecording(ports);
    unmount();
    expect(recording.cancel).toHaveBeenCalled();
    await act(async () => recording.finish(fakeAudio()));
    expect(ports.transcribe).not.toHaveBeenCalled();
  });

  it('leaving the page during the upload aborts it and drops its text', async () => {
    const ports = createFakePorts();
    const { onTranscript, unmount } = renderButton(ports, { transcription: true });
    await startRecording(ports);
    await userEvent.click(stopButton());
    await waitFor(() => expect(ports.uploads).toHaveLength(1));
    unmount();
    expect(ports.uploadSignals[0].aborted).toBe(true);
    await act(async () => ports.answerUpload('too late'));
    expect(onTranscript).not.toHaveBeenCalled();
  });
});

describe('VoiceInputButton with the real recorder port', () => {
  it('stops at 60 seconds by itself, releases the microphone and uploads a Blob of the recorded type', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    FakeMediaRecorder.reset();
    const { stream, track } = fakeStream();
    const env: RecorderEnvironment = {
      navigator: { mediaDevices: { getUserMedia: vi.fn(async () => stream) } },
      MediaRecorder: FakeMediaRecorder as unknown as RecorderEnvironment['MediaRecorder'],
    };
    const ports = { ...createFakePorts(), recorder: createBrowserAudioRecorder(env) } as FakePorts;
    renderButton(ports, { transcription: true });
    fireEvent.click(speakButton());
    await act(async () => vi.advanceTimersByTimeAsync(0));
    expect(stopButton()).toHaveAttribute('aria-pressed', 'true');
    const [recorder] = FakeMediaRecorder.instances;
    expect(recorder.state).toBe('recording');

    await act(async () => vi.advanceTimersByTimeAsync(MAX_RECORDING_MS - 1));
    expect(recorder.state).toBe('recording');
    expect(ports.uploads).toHaveLength(0);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(recorder.state).toBe('inactive');
    expect(track.stop).toHaveBeenCalled();
    expect(ports.uploads).toHaveLength(1);
    expect(ports.uploads[0].type).toBe('audio/webm;codecs=opus');
    expect(screen.getByRole('button', { name: S.transcribing })).toBeInTheDocument();
  });
});
