// The edit request: PATCH with the JSON write headers and the version it was made from; a stale
// edit's 409 carries the current version (StaleEditError), any other refusal the plain API error.
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '@client/lib/api-client';
import { jsonResponse, mockFetch } from '@client/test/utils';
import { editMessage, StaleEditError } from './edit-message';

describe('editMessage', () => {
  it('sends the words and the base version as a JSON write', async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse({ messageId: 4, role: 'assistant', content: 'New words', version: 3, versions: 3 }),
    );
    expect(await editMessage(5, 4, { content: 'New words', baseVersion: 2 })).toEqual({
      messageId: 4,
      role: 'assistant',
      content: 'New words',
      version: 3,
      versions: 3,
    });
    const [request] = fetchMock.requests;
    expect(request).toMatchObject({
      url: '/api/story/5/messages/4',
      method: 'PATCH',
      body: { content: 'New words', baseVersion: 2 },
      credentials: 'include',
    });
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
  });

  it('a stale edit answers the version shown now', async () => {
    mockFetch(() =>
      jsonResponse(
        {
          message: 'This message was changed in another tab.',
          code: 'CONFLICT',
          current: { version: 4, content: 'Theirs' },
        },
        { status: 409 },
      ),
    );
    const error = await editMessage(5, 4, { content: 'Mine', baseVersion: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StaleEditError);
    expect(error).toMatchObject({
      message: 'This message was changed in another tab.',
      status: 409,
      code: 'CONFLICT',
      current: { version: 4, content: 'Theirs' },
    });
  });

  it('a busy story or another failure is the API error with the server message', async () => {
    mockFetch(() =>
      jsonResponse(
        { message: 'The narrator is still writing the last reply. Please wait for it to finish.', code: 'CONFLICT' },
        { status: 409 },
      ),
    );
    const busy = await editMessage(5, 4, { content: 'Mine', baseVersion: 1 }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(ApiRequestError);
    expect(busy).not.toBeInstanceOf(StaleEditError);
    expect(busy).toMatchObject({
      message: 'The narrator is still writing the last reply. Please wait for it to finish.',
      status: 409,
    });

    mockFetch(() =>
      jsonResponse(
        { message: 'The text must be at most 20,000 characters.', code: 'VALIDATION_ERROR' },
        { status: 400 },
      ),
    );
    await expect(editMessage(5, 4, { content: 'x' })).rejects.toMatchObject({
      message: 'The text must be at most 20,000 characters.',
      status: 400,
    });
  });
});
