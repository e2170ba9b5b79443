// Scene images on the story page, through the real page, router and providers: the header picture,
// pictures in the chat (ready, being painted and polled, timed out, failed with Retry), pictures
// that come with new replies, 'Illustrate this scene', the 'Story Experience' drawer's switch, and
// everything hidden when the server paints no pictures.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SceneImage } from '@shared/schemas/images';
import type { StoryMessage } from '@shared/schemas/story';
import { buildUser, jsonResponse, mockFetch, renderWithProviders, type RecordedRequest } from '@client/test/utils';
import { storyController } from '../state/story-controller';
import { StoryPage } from './story-page';

const messages: StoryMessage[] = [
  {
    messageId: 1,
    role: 'user',
    content: 'A harbour where bells ring alone',
    createdAt: '2026-01-01T10:00:00.000Z',
    isInitialMessage: true,
  },
  {
    messageId: 2,
    role: 'assistant',
    content: 'The bells fall silent as you arrive.',
    createdAt: '2026-01-01T10:00:01.000Z',
    isInitialMessage: false,
  },
  {
    messageId: 3,
    role: 'user',
    content: 'I climb the bell tower',
    createdAt: '2026-01-01T10:00:02.000Z',
    isInitialMessage: false,
  },
  {
    messageId: 4,
    role: 'assistant',
    content: 'At the top, a rope sways with no wind.',
    createdAt: '2026-01-01T10:00:03.000Z',
    isInitialMessage: false,
  },
];
const PREFERENCES = {
  contentRating: 'general',
  narrativeStyle: 'descriptive',
  languageStyle: 'modern',
  narrator: 'default',
};
const READY = {
  image: '/api/images/aaa.webp',
  thumbnail: '/api/images/aaa.thumb.webp',
  alt: 'A bell tower above a foggy harbour',
  width: 1024,
  height: 576,
};
const pending404 = () =>
  jsonResponse({ message: 'The picture is not ready yet.', code: 'IMAGE_PENDING' }, { status: 404 });

interface Setup {
  features?: boolean;
  imageGeneration?: boolean;
  images?: SceneImage[];
  storyImage?: string | null;
  handler?: (request: RecordedRequest) => Response | Promise<Response> | undefined;
}

function renderStory({ features = true, imageGeneration = true, images = [], storyImage = null, handler }: Setup = {}) {
  const fetchMock = mockFetch(async (request) => {
    const answer = await handler?.(request);
    if (answer) return answer;
    const { url, method } = request;
    if (url === '/api/user') return jsonResponse(buildUser());
    if (url === '/api/features')
      return jsonResponse({
        images: features,
        speech: { voices: [], transcription: false },
        ads: { enabled: false, sponsorUrl: null },
      });
    if (url === '/api/preferences' && method === 'GET') return jsonResponse({ ...PREFERENCES, imageGeneration });
    if (url === '/api/preferences')
      return jsonResponse({ ...PREFERENCES, imageGeneration, ...(request.body as object) });
    if (url === '/api/story/5/current-state') return jsonResponse({ messages, replying: false, images, storyImage });
    if (url === '/api/story/5/style-sheet')
      return jsonResponse({
        artStyle: 'ink and watercolour',
        player: '',
        characters: [],
        seed: 1,
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  renderWithProviders(
    <Routes>
      <Route path="/story/:storyId" element={<StoryPage />} />
    </Routes>,
    { route: '/story/5' },
  );
  return fetchMock;
}

const chat = () => screen.getByRole('log', { name: 'Story' });
const imageChecks = (fetchMock: ReturnType<typeof renderStory>, id: number) =>
  fetchMock.requests.filter((r) => r.url === `/api/story/message/${id}/image`);
const readyImage = (messageId: number, alt = READY.alt): SceneImage => ({
  messageId,
  status: 'ready',
  url: READY.image,
  thumbnail: READY.thumbnail,
  alt,
  width: 1024,
  height: 576,
});

function sse(events: Array<[string, unknown]>): Response {
  const text = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  return new Response(text, { headers: { 'Content-Type': 'text/event-stream' } });
}

afterEach(() => storyController.reset(null));

describe('story page scene images', () => {
  it('shows the header picture and the scene picture under its reply, which zooms as Scene Visualization', async () => {
    renderStory({ images: [readyImage(2)], storyImage: READY.image });
    const header = await screen.findByRole('region', { name: 'Story image' });
    expect(within(header).getByRole('img', { name: READY.alt })).toHaveAttribute('src', READY.image);
    const picture = await within(chat()).findByRole('img', { name: READY.alt });
    expect(picture).toHaveAttribute('src', READY.thumbnail);
    expect(picture).toHaveAttribute('loading', 'lazy');
    // The picture comes right after the reply it shows.
    const reply = within(chat()).getByText('The bells fall silent as you arrive.');
    expect(reply.compareDocumentPosition(picture) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await userEvent.click(within(chat()).getByRole('button', { name: READY.alt }));
    const dialog = await screen.findByRole('dialog', { name: 'Scene Visualization' });
    expect(within(dialog).getByRole('img', { name: READY.alt })).toHaveAttribute('src', READY.image);
  });

  it("polls a picture being painted every 2 s and shows it once ready; the header waits with 'Generating image...'", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    let checks = 0;
    const fetchMock = renderStory({
      images: [{ messageId: 2, status: 'pending', alt: '' }],
      handler: ({ url }) =>
        url === '/api/story/message/2/image' ? (++checks <= 2 ? pending404() : jsonResponse(READY)) : undefined,
    });
    const header = await screen.findByRole('region', { name: 'Story image' });
    expect(within(header).getByRole('status')).toHaveTextContent('Generating image...');
    expect(within(chat()).getByRole('status')).toHaveTextContent('Generating image...');
    await vi.advanceTimersByTimeAsync(4100);
    expect(await within(chat()).findByRole('img', { name: READY.alt })).toBeInTheDocument();
    expect(within(header).getByRole('img', { name: READY.alt })).toHaveAttribute('src', READY.image);
    expect(imageChecks(fetchMock, 2)).toHaveLength(3);
    expect(screen.queryByText('Generating image...')).not.toBeInTheDocument();
  });

  it("gives up after 30 attempts with 'Image generation timed out after multiple attempts'", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const fetchMock = renderStory({
      images: [{ messageId: 4, status: 'pending', alt: '' }],
      handler: ({ url }) => (url === '/api/story/message/4/image' ? pending404() : undefined),
    });
    expect(await within(await screen.findByRole('log', { name: 'Story' })).findByRole('status')).toHaveTextContent(
      'Generating image...',
    );
    await vi.advanceTimersByTimeAsync(60_000);
    const failure = await within(chat()).findByRole('article', { name: 'Scene Visualization' });
    expect(failure).toHaveTextContent('Failed to generate image: Image generation timed out after multiple attempts');
    expect(imageChecks(fetchMock, 4)).toHaveLength(30);
    expect(within(failure).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it("turns a painter failure (422) into 'Failed to generate image: {reason}'; Retry asks generate-image again", async () => {
    let failed = true;
    const fetchMock = renderStory({
      images: [{ messageId: 4, status: 'pending', alt: '' }],
      handler: ({ url }) => {
        if (url === '/api/story/message/4/image')
          return failed
            ? jsonResponse({ message: 'The painter is unavailable right now.', code: 'IMAGE_FAILED' }, { status: 422 })
            : jsonResponse(READY);
        if (url === '/api/story/message/4/generate-image') {
          failed = false;
          return jsonResponse({ imageMessageId: 4 }, { status: 202 });
        }
        return undefined;
      },
    });
    const failure = await screen.findByRole('article', { name: 'Scene Visualization' });
    expect(failure).toHaveTextContent('Failed to generate image: The painter is unavailable right now.');
    await userEvent.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(await within(chat()).findByRole('img', { name: READY.alt })).toBeInTheDocument();
    const post = fetchMock.requests.find((r) => r.url === '/api/story/message/4/generate-image');
    expect(post?.method).toBe('POST');
    expect(post?.body).toEqual({ content: 'At the top, a rope sways with no wind.', storyId: 5 });
  });

  it('adds the placeholder for a new reply that comes with imageMessageId, and shows imageError as the failure', async () => {
    let turn = 0;
    const fetchMock = renderStory({
      handler: ({ url }) => {
        if (url === '/api/story/5/continue') {
          turn += 1;
          return turn === 1
            ? sse([['done', { storyId: 5, messageId: 6, message: 'The rope pulls you up.', imageMessageId: 6 }]])
            : sse([
                [
                  'done',
                  {
                    storyId: 5,
                    messageId: 8,
                    message: 'You ring it.',
                    imageError:
                      'You have asked for too many pictures this hour. Please wait a little before asking for another.',
                  },
                ],
              ]);
        }
        if (url === '/api/story/message/6/image') return jsonResponse({ ...READY, alt: 'A rope rising into the dark' });
        return undefined;
      },
    });
    const input = await screen.findByPlaceholderText('What would you like to do?');
    await userEvent.type(input, 'I grab the rope{Enter}');
    expect(await within(chat()).findByRole('img', { name: 'A rope rising into the dark' })).toBeInTheDocument();
    expect(imageChecks(fetchMock, 6).length).toBeGreaterThan(0);

    await waitFor(() => expect(input).toBeEnabled());
    await userEvent.type(input, 'I ring the bell{Enter}');
    expect(
      await within(chat()).findByText(
        'Failed to generate image: You have asked for too many pictures this hour. Please wait a little before asking for another.',
      ),
    ).toBeInTheDocument();
    expect(imageChecks(fetchMock, 8)).toHaveLength(0);
  });

  it("illustrates an earlier reply on demand, and shows the server's refusal in an 'Error' toast", async () => {
    let refuse = true;
    const fetchMock = renderStory({
      images: [readyImage(2)],
      handler: ({ url }) => {
        if (url === '/api/story/message/4/generate-image') {
          if (refuse)
            return jsonResponse(
              {
                message:
                  'You have asked for too many pictures this hour. Please wait a little before asking for another.',
                code: 'RATE_LIMITED',
              },
              { status: 429 },
            );
          return jsonResponse({ imageMessageId: 4 }, { status: 202 });
        }
        if (url === '/api/story/message/4/image') return jsonResponse({ ...READY, alt: 'A swaying rope' });
        return undefined;
      },
    });
    await within(await screen.findByRole('log', { name: 'Story' })).findByRole('img', { name: READY.alt });
    // The illustrated opening offers no second picture; the later reply does.
    const buttons = within(chat()).getAllByRole('button', { name: 'Illustrate this scene' });
    expect(buttons).toHaveLength(1);
    expect(within(chat()).getByText('At the top, a rope sways with no wind.').closest('article')).toContainElement(
      buttons[0],
    );

    await userEvent.click(buttons[0]);
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(
      screen.getByText(
        'You have asked for too many pictures this hour. Please wait a little before asking for another.',
      ),
    ).toBeInTheDocument();
    expect(imageChecks(fetchMock, 4)).toHaveLength(0);

    refuse = false;
    await userEvent.click(within(chat()).getByRole('button', { name: 'Illustrate this scene' }));
    expect(await within(chat()).findByRole('img', { name: 'A swaying rope' })).toBeInTheDocument();
    expect(fetchMock.requests.filter((r) => r.url === '/api/story/message/4/generate-image').at(-1)?.body).toEqual({
      content: 'At the top, a rope sways with no wind.',
      storyId: 5,
    });
    expect(within(chat()).queryByRole('button', { name: 'Illustrate this scene' })).not.toBeInTheDocument();
  });

  it("asks for the opening reply's picture through generate-initial-image, and the header waits for it", async () => {
    let asked = false;
    const fetchMock = renderStory({
      handler: ({ url }) => {
        if (url === '/api/story/message/2/generate-initial-image') {
          asked = true;
          return jsonResponse({ imageMessageId: 2 }, { status: 202 });
        }
        if (url === '/api/story/message/2/image') return asked ? jsonResponse(READY) : pending404();
        return undefined;
      },
    });
    expect(await screen.findByRole('region', { name: 'Story image' })).toHaveTextContent('No image available');
    const opening = within(chat()).getByText('The bells fall silent as you arrive.').closest('article') as HTMLElement;
    await userEvent.click(within(opening).getByRole('button', { name: 'Illustrate this scene' }));
    const header = screen.getByRole('region', { name: 'Story image' });
    expect(await within(header).findByRole('img', { name: READY.alt })).toHaveAttribute('src', READY.image);
    expect(fetchMock.requests.find((r) => r.url === '/api/story/message/2/generate-initial-image')?.body).toEqual({
      content: 'The bells fall silent as you arrive.',
      storyId: 5,
    });
    expect(fetchMock.requests.some((r) => r.url === '/api/story/message/2/generate-image')).toBe(false);
  });

  it("switches scene images on from the 'Story Experience' drawer, saving {imageGeneration: true}", async () => {
    const fetchMock = renderStory({ imageGeneration: false });
    await screen.findByText('The bells fall silent as you arrive.');
    expect(screen.queryByRole('region', { name: 'Story image' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Illustrate this scene' })).not.toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: 'Story Experience' }));
    const drawer = await screen.findByRole('dialog', { name: 'Story Experience' });
    expect(within(drawer).getByRole('heading', { name: 'Scene Images' })).toBeInTheDocument();
    expect(await within(drawer).findByRole('heading', { name: 'Visual Style' })).toBeInTheDocument();
    expect(await within(drawer).findByLabelText('Art style')).toHaveValue('ink and watercolour');
    const toggle = within(drawer).getByRole('switch', { name: 'Generate scene images' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await waitFor(() =>
      expect(
        fetchMock.requests.filter((r) => r.url === '/api/preferences' && r.method === 'POST').map((r) => r.body),
      ).toEqual([{ imageGeneration: true }]),
    );
    await userEvent.keyboard('{Escape}');
    expect(await screen.findByRole('region', { name: 'Story image' })).toHaveTextContent('No image available');
    expect(screen.getAllByRole('button', { name: 'Illustrate this scene' })).toHaveLength(2);
  });

  it("puts the switch back with an 'Error' toast when the flag cannot be saved", async () => {
    renderStory({
      imageGeneration: false,
      handler: ({ url, method }) =>
        url === '/api/preferences' && method === 'POST'
          ? jsonResponse({ message: 'Preferences are unavailable', code: 'INTERNAL_ERROR' }, { status: 400 })
          : undefined,
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Story Experience' }));
    const toggle = within(await screen.findByRole('dialog', { name: 'Story Experience' })).getByRole('switch', {
      name: 'Generate scene images',
    });
    await userEvent.click(toggle);
    expect(await screen.findByText('Preferences are unavailable')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'false'));
  });

  it('hides everything about images when the server paints none', async () => {
    const fetchMock = renderStory({
      features: false,
      images: [
        { messageId: 2, status: 'pending', alt: '' },
        { messageId: 4, status: 'failed', alt: '', error: 'x' },
      ],
      storyImage: null,
    });
    await screen.findByText('At the top, a rope sways with no wind.');
    await waitFor(() => expect(fetchMock.requests.some((r) => r.url === '/api/features')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The drawer stays (narration lives there too), without the image sections.
    await userEvent.click(screen.getByRole('button', { name: 'Story Experience' }));
    const drawer = await screen.findByRole('dialog', { name: 'Story Experience' });
    expect(within(drawer).getByRole('heading', { name: 'Narrator Voice' })).toBeInTheDocument();
    expect(within(drawer).queryByRole('heading', { name: 'Scene Images' })).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Story image' })).not.toBeInTheDocument();
    expect(screen.queryByText('Generating image...')).not.toBeInTheDocument();
    expect(screen.queryByText(/Failed to generate image/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Illustrate this scene' })).not.toBeInTheDocument();
    expect(imageChecks(fetchMock, 2)).toHaveLength(0);
  });
});
