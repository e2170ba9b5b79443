// The fixed bottom bar: bookmark and share buttons, the action input (Enter sends;
// Shift, Ctrl, Alt or Meta with Enter adds a line; at least 100 px tall) with Undo and Redo over its
// right end, and Send. The draft is kept per story in sessionStorage, so a reload or a failed send
// never loses what was typed. The microphone (client/features/voice-input) sits above Send; what
// it hears is added to the draft for the player to check and send, never sent by itself.
import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { SendHorizontal } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { VoiceInputButton, appendTranscript } from '@client/features/voice-input';
import { readItem, removeItem, writeItem } from '@client/lib/storage';
import { storyDraftKey } from '@client/lib/storage-keys';
import { STORY_STRINGS } from '../strings';

export interface ChatInputHandle {
  focus(): void;
  /** Puts an action back that could not be sent, ahead of anything typed since. */
  restore(text: string): void;
  /** Adds text after what is typed (spoken input), then focuses the input with the cursor after it. */
  insert(text: string): void;
}

export interface ChatInputBarProps {
  storyId: number | null;
  isGenerating: boolean;
  onSend: (text: string) => void;
  /** Buttons on the left of the bar (bookmark, share). */
  actions?: ReactNode;
  /** Small buttons over the input's right end (Undo, Redo), in the room the left column leaves there. */
  tools?: ReactNode;
}

export const ChatInputBar = forwardRef<ChatInputHandle, ChatInputBarProps>(function ChatInputBar(
  { storyId, isGenerating, onSend, actions, tools },
  ref,
) {
  const [draft, setDraft] = useState(() =>
    storyId === null ? '' : (readItem(storyDraftKey(storyId), 'session') ?? ''),
  );
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  const inputId = useId();
  // Set by insert(): once the new draft is on screen, the cursor goes to its end and the input gets focus.
  const caretToEnd = useRef(false);

  useEffect(() => {
    if (storyId === null) return;
    if (draft === '') removeItem(storyDraftKey(storyId), 'session');
    else writeItem(storyDraftKey(storyId), draft, 'session');
  }, [draft, storyId]);

  useLayoutEffect(() => {
    const textarea = textareaRef.current;
    if (!caretToEnd.current || !textarea) return;
    caretToEnd.current = false;
    textarea.focus();
    textarea.setSelectionRange(textarea.value.length, textarea.value.length);
    // A long draft: keep the end, where the new words are, in view.
    textarea.scrollTop = textarea.scrollHeight;
  }, [draft]);

  // Functional update: the player may have typed on while speaking; both are kept.
  const insert = useCallback((text: string) => {
    if (text.trim() === '') return;
    caretToEnd.current = true;
    setDraft((current) => appendTranscript(current, text));
  }, []);

  useImperativeHandle(ref, () => ({
    focus: () => textareaRef.current?.focus(),
    restore: (text) => setDraft((current) => (current.trim() === '' ? text : `${text}\n\n${current}`)),
    insert,
  }));

  const canSend = draft.trim() !== '' && !isGenerating;
  const send = () => {
    if (!canSend) return;
    const text = draft.trim();
    setDraft('');
    onSend(text);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    if (event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) {
      // Shift+Enter is a newline natively; the other modifiers need it inserted by hand.
      if (!event.shiftKey) {
        event.preventDefault();
        const target = event.currentTarget;
        const { selectionStart, selectionEnd, value } = target;
        setDraft(`${value.slice(0, selectionStart)}\n${value.slice(selectionEnd)}`);
        requestAnimationFrame(() => target.setSelectionRange(selectionStart + 1, selectionStart + 1));
      }
      return;
    }
    event.preventDefault();
    send();
  };

  return (
    // Opaque rather than blurred: a backdrop blur on a fixed bar is re-filtered on every scrolled frame.
    <div className="fixed inset-x-0 bottom-0 z-30 border-t bg-background">
      <form
        className="mx-auto flex w-full max-w-3xl items-end gap-2 px-3 py-3"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <div className="flex flex-col gap-2">{actions}</div>
        <label htmlFor={inputId} className="sr-only">
          {STORY_STRINGS.inputLabel}
        </label>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          {tools ? <div className="-mr-1 flex justify-end">{tools}</div> : null}
          <textarea
            id={inputId}
            ref={textareaRef}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={handleKeyDown}
            placeholder={STORY_STRINGS.inputPlaceholder}
            aria-describedby={hintId}
            className="min-h-[100px] w-full resize-none rounded-md border border-input bg-card/80 px-3 py-2 text-base leading-relaxed shadow-xs outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40"
          />
        </div>
        <span id={hintId} className="sr-only">
          {STORY_STRINGS.inputHint}
        </span>
        <div className="flex flex-col gap-2">
          <VoiceInputButton onTranscript={insert} />
          <Button type="submit" size="icon" disabled={!canSend} aria-label={STORY_STRINGS.send}>
            <SendHorizontal aria-hidden="true" />
          </Button>
        </div>
      </form>
    </div>
  );
});

/** The bar's height, so the chat leaves room for it. */
export const INPUT_BAR_HEIGHT = 128;
