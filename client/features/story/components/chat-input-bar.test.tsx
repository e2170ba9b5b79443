// The bottom bar with voice input, through the real ports over fake browser APIs: spoken text is
// added after the typed draft (never replacing it, never sent by itself), the cursor ends after it
// with the input focused, the per-story draft in sessionStorage follows, and whatever fails, the
// draft is untouched. The microphone stays usable while the narrator writes.
import { createRef } from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { featuresQueryKey } from '@client/lib/features';
import { storyDraftKey } from '@client/lib/storage-keys';
import { jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { VOICE_INPUT_STRINGS } from '@client/features/voice-input';
import {
  FakeMediaRecorder,
  FakeSpeechRecognition,
  fakeStream,
  installBrowserSpeech,
  type BrowserSpeechInstall,
} from '@client/features/voice-input/testing/fakes';
import { STORY_STRINGS } from '../strings';
import { ChatInputBar, type ChatInputHandle } from './chat-input-bar';

let uninstall: (() => void) | null = null;
afterEach(() => {
  uninstall?.();
  uninstall = null;
});

function setup(options: {
  speech: BrowserSpeechInstall;
  transcription?: boolean;
  isGenerating?: boolean;
  draft?: string;
  transcribe?: () => Response;
}) {
  uninstall = installBrowserSpeech(options.speech);
  if (options.draft !== undefined) window.sessionStorage.setItem(storyDraftKey(5), options.draft);
  const fetchMock = mockFetch((request) => {
    if (request.url === '/api/features')
      return jsonResponse({
        images: false,
        speech: { voices: [], transcription: options.transcription ?? false },
        ads: { enabled: false, sponsorUrl: null },
      });
    if (request.url === '/api/speech/transcriptions')
      return options.transcribe?.() ?? jsonResponse({ text: 'the fake transcript' });
    return jsonResponse({ message: 'unexpected' }, { status: 500 });
  });
  const onSend = vi.fn();
  const ref = createRef<ChatInputHandle>();
  const view = renderWithProviders(
    <ChatInputBar ref={ref} storyId={5} isGenerating={options.isGenerating ?? false} onSend={onSend} />,
  );
  return {
    ...view,
    fetchMock,
    onSend,
    ref,
    input: screen.getByPlaceholderText(STORY_STRINGS.inputPlaceholder) as HTMLTextAreaElement,
  };
}

const mic = () => screen.getByRole('button', { name: VOICE_INPUT_STRINGS.speak });
const granted = (): BrowserSpeechInstall => ({
  recognition: true,
  getUserMedia: vi.fn(async () => fakeStream().stream),
  permission: 'granted',
});

async function speak(text: string) {
  await userEvent.click(mic());
  await screen.findByRole('button', { name: VOICE_INPUT_STRINGS.stop });
  const [recognition] = FakeSpeechRecognition.instances;
  act(() => {
    recognition.emitResult(text);
    recognition.emitEnd();
  });
  return recognition;
}

function expectCaretAtEnd(input: HTMLTextAreaElement) {
  expect(input).toHaveFocus();
  expect(input.selectionStart).toBe(input.value.length);
  expect(input.selectionEnd).toBe(input.value.length);
}

describe('ChatInputBar with voice input (browser recognition)', () => {
  it('adds the spoken words after the typed draft, puts the cursor after them, and sends nothing', async () => {
    const { input, onSend } = setup({ speech: granted(), draft: 'I lift the lantern' });
    expect(input).toHaveValue('I lift the lantern');
    const recognition = await speak('look behind the door');
    expect(recognition).toMatchObject({ lang: 'en-US', continuous: false, interimResults: false, maxAlternatives: 1 });
    expect(input).toHaveValue('I lift the lantern look behind the door');
    expectCaretAtEnd(input);
    expect(onSend).not.toHaveBeenCalled();
    expect(window.sessionStorage.getItem(storyDraftKey(5))).toBe('I lift the lantern look behind the door');
    // The player checks it and sends it themselves.
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('I lift the lantern look behind the door');
  });

  it('stands on its own in an empty input', async () => {
    const { input } = setup({ speech: granted() });
    await speak('look behind the door');
    expect(input).toHaveValue('look behind the door');
    expectCaretAtEnd(input);
  });

  it('keeps what the player typed while speaking', async () => {
    const { input } = setup({ speech: granted(), draft: 'I wait' });
    await userEvent.click(mic());
    await screen.findByRole('button', { name: VOICE_INPUT_STRINGS.stop });
    await userEvent.type(input, ' quietly');
    const [recognition] = FakeSpeechRecognition.instances;
    act(() => {
      recognition.emitResult('then knock twice');
      recognition.emitEnd();
    });
    expect(input).toHaveValue('I wait quietly then knock twice');
  });

  it('can be used while the narrator writes (only sending waits)', async () => {
    const { input } = setup({ speech: granted(), isGenerating: true, draft: 'Next' });
    expect(screen.getByRole('button', { name: STORY_STRINGS.send })).toBeDisabled();
    expect(mic()).toBeEnabled();
    await speak('I run');
    expect(input).toHaveValue('Next I run');
  });

  it('leaves the draft untouched when recognition fails', async () => {
    const { input } = setup({ speech: granted(), draft: 'I lift the lantern' });
    await userEvent.click(mic());
    await screen.findByRole('button', { name: VOICE_INPUT_STRINGS.stop });
    act(() => FakeSpeechRecognition.instances[0].emitError('network'));
    expect(await screen.findByText('Recording Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to record audio. Please try again.')).toBeInTheDocument();
    expect(input).toHaveValue('I lift the lantern');
    expect(window.sessionStorage.getItem(storyDraftKey(5))).toBe('I lift the lantern');
  });

  it('a denied microphone asks for access without prompting, and the draft stays', async () => {
    const speech = { ...granted(), permission: 'denied' as const };
    const { input } = setup({ speech, draft: 'I lift the lantern' });
    await userEvent.click(mic());
    expect(await screen.findByText('Permission Required')).toBeInTheDocument();
    expect(screen.getByText('Please enable microphone access to use voice input.')).toBeInTheDocument();
    expect(speech.getUserMedia).not.toHaveBeenCalled();
    expect(FakeSpeechRecognition.instances).toHaveLength(0);
    expect(input).toHaveValue('I lift the lantern');
  });

  it('a microphone refused at the prompt (NotAllowedError) asks for access', async () => {
    const { input } = setup({
      speech: {
        recognition: true,
        getUserMedia: vi.fn(async () => Promise.reject(new DOMException('denied', 'NotAllowedError'))),
        permission: 'prompt',
      },
      draft: 'Still here',
    });
    await userEvent.click(mic());
    expect(await screen.findByText('Permission Required')).toBeInTheDocument();
    expect(input).toHaveValue('Still here');
  });

  it('a browser without SpeechRecognition is pointed to Chrome', async () => {
    const { input } = setup({
      speech: { getUserMedia: vi.fn(async () => fakeStream().stream), permission: 'granted' },
      draft: 'Still here',
    });
    await userEvent.click(mic());
    expect(await screen.findByText('Speech Recognition Not Supported')).toBeInTheDocument();
    expect(
      screen.getByText("Your browser doesn't support speech recognition. Please try using Chrome."),
    ).toBeInTheDocument();
    expect(input).toHaveValue('Still here');
  });
});

describe('ChatInputBar with voice input (server transcription)', () => {
  async function record(view: ReturnType<typeof setup>) {
    await waitFor(() => expect(view.queryClient.getQueryData(featuresQueryKey)).toBeDefined());
    await userEvent.click(mic());
    await screen.findByRole('button', { name: VOICE_INPUT_STRINGS.stop });
    const [recorder] = FakeMediaRecorder.instances;
    act(() => recorder.emitData(2000));
    await userEvent.click(screen.getByRole('button', { name: VOICE_INPUT_STRINGS.stop }));
  }

  it('records, uploads the recording with its type, and adds the transcript after the draft', async () => {
    const { stream, track } = fakeStream();
    const view = setup({
      speech: { mediaRecorder: true, getUserMedia: vi.fn(async () => stream), permission: 'prompt' },
      transcription: true,
      draft: 'I lift the lantern',
    });
    await record(view);
    await waitFor(() => expect(view.input).toHaveValue('I lift the lantern the fake transcript'));
    expectCaretAtEnd(view.input);
    expect(view.onSend).not.toHaveBeenCalled();
    expect(track.stop).toHaveBeenCalled();

    const call = view.fetchMock.mock.calls.find(([url]) => String(url) === '/api/speech/transcriptions');
    expect(call).toBeDefined();
    const init = call![1]!;
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBeInstanceOf(Blob);
    expect((init.body as Blob).type).toBe('audio/webm;codecs=opus');
    expect((init.body as Blob).size).toBe(2512);
    const headers = new Headers(init.headers);
    expect(headers.get('Content-Type')).toBe('audio/webm;codecs=opus');
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(headers.get('Accept')).toBe('application/json');
  });

  it.each([
    [
      'a 500',
      () =>
        jsonResponse(
          { message: 'The transcription service is unavailable right now.', code: 'TRANSCRIPTION_FAILED' },
          { status: 502 },
        ),
    ],
    [
      'a 413',
      () => jsonResponse({ message: 'A recording can be at most 10 MB.', code: 'PAYLOAD_TOO_LARGE' }, { status: 413 }),
    ],
    ['bad JSON', () => new Response('{"text":', { headers: { 'Content-Type': 'application/json' } })],
  ])('%s from the server is a recording error, and the draft stays', async (_label, transcribe) => {
    const view = setup({
      speech: { mediaRecorder: true, getUserMedia: vi.fn(async () => fakeStream().stream), permission: 'granted' },
      transcription: true,
      draft: 'I lift the lantern',
      transcribe,
    });
    await record(view);
    expect(await screen.findByText('Recording Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to record audio. Please try again.')).toBeInTheDocument();
    expect(view.input).toHaveValue('I lift the lantern');
    expect(window.sessionStorage.getItem(storyDraftKey(5))).toBe('I lift the lantern');
    expect(mic()).toHaveAttribute('aria-pressed', 'false');
  });

  it('a microphone refused when recording starts asks for access', async () => {
    const view = setup({
      speech: {
        mediaRecorder: true,
        getUserMedia: vi.fn(async () => Promise.reject(new DOMException('no', 'SecurityError'))),
      },
      transcription: true,
      draft: 'Still here',
    });
    await waitFor(() => expect(view.queryClient.getQueryData(featuresQueryKey)).toBeDefined());
    await userEvent.click(mic());
    expect(await screen.findByText('Permission Required')).toBeInTheDocument();
    expect(view.input).toHaveValue('Still here');
  });
});

describe('ChatInputHandle.insert', () => {
  it('adds text after the draft and focuses the input with the cursor at the end', () => {
    const { input, ref } = setup({ speech: {}, draft: 'Hello' });
    act(() => ref.current!.insert('there'));
    expect(input).toHaveValue('Hello there');
    expectCaretAtEnd(input);
    act(() => ref.current!.insert('   '));
    expect(input).toHaveValue('Hello there');
  });
});
