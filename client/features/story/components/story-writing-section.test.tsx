// 'Narrator’s Writing' in the 'Story Experience' drawer against a scripted server: the story's
// settings shown, a reply length saved as it is chosen, creativity saved once the slider rests (one
// PATCH, not one per step) or as the section closes, the provider's highest temperature said, and a
// refused change put back.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StorySettings } from '@shared/schemas/story-settings';
import { jsonResponse, mockFetch, renderWithProviders, type RecordedRequest } from '@client/test/utils';
import { StoryWritingSection } from './story-writing-section';

function serve(initial: StorySettings, refuse = false) {
  let current = initial;
  return mockFetch((request: RecordedRequest) => {
    if (request.method === 'PATCH') {
      if (refuse)
        return jsonResponse(
          { message: 'Creativity must be a number from 0 to 2.', code: 'VALIDATION_ERROR' },
          { status: 400 },
        );
      current = { ...current, ...(request.body as Partial<StorySettings>) };
    }
    return jsonResponse(current);
  });
}

const patches = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'PATCH').map((r) => ({ url: r.url, body: r.body }));

describe('StoryWritingSection', () => {
  it('shows the story’s settings and saves a reply length as it is chosen', async () => {
    const fetchMock = serve({
      replyLength: 'medium',
      temperature: 0.8,
      temperatureMax: 2,
      narrator: 'default',
      narratorFellBack: false,
    });
    renderWithProviders(<StoryWritingSection storyId={4} />);
    const medium = await screen.findByRole('radio', { name: 'Medium' });
    await waitFor(() => expect(medium).toHaveAttribute('aria-checked', 'true'));
    expect(screen.getByRole('slider', { name: 'Creativity' })).toHaveValue('0.8');
    expect(screen.getByText('0.8')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Short' }));
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Short' })).toHaveAttribute('aria-checked', 'true'));
    expect(patches(fetchMock.requests)).toEqual([{ url: '/api/story/4/settings', body: { replyLength: 'short' } }]);
  });

  it('saves creativity once the slider rests, and says how far this narrator goes', async () => {
    const fetchMock = serve({
      replyLength: 'medium',
      temperature: 0.8,
      temperatureMax: 1,
      narrator: 'default',
      narratorFellBack: false,
    });
    renderWithProviders(<StoryWritingSection storyId={4} />);
    const slider = await screen.findByRole('slider', { name: 'Creativity' });
    await waitFor(() => expect(slider).toBeEnabled());
    expect(slider).toHaveAccessibleDescription(/This narrator goes up to 1\.0: more is sent as 1\.0\./);
    for (const value of ['0.9', '1.1', '1.3']) fireEvent.change(slider, { target: { value } });
    expect(screen.getByText('1.3')).toBeInTheDocument();
    await waitFor(() =>
      expect(patches(fetchMock.requests)).toEqual([{ url: '/api/story/4/settings', body: { temperature: 1.3 } }]),
    );
  });

  it('saves where the slider is when the section closes before it rests', async () => {
    const fetchMock = serve({
      replyLength: 'medium',
      temperature: 0.8,
      temperatureMax: 2,
      narrator: 'default',
      narratorFellBack: false,
    });
    const { unmount } = renderWithProviders(<StoryWritingSection storyId={4} />);
    const slider = await screen.findByRole('slider', { name: 'Creativity' });
    await waitFor(() => expect(slider).toBeEnabled());
    fireEvent.change(slider, { target: { value: '1.2' } });
    unmount();
    await waitFor(() =>
      expect(patches(fetchMock.requests)).toEqual([{ url: '/api/story/4/settings', body: { temperature: 1.2 } }]),
    );
  });

  it('puts the slider back when the server refuses the change', async () => {
    serve(
      { replyLength: 'long', temperature: 0.5, temperatureMax: 2, narrator: 'default', narratorFellBack: false },
      true,
    );
    renderWithProviders(<StoryWritingSection storyId={4} />);
    const slider = await screen.findByRole('slider', { name: 'Creativity' });
    await waitFor(() => expect(slider).toBeEnabled());
    fireEvent.change(slider, { target: { value: '1.7' } });
    expect(slider).toHaveValue('1.7');
    await waitFor(() => expect(slider).toHaveValue('0.5'));
  });
});
