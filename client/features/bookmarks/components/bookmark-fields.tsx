// The title and description of a bookmark, as the 'Save Progress' dialog and the inline edit on
// the Bookmarks page both ask for them: the same limits, the blank-title rule and trimming.
import { useState } from 'react';
import { BOOKMARK_DESCRIPTION_MAX_LENGTH, BOOKMARK_TITLE_MAX_LENGTH } from '@shared/constants';
import { BOOKMARK_MESSAGES } from '@shared/schemas/bookmarks';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { Textarea } from '@client/components/ui/textarea';
import { BOOKMARKS_STRINGS } from '../strings';

export function useBookmarkDraft(initial: { title: string; description: string } = { title: '', description: '' }) {
  const [title, setTitle] = useState(initial.title);
  const [description, setDescription] = useState(initial.description);
  const [titleError, setTitleError] = useState<string | undefined>();
  return {
    title,
    description,
    titleError,
    setTitle(value: string) {
      setTitle(value);
      setTitleError(undefined);
    },
    setDescription,
    /** The trimmed values, or null (and the spec's message on the title) when the title is blank. */
    validate(): { title: string; description: string } | null {
      if (title.trim() === '') {
        setTitleError(BOOKMARK_MESSAGES.titleRequired);
        return null;
      }
      return { title: title.trim(), description: description.trim() };
    },
    reset() {
      setTitle('');
      setDescription('');
    },
  };
}
export type BookmarkDraft = ReturnType<typeof useBookmarkDraft>;

interface BookmarkFieldsProps {
  draft: BookmarkDraft;
  descriptionLabel: string;
  titlePlaceholder?: string;
  descriptionPlaceholder?: string;
  autoFocus?: boolean;
}

export function BookmarkFields({
  draft,
  descriptionLabel,
  titlePlaceholder,
  descriptionPlaceholder,
  autoFocus,
}: BookmarkFieldsProps) {
  return (
    <>
      <FormField label={BOOKMARKS_STRINGS.titleLabel} error={draft.titleError}>
        {(control) => (
          <Input
            {...control}
            value={draft.title}
            maxLength={BOOKMARK_TITLE_MAX_LENGTH}
            placeholder={titlePlaceholder}
            onChange={(event) => draft.setTitle(event.target.value)}
            autoFocus={autoFocus}
          />
        )}
      </FormField>
      <FormField label={descriptionLabel}>
        {(control) => (
          <Textarea
            {...control}
            value={draft.description}
            maxLength={BOOKMARK_DESCRIPTION_MAX_LENGTH}
            placeholder={descriptionPlaceholder}
            onChange={(event) => draft.setDescription(event.target.value)}
          />
        )}
      </FormField>
    </>
  );
}
