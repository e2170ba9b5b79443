// The preferences page: visitors see the hint and disabled selects; a player's change sends only that
// field, toasts 'Success' and keeps the server's answer; the spec's error toasts; defaults when the
// read fails; the narrator of new stories, offered when there are several.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  buildUser,
  jsonResponse,
  mockFetch,
  renderWithProviders,
  unauthenticated,
  type RecordedRequest,
} from '@client/test/utils';
import { preferencesQueryKey } from '../api/preferences';
import { PreferencesPage } from './preferences-page';

const DEFAULTS = {
  contentRating: 'general',
  narrativeStyle: 'descriptive',
  languageStyle: 'modern',
  imageGeneration: false,
  narrator: 'swift',
};
const user = buildUser({ id: 5 });

const NARRATORS = [
  { id: 'swift', label: 'Swift', description: 'Quick and cheap.', contextTokens: 8192, default: true },
  { id: 'deep', label: 'Deep', description: 'Slow and thorough.', contextTokens: 32768, default: false },
];

function setup(options: {
  loggedIn: boolean;
  read?: () => Response;
  write?: (request: RecordedRequest) => Response;
  narrators?: typeof NARRATORS;
}) {
  const fetchMock = mockFetch((request) => {
    if (request.url === '/api/narrators')
      return jsonResponse({ narrators: options.narrators ?? NARRATORS.slice(0, 1) });
    if (request.url === '/api/user') return options.loggedIn ? jsonResponse(user) : unauthenticated();
    if (request.url === '/api/preferences' && request.method === 'GET')
      return options.read?.() ?? jsonResponse({ ...DEFAULTS, narrativeStyle: 'concise' });
    if (request.url === '/api/preferences')
      return (
        options.write?.(request) ??
        jsonResponse({ ...DEFAULTS, narrativeStyle: 'concise', ...(request.body as object) })
      );
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  return { fetchMock, ...renderWithProviders(<PreferencesPage />) };
}

const select = (name: string) => screen.getByRole('combobox', { name });

describe('PreferencesPage', () => {
  it('shows visitors the login hint and disabled selects with readable labels', async () => {
    setup({ loggedIn: false, read: () => jsonResponse(DEFAULTS) });
    expect(await screen.findByRole('link', { name: 'Log in to change them' })).toHaveAttribute(
      'href',
      '/auth?redirect=%2Fpreferences',
    );
    for (const name of ['Content Rating', 'Narrative Style', 'Language Style']) expect(select(name)).toBeDisabled();
    await waitFor(() => expect(select('Content Rating')).toHaveDisplayValue('General'));
    expect(select('Narrative Style')).toHaveDisplayValue('Descriptive');
    expect(select('Language Style')).toHaveDisplayValue('Modern');
  });

  it("sends only the changed field, toasts 'Success' and caches the answer", async () => {
    const { fetchMock, queryClient } = setup({ loggedIn: true });
    await waitFor(() => expect(select('Narrative Style')).toHaveDisplayValue('Concise'));
    expect(screen.queryByRole('link', { name: 'Log in to change them' })).not.toBeInTheDocument();
    await userEvent.selectOptions(select('Language Style'), 'Archaic');
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(screen.getByText('Your preferences have been saved.')).toBeInTheDocument();
    expect(fetchMock.requests.find((r) => r.method === 'POST')?.body).toEqual({ languageStyle: 'archaic' });
    expect(queryClient.getQueryData(preferencesQueryKey(5))).toEqual({
      contentRating: 'general',
      narrativeStyle: 'concise',
      languageStyle: 'archaic',
      imageGeneration: false,
      narrator: 'swift',
    });
    expect(select('Language Style')).toHaveDisplayValue('Archaic');
    // Cached indefinitely: one read only.
    expect(fetchMock.requests.filter((r) => r.url === '/api/preferences' && r.method === 'GET')).toHaveLength(1);
  });

  it("turns 'Not authenticated' into 'Authentication Required'", async () => {
    setup({
      loggedIn: true,
      write: () => jsonResponse({ message: 'Not authenticated', code: 'UNAUTHENTICATED' }, { status: 401 }),
    });
    await waitFor(() => expect(select('Content Rating')).toBeEnabled());
    await userEvent.selectOptions(select('Content Rating'), 'Teen');
    expect(await screen.findByText('Authentication Required')).toBeInTheDocument();
    expect(screen.getByText('Please log in to save your preferences.')).toBeInTheDocument();
    expect(select('Content Rating')).toHaveDisplayValue('General');
  });

  it("shows other failures in an 'Error' toast with the message", async () => {
    setup({
      loggedIn: true,
      write: () =>
        jsonResponse(
          { message: 'Content rating must be one of: general, teen, mature', code: 'VALIDATION_ERROR' },
          { status: 400 },
        ),
    });
    await waitFor(() => expect(select('Content Rating')).toBeEnabled());
    await userEvent.selectOptions(select('Content Rating'), 'Mature');
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Content rating must be one of: general, teen, mature')).toBeInTheDocument();
  });

  it('offers the narrator of new stories when there are several, and saves a pick at once', async () => {
    const { fetchMock } = setup({
      loggedIn: true,
      narrators: NARRATORS,
      read: () => jsonResponse(DEFAULTS),
    });
    const narrator = await screen.findByRole('combobox', { name: 'Narrator for new stories' });
    await waitFor(() => expect(narrator).toBeEnabled());
    expect(narrator).toHaveDisplayValue('Swift');
    expect(narrator).toHaveAccessibleDescription(
      "Quick and cheap. Stories you start from now on begin with this narrator; a story's own settings can change it.",
    );
    await userEvent.selectOptions(narrator, 'Deep');
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(fetchMock.requests.find((r) => r.method === 'POST')?.body).toEqual({ narrator: 'deep' });
    expect(narrator).toHaveDisplayValue('Deep');
    expect(narrator).toHaveAccessibleDescription(/^Slow and thorough\. /);
  });

  it('offers no narrator choice while there is only one', async () => {
    setup({ loggedIn: true, read: () => jsonResponse(DEFAULTS) });
    await waitFor(() => expect(select('Content Rating')).toBeEnabled());
    expect(screen.queryByRole('combobox', { name: 'Narrator for new stories' })).not.toBeInTheDocument();
  });

  it('shows the defaults when the read fails', async () => {
    setup({ loggedIn: true, read: () => jsonResponse({ message: 'down', code: 'INTERNAL_ERROR' }, { status: 500 }) });
    await waitFor(() => expect(select('Content Rating')).toBeEnabled());
    expect(select('Narrative Style')).toHaveDisplayValue('Descriptive');
    expect(screen.queryByText('Error')).not.toBeInTheDocument();
  });
});
