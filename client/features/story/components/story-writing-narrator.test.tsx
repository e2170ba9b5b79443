// The narrator picker in 'Narrator’s Writing' against a scripted server: shown only when the
// operator offers several narrators, the story's own chosen, a pick saved at once with the new
// narrator's temperature cap, and the note when the story's narrator went away (in the drawer and,
// with 'Keep …', above the story).
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { NarratorSummary } from '@shared/schemas/narrators';
import type { StorySettings } from '@shared/schemas/story-settings';
import { jsonResponse, mockFetch, renderWithProviders, type RecordedRequest } from '@client/test/utils';
import { NarratorGoneNotice } from './narrator-gone-notice';
import { StoryWritingSection } from './story-writing-section';

const swift: NarratorSummary = {
  id: 'swift',
  label: 'Swift',
  description: 'Quick and cheap.',
  contextTokens: 8192,
  default: true,
};
const deep: NarratorSummary = { id: 'deep', label: 'Deep', description: '', contextTokens: 200000, default: false };
const settings: StorySettings = {
  replyLength: 'medium',
  temperature: 0.8,
  temperatureMax: 2,
  narrator: 'swift',
  narratorFellBack: false,
};

function serve(narrators: NarratorSummary[], initial: StorySettings = settings) {
  let current = initial;
  return mockFetch((request: RecordedRequest) => {
    if (request.url === '/api/narrators') return jsonResponse({ narrators });
    if (request.method === 'PATCH') {
      const body = request.body as Partial<StorySettings>;
      // Deep is an Anthropic model here: its highest temperature is 1.
      current = { ...current, ...body, ...(body.narrator === 'deep' ? { temperatureMax: 1 } : {}) };
      // A story that names a narrator of the catalogue has not fallen back.
      if (body.narrator !== undefined) current = { ...current, narratorFellBack: false };
    }
    return jsonResponse(current);
  });
}

describe('the narrator picker', () => {
  it('offers every narrator on offer with the story’s own chosen, and saves a pick at once', async () => {
    const fetchMock = serve([swift, deep]);
    renderWithProviders(<StoryWritingSection storyId={4} />);
    const picker = await screen.findByRole('combobox', { name: 'Narrator' });
    await waitFor(() => expect(picker).toHaveValue('swift'));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Swift', 'Deep']);
    expect(picker).toHaveAccessibleDescription('Quick and cheap. Keeps about 8,192 tokens of the story in view.');

    await userEvent.selectOptions(picker, 'deep');
    await waitFor(() => expect(picker).toHaveAccessibleDescription('Keeps about 200,000 tokens of the story in view.'));
    expect(fetchMock.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([{ narrator: 'deep' }]);
    // The answer brings the new narrator's cap.
    await waitFor(() =>
      expect(screen.getByRole('slider', { name: 'Creativity' })).toHaveAccessibleDescription(/goes up to 1\.0/),
    );
  });

  it('is not shown when the operator offers one narrator', async () => {
    serve([swift]);
    renderWithProviders(<StoryWritingSection storyId={4} />);
    await screen.findByRole('radio', { name: 'Medium' });
    await waitFor(() => expect(screen.getByRole('slider', { name: 'Creativity' })).toBeEnabled());
    expect(screen.queryByRole('combobox', { name: 'Narrator' })).not.toBeInTheDocument();
  });

  it('says so when the story’s narrator went away and the default writes it', async () => {
    serve([swift, deep], { ...settings, narratorFellBack: true });
    renderWithProviders(<StoryWritingSection storyId={4} />);
    expect(
      await screen.findByText(
        /^The narrator this story had is no longer available, so the default narrator writes it now\./,
      ),
    ).toHaveAttribute('role', 'status');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Narrator' })).toHaveValue('swift'));
  });

  it('says so above the story too, until the player keeps the default (or picks another)', async () => {
    const fetchMock = serve([swift, deep], { ...settings, narratorFellBack: true });
    renderWithProviders(<NarratorGoneNotice storyId={4} />);
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Your narrator is no longer available');
    expect(notice).toHaveTextContent(
      "The narrator this story had was removed or closed, so Swift writes it now. Keep it, or pick another in 'Story Experience'.",
    );
    await userEvent.click(screen.getByRole('button', { name: 'Keep Swift' }));
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(fetchMock.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([{ narrator: 'swift' }]);
  });

  it('is not shown, nor the settings asked for, with one narrator', async () => {
    const fetchMock = serve([swift], { ...settings, narratorFellBack: true });
    renderWithProviders(<NarratorGoneNotice storyId={4} />);
    await waitFor(() => expect(fetchMock.requests.some((r) => r.url === '/api/narrators')).toBe(true));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(fetchMock.requests.filter((r) => r.url.endsWith('/settings'))).toEqual([]);
  });
});
