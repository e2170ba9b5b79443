// A message edited in place: its words in a textarea, Save and Cancel (Ctrl/Cmd+Enter saves,
// Escape cancels). What the player types is never lost: a refused Save (another tab changed the
// message, the narrator is writing, a dropped connection) leaves the text as typed, with the
// server's message under it; drafts are reported so a row scrolled away comes back with them.
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { STORY_VERSION_MESSAGES } from '@shared/schemas/story-versions';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { STORY_VERSIONS_STRINGS as S } from '../strings';

export interface MessageEditorProps {
  /** The text to start from: the player's draft if one was kept, else the message's words. */
  initialText: string;
  /** The message's words as shown now: saving them unchanged just closes the editor. */
  shownText: string;
  maxLength: number;
  /** The message for a text that is too long (an action, a premise and a reply have their own limits). */
  tooLongMessage: string;
  saving: boolean;
  /** The server's answer to the last Save, when it refused. */
  error: string | null;
  onSave: (text: string) => void;
  onCancel: () => void;
  onDraftChange?: (text: string) => void;
  className?: string;
}

export function MessageEditor({
  initialText,
  shownText,
  maxLength,
  tooLongMessage,
  saving,
  error,
  onSave,
  onCancel,
  onDraftChange,
  className,
}: MessageEditorProps) {
  const [text, setText] = useState(initialText);
  const [invalid, setInvalid] = useState<string | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const shownError = invalid ?? error;

  // The editor opens with the cursor after the words, ready to type.
  useLayoutEffect(() => {
    const field = textarea.current;
    if (!field) return;
    field.focus({ preventScroll: true });
    field.setSelectionRange(field.value.length, field.value.length);
  }, []);

  const save = () => {
    if (saving) return;
    const trimmed = text.trim();
    if (trimmed === '') return setInvalid(STORY_VERSION_MESSAGES.contentRequired);
    if (trimmed.length > maxLength) return setInvalid(tooLongMessage);
    setInvalid(null);
    if (trimmed === shownText.trim()) return onCancel();
    onSave(trimmed);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    }
  };

  return (
    <form
      aria-label={S.editLabel}
      className={cn('grid gap-2 font-sans', className)}
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <label htmlFor={inputId} className="sr-only">
        {S.editLabel}
      </label>
      <textarea
        id={inputId}
        ref={textarea}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setInvalid(null);
          onDraftChange?.(event.target.value);
        }}
        onKeyDown={handleKeyDown}
        aria-describedby={shownError ? `${errorId} ${hintId}` : hintId}
        aria-invalid={shownError ? true : undefined}
        className="field-sizing-content max-h-[60dvh] min-h-28 w-full resize-y rounded-md border border-input bg-background/70 px-3 py-2 text-base leading-relaxed text-foreground shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive"
      />
      {shownError ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {shownError}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span id={hintId} className="text-xs text-muted-foreground">
          {S.editHint}
        </span>
        <div className="ml-auto flex gap-2">
          <Button variant="ghost" size="sm" onClick={onCancel}>
            {S.cancel}
          </Button>
          <Button type="submit" size="sm" disabled={saving}>
            {saving ? S.saving : S.save}
          </Button>
        </div>
      </div>
    </form>
  );
}
