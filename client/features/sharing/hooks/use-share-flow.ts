// The share flow's state: title dialog -> creating link -> share dialog. The title is
// prefilled from the story's latest bookmark, else the narrator's suggestion, else 'My Story', unless
// the player has started typing; it is cleared when the dialog closes. Sharing first bookmarks the
// story (a failure there is only logged), then asks for the link.
import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_SHARE_TITLE } from '@shared/constants';
import { SHARING_MESSAGES } from '@shared/schemas/sharing';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api-client';
import { useCreateBookmarkMutation, bookmarksQueryOptions } from '@client/features/bookmarks';
import { fetchLastMessageId, fetchSuggestedTitle, useShareStoryMutation } from '../api/share-story';
import { SHARING_STRINGS } from '../strings';

export type SharePhase = 'closed' | 'naming' | 'creating' | 'shared';

export function useShareFlow(storyId: number | null) {
  const queryClient = useQueryClient();
  const shareMutation = useShareStoryMutation();
  const bookmarkMutation = useCreateBookmarkMutation();
  const [phase, setPhase] = useState<SharePhase>('closed');
  const [title, setTitleState] = useState('');
  const [titleError, setTitleError] = useState<string | undefined>();
  const [suggesting, setSuggesting] = useState(false);
  const [shareId, setShareId] = useState<string | null>(null);
  // Bumped on every open and close, so a late suggestion never lands in a newer dialog.
  const session = useRef(0);
  const typed = useRef(false);

  async function suggestTitle(id: number): Promise<string> {
    try {
      const bookmarks = await queryClient.fetchQuery(bookmarksQueryOptions());
      const latest = bookmarks.find((bookmark) => bookmark.storyId === id);
      if (latest) return latest.title;
    } catch {
      // No bookmarks to learn from: ask the narrator instead.
    }
    try {
      return (await fetchSuggestedTitle(id)) || DEFAULT_SHARE_TITLE;
    } catch {
      return DEFAULT_SHARE_TITLE;
    }
  }

  const open = () => {
    if (storyId === null) return;
    const current = ++session.current;
    typed.current = false;
    setTitleState('');
    setTitleError(undefined);
    setShareId(null);
    setPhase('naming');
    setSuggesting(true);
    void suggestTitle(storyId).then((suggestion) => {
      if (session.current !== current) return;
      setSuggesting(false);
      if (!typed.current) setTitleState(suggestion);
    });
  };

  const close = () => {
    session.current += 1;
    setPhase('closed');
    setTitleState('');
    setTitleError(undefined);
    setSuggesting(false);
  };

  const setTitle = (value: string) => {
    typed.current = true;
    setTitleState(value);
    setTitleError(undefined);
  };

  const submit = async () => {
    if (storyId === null || phase !== 'naming') return;
    const trimmed = title.trim();
    if (!trimmed) {
      setTitleError(SHARING_MESSAGES.titleRequired);
      return;
    }
    const current = session.current;
    setPhase('creating');
    try {
      const lastMessageId = await fetchLastMessageId(storyId);
      // The same place under the same title is bookmarked once, however often it is shared.
      const existing = await queryClient.fetchQuery(bookmarksQueryOptions());
      const already = existing.some(
        (b) => b.storyId === storyId && b.lastMessageId === lastMessageId && b.title === trimmed,
      );
      if (lastMessageId !== null && !already)
        await bookmarkMutation.mutateAsync({ storyId, lastMessageId, title: trimmed });
    } catch (error) {
      // The bookmark is a courtesy; sharing goes on without it.
      console.warn('Could not bookmark the story while sharing it', error);
    }
    try {
      const shared = await shareMutation.mutateAsync({ storyId, title: trimmed });
      if (session.current !== current) return;
      setShareId(shared.shareId);
      setTitleState('');
      setPhase('shared');
    } catch (error) {
      if (session.current !== current) return;
      setPhase('naming');
      toast({
        title: SHARING_STRINGS.errorTitle,
        description: errorMessage(error, SHARING_STRINGS.shareFailed),
        variant: 'destructive',
      });
    }
  };

  return { phase, title, titleError, suggesting, shareId, open, close, setTitle, submit };
}
export type ShareFlow = ReturnType<typeof useShareFlow>;
