// The style sheet form: it shows the saved sheet, checks every character has a name before
// sending, PUTs the whole sheet and says 'Style sheet saved', and shows the server's refusal in an
// 'Error' toast.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderWithProviders, type RecordedRequest } from '@client/test/utils';
import { StyleSheetPanel } from './style-sheet-panel';

const SHEET = {
  artStyle: 'ink and watercolour',
  player: 'a tall woman with short red hair',
  characters: [{ name: 'Old Tom', face: 'weathered, grey beard', hair: 'bald', clothes: 'oilskin coat' }],
  seed: 42,
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function setup(put?: (request: RecordedRequest) => Response) {
  const fetchMock = mockFetch((request) => {
    if (request.url === '/api/story/5/style-sheet' && request.method === 'GET') return jsonResponse(SHEET);
    if (request.url === '/api/story/5/style-sheet' && request.method === 'PUT')
      return (
        put?.(request) ?? jsonResponse({ ...SHEET, ...(request.body as object), updatedAt: '2026-01-02T00:00:00.000Z' })
      );
    return jsonResponse({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 });
  });
  renderWithProviders(<StyleSheetPanel storyId={5} />);
  return fetchMock;
}

const puts = (fetchMock: ReturnType<typeof setup>) => fetchMock.requests.filter((r) => r.method === 'PUT');

describe('StyleSheetPanel', () => {
  it('shows the art style, the player and each recurring character as fields', async () => {
    const fetchMock = setup();
    expect(await screen.findByLabelText('Art style')).toHaveValue('ink and watercolour');
    // The first look may fill the sheet with a narrator call: the read says it is the app's own.
    expect(
      fetchMock.requests
        .find((r) => r.method === 'GET' && r.url === '/api/story/5/style-sheet')!
        .headers.get('X-Requested-With'),
    ).toBe('XMLHttpRequest');
    expect(screen.getByLabelText('Your character')).toHaveValue('a tall woman with short red hair');
    const tom = screen.getByRole('group', { name: 'Character 1' });
    expect(within(tom).getByLabelText('Name')).toHaveValue('Old Tom');
    expect(within(tom).getByLabelText('Face')).toHaveValue('weathered, grey beard');
    expect(within(tom).getByLabelText('Hair')).toHaveValue('bald');
    expect(within(tom).getByLabelText('Clothes')).toHaveValue('oilskin coat');
  });

  it('needs a name for every character before anything is sent', async () => {
    const fetchMock = setup();
    await screen.findByLabelText('Art style');
    await userEvent.click(screen.getByRole('button', { name: 'Add character' }));
    expect(screen.getByRole('group', { name: 'Character 2' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save style sheet' }));
    expect(await screen.findByText('Every character needs a name.')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Character 2' })).getByLabelText('Name')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(puts(fetchMock)).toHaveLength(0);
  });

  it("PUTs the whole sheet and says 'Style sheet saved'", async () => {
    const fetchMock = setup();
    const artStyle = await screen.findByLabelText('Art style');
    await userEvent.clear(artStyle);
    await userEvent.type(artStyle, 'woodcut print');
    await userEvent.click(screen.getByRole('button', { name: 'Remove Character 1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add character' }));
    const mira = screen.getByRole('group', { name: 'Character 1' });
    await userEvent.type(within(mira).getByLabelText('Name'), 'Mira');
    await userEvent.type(within(mira).getByLabelText('Hair'), 'long black braid');
    await userEvent.click(screen.getByRole('button', { name: 'Save style sheet' }));

    expect(await screen.findByText('Style sheet saved')).toBeInTheDocument();
    expect(screen.getByText('The next picture will follow it.')).toBeInTheDocument();
    expect(puts(fetchMock).map((r) => r.body)).toEqual([
      {
        artStyle: 'woodcut print',
        player: 'a tall woman with short red hair',
        characters: [{ name: 'Mira', face: '', hair: 'long black braid', clothes: '' }],
      },
    ]);
    expect(puts(fetchMock)[0].headers.get('X-Requested-With')).toBe('XMLHttpRequest');
  });

  it("shows the server's refusal in an 'Error' toast", async () => {
    setup(() =>
      jsonResponse(
        { message: 'A style sheet holds at most 12 characters.', code: 'VALIDATION_ERROR' },
        { status: 400 },
      ),
    );
    await screen.findByLabelText('Art style');
    await userEvent.click(screen.getByRole('button', { name: 'Save style sheet' }));
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('A style sheet holds at most 12 characters.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save style sheet' })).toBeEnabled());
  });
});
