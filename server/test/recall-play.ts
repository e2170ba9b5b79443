// Turns as the memory bank's API tests play them, against the OpenAI-compatible fake: each turn's
// prompt read from what the fake was sent, with the turn's context record; stories started in the
// marsh country; facts planted by an action; and filler turns played until a message has been
// folded out of the verbatim window (after which the bank has indexed it), or all three at once.
import { expect } from 'vitest';
import { contentText, type FakeLlmServer } from './fake-llm-server';
import { registerUser, type TestClient, type TestContext } from './test-app';
import type { ProseWriter } from './varied-prose';
import type { NarratorContext } from '@shared/schemas/story-cards';

export interface ShownMessage {
  messageId: number;
  role: string;
  content: string;
}

/**
 * `running` answers the suite's app and fake, which its beforeAll starts after this is made. A turn
 * that fails shows what the server logged (api-setup.ts).
 */
export function recallPlayer(running: () => { ctx: TestContext; fake: FakeLlmServer }, writer: ProseWriter) {
  async function play(client: TestClient, storyId: number, message: string) {
    const { ctx, fake } = running();
    const res = await client.post(`/api/story/${storyId}/continue`, { message });
    expect(res.statusCode, res.body).toBe(200);
    await ctx.app.turns.idle();
    const prompt = fake.requests
      .at(-1)!
      .body.messages.map((m) => contentText(m.content))
      .join('\n\n');
    const record = (
      await client.get(`/api/story/${storyId}/messages/${res.json().messageId}/context`)
    ).json() as NarratorContext;
    return { prompt, record, messageId: res.json().messageId as number };
  }

  async function messages(client: TestClient, storyId: number): Promise<ShownMessage[]> {
    return (await client.get(`/api/story/${storyId}/current-state`)).json().messages;
  }

  async function newStory(client: TestClient): Promise<number> {
    const res = await client.post('/api/story/start', { prompt: 'A courier crosses the marsh country in autumn' });
    expect(res.statusCode, res.body).toBe(200);
    await running().ctx.app.turns.idle();
    return res.json().storyId as number;
  }

  /** Plays `action`; answers the id of its message. */
  async function plant(client: TestClient, storyId: number, action: string): Promise<number> {
    await play(client, storyId, action);
    return (await messages(client, storyId)).find((m) => m.content === action)!.messageId;
  }

  /** Plays filler turns until `messageId` is folded out of the verbatim turns (at most 40). */
  async function playUntilFolded(client: TestClient, storyId: number, messageId: number): Promise<void> {
    for (let turn = 0; turn < 40; turn += 1) {
      const { record } = await play(client, storyId, writer.action());
      const turns = record.blocks.filter((b) => b.kind === 'turn').map((b) => b.messageId!);
      if (turns.length > 0 && Math.min(...turns) > messageId) return;
    }
    throw new Error(`message ${messageId} never left the verbatim turns`);
  }

  /**
   * A new player's story holding `fact` as an early action, played until that action is folded out
   * of the verbatim turns: where recall has something to find.
   */
  async function storyWithFoldedFact(fact: string): Promise<{ client: TestClient; storyId: number; planted: number }> {
    const { client } = await registerUser(running().ctx.app);
    const storyId = await newStory(client);
    const planted = await plant(client, storyId, fact);
    await playUntilFolded(client, storyId, planted);
    return { client, storyId, planted };
  }

  return { play, messages, newStory, plant, playUntilFolded, storyWithFoldedFact };
}
