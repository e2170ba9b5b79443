// Story turns as API tests play them: start a story and continue it, each asserting it answered 200.
import { expect } from 'vitest';
import type { TestClient } from './test-app';

export interface PlayedReply {
  storyId: number;
  messageId: number;
  message: string;
}

export async function startStory(client: TestClient, prompt: string): Promise<PlayedReply> {
  const res = await client.post('/api/story/start', { prompt });
  expect(res.statusCode).toBe(200);
  return res.json();
}

export async function play(client: TestClient, storyId: number, message: string): Promise<PlayedReply> {
  const res = await client.post(`/api/story/${storyId}/continue`, { message });
  expect(res.statusCode).toBe(200);
  return res.json();
}
