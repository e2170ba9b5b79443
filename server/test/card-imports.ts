// Story cards' files as the API tests send them: a story to import into, and a file's bytes posted
// to POST /api/story/{id}/cards/import as a browser sends a file (its type named, the body as it is).
import { expect } from 'vitest';
import type { TestClient } from './test-app';

/** A new story of the player's, its id. */
export async function newStory(client: TestClient, premise = 'A ferry crosses the drowned marshes of Eldoria') {
  const res = await client.post('/api/story/start', { prompt: premise });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().storyId as number;
}

/** Posts a cards file's bytes to the story's import, as `type` (JSON by default; image/png for a card picture). */
export const importCards = (client: TestClient, storyId: number, body: Uint8Array, type = 'application/json') =>
  client.request({
    method: 'POST',
    url: `/api/story/${storyId}/cards/import`,
    payload: Buffer.from(body),
    headers: { 'content-type': type },
  });
