// A card's keys as chips: type a key and press Enter (or a comma) to add it, Backspace in the empty
// box takes the last one back, each chip has its own remove button. A key written /pattern/flags is a
// regular expression: commas are part of it (a{1,3}), so only Enter ends it, and its chip shows it as
// code. Text left in the box when it loses focus is added too, so Save never drops a typed key.
import { useState, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';
import type { FieldControlProps } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { STORY_CARDS_STRINGS as S } from '../strings';
import { KeyChip } from './key-chip';

export interface KeysInputProps {
  control: FieldControlProps;
  /** The field's name, which also names the list of its chips. */
  label: string;
  value: string[];
  onChange: (keys: string[]) => void;
  onBlur?: () => void;
  disabled?: boolean;
}

const isRegexStart = (text: string) => text.trimStart().startsWith('/');

/** The keys in a typed or pasted text: comma-separated, unless it is a regular expression. */
function keysIn(text: string): string[] {
  const parts = isRegexStart(text) ? [text] : text.split(',');
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

export function KeysInput({ control, label, value, onChange, onBlur, disabled = false }: KeysInputProps) {
  const [draft, setDraft] = useState('');

  const commit = (text: string) => {
    const added = keysIn(text).filter((key) => !value.includes(key));
    setDraft('');
    if (added.length > 0) onChange([...value, ...added]);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter' || (event.key === ',' && !isRegexStart(draft))) {
      // Enter adds a key, never submits the form; an empty box lets it through.
      if (draft.trim() === '' && event.key === 'Enter') return;
      event.preventDefault();
      commit(draft);
    } else if (event.key === 'Backspace' && draft === '' && value.length > 0) {
      event.preventDefault();
      const last = value[value.length - 1];
      onChange(value.slice(0, -1));
      setDraft(last);
    }
  };

  return (
    <div className="grid gap-2">
      {value.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={label}>
          {value.map((key) => (
            <li key={key}>
              <KeyChip value={key}>
                <button
                  type="button"
                  className="-mr-1 rounded-full p-0.5 opacity-70 hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  aria-label={S.removeKey(key)}
                  title={S.removeKey(key)}
                  disabled={disabled}
                  onClick={() => onChange(value.filter((other) => other !== key))}
                >
                  <X className="size-3" aria-hidden="true" />
                </button>
              </KeyChip>
            </li>
          ))}
        </ul>
      ) : null}
      <Input
        {...control}
        value={draft}
        disabled={disabled}
        autoComplete="off"
        onChange={(event) => {
          const text = event.target.value;
          // A pasted list ('Bessie, the mare,') becomes chips at once.
          if (!isRegexStart(text) && text.includes(',')) commit(text);
          else setDraft(text);
        }}
        onKeyDown={handleKeyDown}
        onBlur={() => {
          commit(draft);
          onBlur?.();
        }}
      />
    </div>
  );
}
