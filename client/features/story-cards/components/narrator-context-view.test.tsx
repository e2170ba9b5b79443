// 'What the narrator saw' as the story page wires it (the door's action, hook and dialog), against a
// scripted server: the window bar and its words, every block in order with its kind, tokens, state
// (icon and words) and reason; what the reply cost and the work it set off; the version shown asked
// for; a 404's message; focus back on close.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { STORY_CARD_MESSAGES, type NarratorContext } from '@shared/schemas/story-cards';
import { jsonResponse, mockFetch, renderWithProviders } from '@client/test/utils';
import { NarratorContextAction, NarratorContextDialog, useNarratorContextViewer } from '../index';

const CONTEXT: NarratorContext = {
  blocks: [
    { kind: 'system', title: 'How to narrate', tokens: 310, included: 'full', reason: 'Always sent.' },
    { kind: 'premise', title: 'A harbour where bells ring alone', tokens: 40, included: 'full', reason: 'Pinned.' },
    { kind: 'card', title: 'Bessie', tokens: 120, included: 'full', reason: 'Key "mare" in your action.', cardId: 1 },
    {
      kind: 'card',
      title: 'The harbour',
      tokens: 290,
      included: 'partial',
      reason: 'Cut to fit the cards’ share.',
      cardId: 2,
    },
    { kind: 'card', title: 'Old Tom', tokens: 95, included: 'dropped', reason: 'No room left for cards.', cardId: 3 },
    { kind: 'memory', title: 'Story memory', tokens: 180, included: 'full', reason: 'Summarised.' },
    { kind: 'turn', title: 'Turn 3', tokens: 2300, included: 'full', reason: 'Recent turn.', messageId: 3 },
    {
      kind: 'passage',
      title: 'Turn 1: your action',
      tokens: 29,
      included: 'full',
      reason: "matched 'mare', rank 1 of 4",
      messageId: 1,
    },
    {
      kind: 'passage',
      title: 'Turn 2: the narrator',
      tokens: 85,
      included: 'dropped',
      reason: "matched 'harbour', rank 2 of 4; no room in the memory budget",
      messageId: 2,
    },
    { kind: 'action', title: 'I ride to the harbour', tokens: 60, included: 'full', reason: 'Your new action.' },
  ],
  promptTokens: 3120,
  outputTokens: 350,
  windowTokens: 6963,
  cardBudgetTokens: 1740,
  recallBudgetTokens: 700,
};

function Harness({ version }: { version?: number }) {
  const viewer = useNarratorContextViewer();
  return (
    <>
      <NarratorContextAction onOpen={(trigger) => viewer.show(4, version, trigger)} />
      <NarratorContextDialog storyId={5} {...viewer.dialog} />
    </>
  );
}

function setup(answer: () => Response, version?: number) {
  const fetchMock = mockFetch(() => answer());
  renderWithProviders(<Harness version={version} />);
  return fetchMock;
}

async function open() {
  await userEvent.click(screen.getByRole('button', { name: 'What the narrator saw' }));
  return screen.findByRole('dialog', { name: 'What the narrator saw' });
}

describe('What the narrator saw', () => {
  it('shows how full the window was and every block in the order sent', async () => {
    const fetchMock = setup(() => jsonResponse(CONTEXT));
    const dialog = await open();
    const bar = await within(dialog).findByRole('progressbar', { name: 'Share of the narrator’s window used' });
    expect(bar).toHaveAttribute('aria-valuenow', '3120');
    expect(bar).toHaveAttribute('aria-valuemax', '6963');
    expect(bar).toHaveAttribute('aria-valuetext', '3,120 of 6,963 tokens (45%)');
    expect(within(dialog).getByText('3,120 of 6,963 tokens (45%)')).toBeInTheDocument();
    // Bessie sent whole and the harbour in part: 120 + 290 of the cards' 1,740.
    expect(within(dialog).getByText('Cards: 410 of 1,740 tokens · The reply: 350 tokens')).toBeInTheDocument();
    // The summary and the one passage sent: 180 + 29 of the window's 6,963.
    expect(
      within(dialog).getByText(
        'Memory: 209 tokens (3% of the window) · story bible and recalled passages: 29 of 700 tokens',
      ),
    ).toBeInTheDocument();
    const mark = dialog.querySelector<HTMLElement>('[data-card-budget-mark]');
    expect(mark?.style.left).toMatch(/^24\.98/);

    const rows = within(within(dialog).getByRole('table')).getAllByRole('row');
    expect(rows[0].textContent).toBe('KindWhatTokensSentWhy');
    expect(
      rows.slice(1).map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Rules', 'How to narrate', '310', 'Sent', 'Always sent.'],
      ['Premise', 'A harbour where bells ring alone', '40', 'Sent', 'Pinned.'],
      ['Card', 'Bessie', '120', 'Sent', 'Key "mare" in your action.'],
      ['Card', 'The harbour', '290', 'Partly sent', 'Cut to fit the cards’ share.'],
      ['Card', 'Old Tom', '95', 'Not sent', 'No room left for cards.'],
      ['Memory', 'Story memory', '180', 'Sent', 'Summarised.'],
      ['Turn', 'Turn 3', '2,300', 'Sent', 'Recent turn.'],
      ['Recalled', 'Turn 1: your action', '29', 'Sent', "matched 'mare', rank 1 of 4"],
      [
        'Recalled',
        'Turn 2: the narrator',
        '85',
        'Not sent',
        "matched 'harbour', rank 2 of 4; no room in the memory budget",
      ],
      ['Your action', 'I ride to the harbour', '60', 'Sent', 'Your new action.'],
    ]);
    // Each state has its icon beside its words, never colour alone.
    expect(within(rows[5]).getByText('Not sent').querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
    expect(fetchMock.requests.map((r) => r.url)).toEqual(['/api/story/5/messages/4/context']);
  });

  it("notes the loop guard's work on a reply it wrote again, with what it found", async () => {
    const reasons = ['It opened like an earlier reply ("The tide rolls in under a low grey sky…"). Open differently.'];
    setup(() => jsonResponse({ ...CONTEXT, loopGuard: { outcome: 'replaced', reasons, retried: true } }));
    const dialog = await open();
    await within(dialog).findByRole('table');
    const note = dialog.querySelector<HTMLElement>('[data-loop-guard]');
    expect(note).not.toBeNull();
    expect(within(note!).getByText('Loop guard')).toBeInTheDocument();
    expect(
      within(note!).getByText(
        'The first answer repeated the story; the narrator was asked once more, and this reply replaced it.',
      ),
    ).toBeInTheDocument();
    expect(within(note!).getByRole('listitem')).toHaveTextContent(reasons[0]);
  });

  it('names the narrator that wrote the reply', async () => {
    setup(() => jsonResponse({ ...CONTEXT, narrator: { id: 'deep', label: 'Deep' } }));
    const dialog = await open();
    await within(dialog).findByRole('table');
    expect(within(dialog).getByText('Written by Deep.')).toBeInTheDocument();
  });

  it('names no narrator for a record written before narrators were named', async () => {
    setup(() => jsonResponse(CONTEXT));
    const dialog = await open();
    await within(dialog).findByRole('table');
    expect(within(dialog).queryByText(/^Written by /)).not.toBeInTheDocument();
  });

  it('has no loop guard note on a reply the guard let pass', async () => {
    setup(() => jsonResponse(CONTEXT));
    const dialog = await open();
    await within(dialog).findByRole('table');
    expect(dialog.querySelector('[data-loop-guard]')).toBeNull();
  });

  it('says what the reply cost and the paid work it set off, at the server’s figures', async () => {
    setup(() =>
      jsonResponse({
        ...CONTEXT,
        usage: { inputTokens: 3120, outputTokens: 350, cachedInputTokens: 2808, costUsd: 0.0058, calls: 2 },
        laterWork: [
          {
            kind: 'summary',
            inputTokens: 1200,
            outputTokens: 300,
            cachedInputTokens: 0,
            imageTokens: 0,
            costUsd: 0.006,
            createdAt: '2026-03-09T10:00:01.000Z',
          },
          {
            kind: 'style',
            inputTokens: 400,
            outputTokens: 90,
            cachedInputTokens: 0,
            imageTokens: 0,
            costUsd: 0.00196,
            createdAt: '2026-03-09T10:00:02.000Z',
          },
          {
            kind: 'image',
            inputTokens: 0,
            outputTokens: 0,
            cachedInputTokens: 0,
            imageTokens: 4160,
            costUsd: 1.5,
            createdAt: '2026-03-09T10:00:05.000Z',
          },
        ],
      }),
    );
    const dialog = await open();
    const section = await within(dialog).findByRole('region', { name: 'What it cost' });
    const [own, later] = within(section).getAllByRole('list');
    expect(
      within(own)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Tokens sent: 3,120 (90% cached)',
      'Tokens written: 350',
      'Cost: $0.0058',
      'Includes the loop guard’s second call.',
    ]);
    expect(later).toHaveAccessibleName('Afterwards');
    expect(
      within(later)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Memory fold: 1,200 sent, 300 written · $0.0060',
      'Picture style sheet: 400 sent, 90 written · $0.0020',
      'Scene picture: 4,160 image tokens · $1.50',
    ]);
  });

  it('says when the provider did not report its cache, and a cost of nothing as $0.00', async () => {
    setup(() => jsonResponse({ ...CONTEXT, usage: { inputTokens: 900, outputTokens: 120, costUsd: 0, calls: 1 } }));
    const dialog = await open();
    const section = await within(dialog).findByRole('region', { name: 'What it cost' });
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Tokens sent: 900 (cache not reported)', 'Tokens written: 120', 'Cost: $0.00']);
    expect(within(section).queryByText('Afterwards')).not.toBeInTheDocument();
  });

  it('has no cost section for a record written before costs were kept', async () => {
    setup(() => jsonResponse(CONTEXT));
    const dialog = await open();
    await within(dialog).findByRole('table');
    expect(within(dialog).queryByRole('region', { name: 'What it cost' })).not.toBeInTheDocument();
    expect(dialog.querySelector('[data-context-cost]')).toBeNull();
  });

  it('asks for the version shown, and gives focus back to the action when closed', async () => {
    const fetchMock = setup(() => jsonResponse(CONTEXT), 2);
    const dialog = await open();
    expect(dialog).toHaveAccessibleDescription(
      'What was sent to the narrator for version 2 of this reply, in order, and why.',
    );
    await within(dialog).findByRole('table');
    expect(fetchMock.requests.map((r) => r.url)).toEqual(['/api/story/5/messages/4/context?version=2']);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'What the narrator saw' })).toHaveFocus();
  });

  it('shows the message of a reply written before such records were kept', async () => {
    setup(() => jsonResponse({ message: STORY_CARD_MESSAGES.contextMissing, code: 'NOT_FOUND' }, { status: 404 }));
    const dialog = await open();
    expect(await within(dialog).findByText(STORY_CARD_MESSAGES.contextMissing)).toBeInTheDocument();
    expect(within(dialog).queryByRole('table')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('says so when the record cannot be read', async () => {
    setup(() => jsonResponse({ message: 'Internal error', code: 'INTERNAL_ERROR' }, { status: 500 }));
    const dialog = await open();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Internal error');
  });
});
