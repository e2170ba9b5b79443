// The story-versions pieces on their own: the '‹ 2 / 3 ›' switcher, the in-place editor's keys and
// checks, and Undo/Redo's enabling. The story page's journeys through them are in
// client/features/story/components/story-page-versions.test.tsx.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MessageEditor } from './message-editor';
import { UndoRedoButtons } from './undo-redo-buttons';
import { VersionSwitcher } from './version-switcher';

describe('VersionSwitcher', () => {
  it('shows "version / versions" and asks for the previous or next one', async () => {
    const onSelect = vi.fn();
    const { rerender } = render(<VersionSwitcher version={2} versions={3} onSelect={onSelect} />);
    expect(screen.getByRole('group', { name: 'Versions of this reply' })).toHaveTextContent('2 / 3');
    await userEvent.click(screen.getByRole('button', { name: 'Previous version' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next version' }));
    expect(onSelect.mock.calls).toEqual([[1], [3]]);

    rerender(<VersionSwitcher version={1} versions={3} onSelect={onSelect} />);
    expect(screen.getByRole('button', { name: 'Previous version' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next version' })).toBeEnabled();
    rerender(<VersionSwitcher version={3} versions={3} onSelect={onSelect} />);
    expect(screen.getByRole('button', { name: 'Next version' })).toBeDisabled();
    rerender(<VersionSwitcher version={2} versions={3} onSelect={onSelect} disabled />);
    expect(screen.getByRole('button', { name: 'Previous version' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next version' })).toBeDisabled();
  });
});

describe('MessageEditor', () => {
  const setup = (props: Partial<Parameters<typeof MessageEditor>[0]> = {}) => {
    const handlers = { onSave: vi.fn(), onCancel: vi.fn(), onDraftChange: vi.fn() };
    render(
      <MessageEditor
        initialText="I wave"
        shownText="I wave"
        maxLength={20}
        tooLongMessage="Your action must be at most 20 characters."
        saving={false}
        error={null}
        {...handlers}
        {...props}
      />,
    );
    return { ...handlers, field: screen.getByRole('textbox', { name: 'Edit this message' }) };
  };

  it('opens focused on the words; Ctrl+Enter and Cmd+Enter save them trimmed, Escape cancels', async () => {
    const { field, onSave, onCancel, onDraftChange } = setup();
    expect(field).toHaveFocus();
    await userEvent.type(field, ' back  {Control>}{Enter}{/Control}');
    expect(onSave).toHaveBeenLastCalledWith('I wave back');
    expect(onDraftChange).toHaveBeenLastCalledWith('I wave back  ');
    await userEvent.type(field, '{Meta>}{Enter}{/Meta}');
    expect(onSave).toHaveBeenCalledTimes(2);
    await userEvent.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('refuses an empty or too long text in place, and closes without saving when nothing changed', async () => {
    const { field, onSave, onCancel } = setup();
    await userEvent.clear(field);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter the text.');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(field, 'I wave at every gull in the bay');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Your action must be at most 20 characters.');
    expect(field).toHaveValue('I wave at every gull in the bay');
    expect(onSave).not.toHaveBeenCalled();

    await userEvent.clear(field);
    await userEvent.type(field, ' I wave ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it("shows the server's refusal and waits while saving", () => {
    setup({
      error: 'The narrator is still writing the last reply. Please wait for it to finish.',
      saving: true,
      initialText: 'Kept words',
    });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The narrator is still writing the last reply. Please wait for it to finish.',
    );
    expect(screen.getByRole('textbox', { name: 'Edit this message' })).toHaveValue('Kept words');
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeDisabled();
  });
});

describe('UndoRedoButtons', () => {
  it('each is enabled only when it can act, and acts on click', async () => {
    const onUndo = vi.fn();
    const onRedo = vi.fn();
    const { rerender } = render(<UndoRedoButtons canUndo canRedo={false} onUndo={onUndo} onRedo={onRedo} />);
    expect(screen.getByRole('button', { name: 'Undo' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Redo' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(onUndo).toHaveBeenCalledTimes(1);
    rerender(<UndoRedoButtons canUndo={false} canRedo onUndo={onUndo} onRedo={onRedo} />);
    expect(screen.getByRole('button', { name: 'Undo' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Redo' }));
    expect(onRedo).toHaveBeenCalledTimes(1);
  });
});
