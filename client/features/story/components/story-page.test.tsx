// The story page's states in the real router and providers: loading a story, the empty and failed
// states, the recovery error screen (with the HTML note), the invalid-bookmark toast, Login
// Required, sending with Enter (the reply streamed from a scripted event stream), and the browser's
// scroll anchoring off while the chat is shown; a failed narrator's Retry offers another narrator.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoryMessage } from '@shared/schemas/story';
import {
  buildUser,
  jsonResponse,
  mockFetch,
  renderWithProviders,
  unauthenticated,
  type FetchHandler,
} from '@client/test/utils';
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
];

function sse(events: Array<[string, unknown]>): Response {
  const text = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  return new Response(text, { headers: { 'Content-Type': 'text/event-stream' } });
}

function renderStory(route: string, handler: FetchHandler, loggedIn = true) {
  const fetchMock = mockFetch((request) => {
    if (request.url === '/api/user') return loggedIn ? jsonResponse(buildUser()) : unauthenticated();
    if (request.url === '/api/features')
      return jsonResponse({
        images: false,
        speech: { voices: [], transcription: false },
        ads: { enabled: false, sponsorUrl: null },
      });
    return handler(request);
  });
  renderWithProviders(
    <Routes>
      <Route path="/story" element={<StoryPage />} />
      <Route path="/story/:storyId" element={<StoryPage />} />
      <Route path="/bookmarks" element={<p>Bookmarks</p>} />
      <Route path="/" element={<p>Home</p>} />
    </Routes>,
    { route },
  );
  return fetchMock;
}

afterEach(() => storyController.reset(null));

describe('StoryPage', () => {
  it('loads the story and shows the player and narrator bubbles', async () => {
    const fetchMock = renderStory('/story/5', () =>
      jsonResponse({ messages, replying: false, images: [], storyImage: null }),
    );
    expect(await screen.findByText('The bells fall silent as you arrive.')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'You' })).toHaveTextContent('A harbour where bells ring alone');
    expect(screen.getByPlaceholderText('What would you like to do?')).toBeInTheDocument();
    expect(fetchMock.requests.some((r) => r.url === '/api/story/5/current-state')).toBe(true);
    expect(screen.getByRole('button', { name: 'Bookmark' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("turns the browser's scroll anchoring off while the chat is shown, and back on after", async () => {
    renderStory('/story/5', () => jsonResponse({ messages, replying: false, images: [], storyImage: null }));
    expect(await screen.findByText('The bells fall silent as you arrive.')).toBeInTheDocument();
    expect(document.documentElement.style.overflowAnchor).toBe('none');
    cleanup();
    expect(document.documentElement.style.overflowAnchor).toBe('');
  });

  it('sends with Enter, clears the input, and streams the reply in', async () => {
    const fetchMock = renderStory('/story/5', (request) => {
      if (request.url === '/api/story/5/continue')
        return sse([
          ['delta', { text: 'Gulls ' }],
          ['delta', { text: 'scatter.' }],
          ['done', { storyId: 5, messageId: 4, message: 'Gulls scatter.' }],
        ]);
      return jsonResponse({ messages, replying: false, images: [], storyImage: null });
    });
    const input = await screen.findByPlaceholderText('What would you like to do?');
    await userEvent.type(input, 'I ring the bell{Enter}');
    expect(input).toHaveValue('');
    expect(await screen.findByText('Gulls scatter.')).toBeInTheDocument();
    expect(screen.getAllByRole('article', { name: 'You' }).at(-1)).toHaveTextContent('I ring the bell');
    expect(fetchMock.requests.find((r) => r.url === '/api/story/5/continue')?.body).toEqual({
      message: 'I ring the bell',
    });
    await waitFor(() => expect(input).toHaveFocus());
  });

  it('puts a refused action back into the input with the error toast', async () => {
    renderStory('/story/5', (request) => {
      if (request.url === '/api/story/5/continue')
        return jsonResponse(
          { message: "You have used this month's story allowance.", code: 'ALLOWANCE_USED' },
          { status: 429 },
        );
      return jsonResponse({ messages, replying: false, images: [], storyImage: null });
    });
    const input = await screen.findByPlaceholderText('What would you like to do?');
    await userEvent.type(input, 'I ring the bell{Enter}');
    // The toast and the error alert both carry it; the alert offers no Retry (nothing was kept).
    expect((await screen.findAllByText("You have used this month's story allowance.")).length).toBeGreaterThan(0);
    expect(screen.getByRole('alert')).not.toHaveTextContent('Retry');
    expect(input).toHaveValue('I ring the bell');
    expect(screen.getAllByRole('article', { name: 'You' })).toHaveLength(1);
  });

  it('shows the failed turn with Retry, which answers it through the retry endpoint', async () => {
    const fetchMock = renderStory('/story/5', (request) => {
      if (request.url === '/api/story/5/continue')
        return sse([
          ['error', { message: 'The narrator took too long to answer. Please try again.', code: 'NARRATOR_TIMEOUT' }],
        ]);
      if (request.url === '/api/story/5/retry')
        return sse([['done', { storyId: 5, messageId: 6, message: 'At last, an answer.' }]]);
      return jsonResponse({ messages, replying: false, images: [], storyImage: null });
    });
    await userEvent.type(await screen.findByPlaceholderText('What would you like to do?'), 'I wait{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The narrator took too long to answer. Please try again.');
    // The failure names no narrator: Retry alone.
    expect(within(alert).queryByRole('button', { name: 'Switch and try again' })).not.toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('At last, an answer.')).toBeInTheDocument();
    expect(fetchMock.requests.filter((r) => r.url === '/api/story/5/retry')).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers another narrator beside Retry when one failed, and switches the story to it before trying again', async () => {
    const narrators = [
      { id: 'swift', label: 'Swift', description: '', contextTokens: 8192, default: true },
      { id: 'deep', label: 'Deep', description: '', contextTokens: 32768, default: false },
      { id: 'lab', label: 'Lab', description: '', contextTokens: 8192, default: false },
    ];
    const failure = {
      message: 'The narrator Swift is unavailable right now. Please try again.',
      code: 'NARRATOR_UNAVAILABLE',
    };
    const fetchMock = renderStory('/story/5', (request) => {
      if (request.url === '/api/narrators') return jsonResponse({ narrators });
      if (request.url === '/api/story/5/continue') return sse([['error', { ...failure, narrator: 'swift' }]]);
      if (request.url === '/api/story/5/settings')
        return jsonResponse({
          replyLength: 'medium',
          temperature: 0.8,
          temperatureMax: 2,
          narrator: 'lab',
          narratorFellBack: false,
        });
      if (request.url === '/api/story/5/retry')
        return sse([['done', { storyId: 5, messageId: 6, message: 'The lab narrator answers.' }]]);
      return jsonResponse({ messages, replying: false, images: [], storyImage: null });
    });
    await userEvent.type(await screen.findByPlaceholderText('What would you like to do?'), 'I wait{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(failure.message);
    const other = await within(alert).findByRole('combobox', { name: 'Or try another narrator' });
    // The one that failed is not offered.
    expect(
      within(other)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Deep', 'Lab']);
    await userEvent.selectOptions(other, 'Lab');
    await userEvent.click(within(alert).getByRole('button', { name: 'Switch and try again' }));
    expect(await screen.findByText('The lab narrator answers.')).toBeInTheDocument();
    const sent = fetchMock.requests.filter((r) => r.method === 'PATCH' || r.url === '/api/story/5/retry');
    expect(sent.map((r) => [r.method, r.url, r.body])).toEqual([
      ['PATCH', '/api/story/5/settings', { narrator: 'lab' }],
      ['POST', '/api/story/5/retry', {}],
    ]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('has the empty state and the failed state, each with Refresh Page', async () => {
    renderStory('/story/5', () => jsonResponse({ messages: [], replying: false, images: [], storyImage: null }));
    expect(await screen.findByText('No story content found. Try refreshing the page.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument();
  });

  it('names a story that could not be loaded', async () => {
    renderStory('/story/6', () => jsonResponse({ message: 'Story not found', code: 'NOT_FOUND' }, { status: 404 }));
    expect(await screen.findByText('Story content could not be loaded properly.')).toBeInTheDocument();
    expect(screen.getAllByText('Story not found').length).toBeGreaterThan(0);
  });

  it('recovers a bookmarked story and highlights the message', async () => {
    // The highlight lasts 2 s; on a loaded machine the reply may only be found after that, so
    // record every highlighted element as it happens rather than sampling the DOM afterwards.
    const highlighted: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        const roots = record.type === 'attributes' ? [record.target] : [...record.addedNodes];
        for (const root of roots) {
          if (!(root instanceof HTMLElement)) continue;
          const hits = root.matches('[data-highlighted="true"]')
            ? [root]
            : [...root.querySelectorAll('[data-highlighted="true"]')];
          hits.forEach((hit) => highlighted.push(hit.textContent ?? ''));
        }
      }
    });
    observer.observe(document.body, {
      subtree: true,
      attributes: true,
      attributeFilter: ['data-highlighted'],
      childList: true,
    });
    const fetchMock = renderStory('/story/5?messageId=2', () =>
      jsonResponse({ messages, images: [], story: { id: 5, title: 'Bells', storyImage: null } }),
    );
    const reply = await screen.findByText('The bells fall silent as you arrive.');
    const article = reply.closest('article') as HTMLElement;
    await waitFor(() =>
      expect(
        highlighted.some((text) => text.includes('The bells fall silent as you arrive.')) ||
          article.getAttribute('data-highlighted') === 'true',
      ).toBe(true),
    );
    observer.disconnect();
    expect(fetchMock.requests.some((r) => r.url === '/api/story/5/recover?messageId=2')).toBe(true);
    // And it fades after the spec's 2 s.
    await waitFor(() => expect(article).not.toHaveAttribute('data-highlighted', 'true'), { timeout: 4000 });
  });

  it("shows 'Story Recovery Error' with the HTML note when the server sends a page", async () => {
    renderStory(
      '/story/5?messageId=2',
      () => new Response('<!DOCTYPE html><html></html>', { headers: { 'Content-Type': 'text/html' } }),
    );
    expect(await screen.findByRole('heading', { name: 'Story Recovery Error' })).toBeInTheDocument();
    expect(screen.getAllByText('Server returned HTML instead of JSON. Please try again later.').length).toBeGreaterThan(
      0,
    );
    expect(screen.getByText('Server Connection Issue')).toBeInTheDocument();
    expect(screen.getByText('Story ID: 5')).toBeInTheDocument();
    expect(screen.getByText('Message ID: 2')).toBeInTheDocument();
    expect(screen.getByText('Recovery Error')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Bookmarks' })).toHaveAttribute('href', '/bookmarks');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start New Story' })).toHaveAttribute('href', '/');
  });

  it('toasts invalid bookmark data for a non-numeric messageId and loads the story', async () => {
    renderStory('/story/5?messageId=abc', () =>
      jsonResponse({ messages, replying: false, images: [], storyImage: null }),
    );
    expect(await screen.findByText('Invalid bookmark data. Please try a different bookmark.')).toBeInTheDocument();
    expect(await screen.findByText('The bells fall silent as you arrive.')).toBeInTheDocument();
  });

  it('asks visitors to log in, keeping the bookmark in the return path', async () => {
    renderStory('/story/5?messageId=2', () => jsonResponse({}), false);
    expect(await screen.findByRole('heading', { name: 'Login Required' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login / Register' })).toHaveAttribute(
      'href',
      '/auth?redirect=%2Fstory%2F5%3FmessageId%3D2',
    );
    expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
  });

  it('sends a pending continuation for this story once, about 500 ms after it is shown', async () => {
    window.localStorage.setItem(
      'taleweaver-pending-continuation',
      JSON.stringify({ type: 'continue_story', storyId: 5, message: 'I open the gate', path: '/story/5' }),
    );
    const fetchMock = renderStory('/story/5', (request) => {
      if (request.url === '/api/story/5/continue')
        return sse([['done', { storyId: 5, messageId: 8, message: 'The gate swings wide.' }]]);
      return jsonResponse({ messages, replying: false, images: [], storyImage: null });
    });
    expect(await screen.findByText('Continuing Story')).toBeInTheDocument();
    expect(screen.getByText('Resuming where you left off...')).toBeInTheDocument();
    expect(await screen.findByText('The gate swings wide.')).toBeInTheDocument();
    await act(() => new Promise((r) => setTimeout(r, 700)));
    expect(fetchMock.requests.filter((r) => r.url === '/api/story/5/continue')).toHaveLength(1);
    expect(window.localStorage.getItem('taleweaver-pending-continuation')).toBeNull();
  });

  it('goes home from /story when there is no story', async () => {
    renderStory('/story', () => jsonResponse({}));
    expect(await screen.findByText('Home')).toBeInTheDocument();
  });
});
