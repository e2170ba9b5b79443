// The shared story page: the full view with its labels and gallery, the error card for a 404, the
// labelled sample when the story cannot be reached, and the lightweight preview for in-app browsers.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import { jsonResponse, mockFetch, renderWithProviders, unauthenticated } from '@client/test/utils';
import { SharedStoryPage } from './shared-story-page';

const messages = [
  { role: 'user', content: 'I open the door' },
  { role: 'assistant', content: 'The door creaks open.', image: 'data:image/png;base64,AAAA' },
  { role: 'user', content: 'I step inside' },
  { role: 'assistant', content: 'Dust swirls.', image: 'data:image/png;base64,BBBB' },
  { role: 'user', content: 'I light a candle' },
  { role: 'assistant', content: 'Shadows leap.' },
  { role: 'user', content: 'I call out' },
];
const STORY = { shareId: 'AbCdEfGh12345678', title: 'The Old House', messages };

function renderPage(handler: (url: string) => Response, path = `/shared/${STORY.shareId}`) {
  mockFetch(({ url }) => (url === '/api/user' ? unauthenticated() : handler(url)));
  return renderWithProviders(
    <Routes>
      <Route path="/shared/:shareId" element={<SharedStoryPage />} />
    </Routes>,
    { route: path },
  );
}

afterEach(() => vi.restoreAllMocks());

describe('SharedStoryPage', () => {
  it('shows the story: header, badge, gallery, narrative labels, read-only notice and call to action', async () => {
    renderPage(() => jsonResponse(STORY));
    expect(await screen.findByRole('heading', { level: 1, name: 'The Old House' })).toBeInTheDocument();
    expect(screen.getByText('Shared Story')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Your Own' })).toHaveAttribute('href', '/');
    const gallery = screen.getByRole('heading', { name: 'Story Gallery' }).parentElement!;
    expect(
      within(gallery)
        .getAllByRole('img')
        .map((img) => img.getAttribute('alt')),
    ).toEqual(['Scene 1', 'Scene 2']);
    const narrative = screen.getByRole('heading', { name: 'Story Narrative' }).parentElement!;
    expect(within(narrative).getAllByText('You')).toHaveLength(4);
    expect(within(narrative).getAllByText('Story')).toHaveLength(3);
    expect(within(narrative).getAllByText('Scene Visualization')).toHaveLength(2);
    expect(screen.getByText(/This is a read-only view/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Your Story' })).toHaveAttribute('href', '/');
    expect(screen.queryByText(/This is a preview/)).not.toBeInTheDocument();
  });

  it('shows the gallery from thumbnails, lazily, with what each scene shows, and zooms a scene to its full picture', async () => {
    const illustrated = [
      { role: 'user', content: 'I open the door' },
      {
        role: 'assistant',
        content: 'The door creaks open.',
        image: '/api/shared/AbCdEfGh12345678/images/aaa.webp',
        thumbnail: '/api/shared/AbCdEfGh12345678/images/aaa.thumb.webp',
        imageAlt: 'A creaking door in candlelight',
      },
      {
        role: 'assistant',
        content: 'Dust swirls.',
        image: '/api/shared/AbCdEfGh12345678/images/bbb.webp',
        thumbnail: '/api/shared/AbCdEfGh12345678/images/bbb.thumb.webp',
        imageAlt: 'Dust in a sunbeam',
      },
    ];
    renderPage(() => jsonResponse({ ...STORY, messages: illustrated }));
    const gallery = (await screen.findByRole('heading', { name: 'Story Gallery' })).parentElement!;
    const scenes = within(gallery).getAllByRole('img');
    expect(scenes.map((img) => img.getAttribute('alt'))).toEqual([
      'Scene 1: A creaking door in candlelight',
      'Scene 2: Dust in a sunbeam',
    ]);
    expect(scenes.map((img) => img.getAttribute('src'))).toEqual([
      '/api/shared/AbCdEfGh12345678/images/aaa.thumb.webp',
      '/api/shared/AbCdEfGh12345678/images/bbb.thumb.webp',
    ]);
    expect(scenes.every((img) => img.getAttribute('loading') === 'lazy')).toBe(true);
    expect(within(gallery).getByText('Scene 1')).toBeInTheDocument();
    expect(within(gallery).getByText('Scene 2')).toBeInTheDocument();

    const narrative = screen.getByRole('heading', { name: 'Story Narrative' }).parentElement!;
    expect(
      within(narrative).getByRole('img', { name: 'Scene Visualization: Scene 2: Dust in a sunbeam' }),
    ).toBeInTheDocument();

    await userEvent.click(within(gallery).getByRole('button', { name: 'Scene 2: Dust in a sunbeam' }));
    const dialog = await screen.findByRole('dialog', { name: 'Scene Visualization' });
    expect(within(dialog).getByRole('img')).toHaveAttribute('src', '/api/shared/AbCdEfGh12345678/images/bbb.webp');
  });

  it('leaves the gallery out when there are no images', async () => {
    renderPage(() => jsonResponse({ ...STORY, messages: messages.map(({ role, content }) => ({ role, content })) }));
    await screen.findByRole('heading', { level: 1, name: 'The Old House' });
    expect(screen.queryByRole('heading', { name: 'Story Gallery' })).not.toBeInTheDocument();
  });

  it("shows 'Story Not Available' at once for a 404, with Try Again, Return Home and the Share ID", async () => {
    renderPage(() =>
      jsonResponse(
        { message: 'Story not found or has been removed by its creator', code: 'NOT_FOUND' },
        { status: 404 },
      ),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Story Not Available' })).toBeInTheDocument();
    expect(screen.getByText('Story not found or has been removed by its creator')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
    expect(screen.getByText(`Share ID: ${STORY.shareId}`)).toBeInTheDocument();
  });

  it('labels the sample that stands in when the story cannot be reached', async () => {
    vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => new AbortController().signal);
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout'] });
    renderPage((url) =>
      url === '/api/shared/test'
        ? jsonResponse({ message: 'down', code: 'INTERNAL_ERROR' }, { status: 503 })
        : jsonResponse({ message: 'Server is down', code: 'INTERNAL_ERROR' }, { status: 500 }),
    );
    await vi.advanceTimersByTimeAsync(3500);
    expect(await screen.findByText('Showing a sample story')).toBeInTheDocument();
    expect(screen.getByText('Server is down')).toBeInTheDocument();
    expect(screen.getByText('This shared story may have expired or been removed by its creator')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: /^Sample Story: / })).toBeInTheDocument();
    expect(screen.getByText('Sample Story')).toBeInTheDocument();
    expect(screen.queryByText('Shared Story')).not.toBeInTheDocument();
  });

  it('shows the lightweight preview inside a Facebook in-app browser', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone) [FBAN/FBIOS;FBAV/450.0]');
    renderPage(() => jsonResponse(STORY));
    expect(await screen.findByRole('heading', { level: 1, name: 'The Old House' })).toBeInTheDocument();
    expect(screen.getByText('This is a preview. View the full story on Taleweaver.')).toBeInTheDocument();
    expect(screen.getAllByRole('img')).toHaveLength(1);
    expect(screen.getAllByRole('listitem')).toHaveLength(5);
    expect(screen.queryByText('I call out')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Story Gallery' })).not.toBeInTheDocument();
  });
});
