// A narrator reply's quiet 'i': shown once a settled reply has the server's figures,
// opened by a click or the keyboard, with the tokens sent (and the cached share, or that the cache
// was not reported), the tokens written, the cost to 4 decimals under a cent, and the loop
// guard's second call when there was one; never while the reply streams, nor without figures.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ReplyUsage } from '@shared/schemas/story';
import { renderWithProviders } from '@client/test/utils';
import type { ChatDisplayMessage } from '../utils/chat-display';
import { ChatMessage } from './chat-message';

const reply = (usage?: ReplyUsage, overrides: Partial<ChatDisplayMessage> = {}): ChatDisplayMessage => ({
  id: 'a',
  localId: 'a',
  role: 'assistant',
  content: 'The tide turns.',
  messageId: 2,
  ...(usage ? { usage } : {}),
  ...overrides,
});

function show(message: ChatDisplayMessage, streaming = false) {
  renderWithProviders(<ChatMessage message={message} highlighted={false} streaming={streaming} />);
}

const lines = (panel: HTMLElement) =>
  within(panel)
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe("a narrator reply's cost", () => {
  it('opens the figures by a click: tokens, the cached share, the cost and the second call', async () => {
    show(reply({ inputTokens: 1234, outputTokens: 210, cachedInputTokens: 691, costUsd: 0.0058, calls: 2 }));
    await userEvent.click(screen.getByRole('button', { name: 'What this reply cost' }));
    const panel = await screen.findByRole('dialog', { name: 'What this reply cost' });
    expect(lines(panel)).toEqual([
      'Tokens sent: 1,234 (56% cached)',
      'Tokens written: 210',
      'Cost: $0.0058',
      'Includes the loop guard’s second call.',
    ]);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'What this reply cost' })).toHaveFocus();
  });

  it('opens from the keyboard too, and says when the cache was not reported', async () => {
    show(reply({ inputTokens: 900, outputTokens: 45, costUsd: 2.5, calls: 1 }));
    screen.getByRole('button', { name: 'What this reply cost' }).focus();
    await userEvent.keyboard('{Enter}');
    const panel = await screen.findByRole('dialog', { name: 'What this reply cost' });
    expect(lines(panel)).toEqual(['Tokens sent: 900 (cache not reported)', 'Tokens written: 45', 'Cost: $2.50']);
  });

  it('writes a cost of nothing as $0.00', async () => {
    show(reply({ inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, costUsd: 0, calls: 1 }));
    await userEvent.click(screen.getByRole('button', { name: 'What this reply cost' }));
    const panel = await screen.findByRole('dialog', { name: 'What this reply cost' });
    expect(lines(panel)).toEqual(['Tokens sent: 10 (0% cached)', 'Tokens written: 5', 'Cost: $0.00']);
  });

  it('has no i on a reply without figures, on one still streaming, nor on one being written again', () => {
    const usage: ReplyUsage = { inputTokens: 10, outputTokens: 5, costUsd: 0.001, calls: 1 };
    show(reply());
    show(reply(usage), true);
    show(reply(usage, { id: 'b', localId: 'b', rewriting: true }));
    expect(screen.getAllByRole('article')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'What this reply cost' })).not.toBeInTheDocument();
  });
});
