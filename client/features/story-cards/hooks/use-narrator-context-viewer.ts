// The story page's one 'What the narrator saw' dialog: which reply (and version) it shows, whether it
// is open, and the button to give focus back to. `show` is stable, so memoised chat bubbles keep it.
import { useCallback, useState } from 'react';
import type { NarratorContextTarget } from '../api/get-narrator-context';

export interface NarratorContextDialogState {
  target: NarratorContextTarget | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocus: HTMLElement | null;
}

export interface NarratorContextViewer {
  /** Opens the dialog on a reply (the version shown, when it has several). */
  show: (messageId: number, version: number | undefined, trigger: HTMLElement | null) => void;
  /** What `NarratorContextDialog` takes, besides the story's id. */
  dialog: NarratorContextDialogState;
}

export function useNarratorContextViewer(): NarratorContextViewer {
  const [state, setState] = useState<{ target: NarratorContextTarget; open: boolean; trigger: HTMLElement | null }>();
  const show = useCallback((messageId: number, version: number | undefined, trigger: HTMLElement | null) => {
    setState({ target: version === undefined ? { messageId } : { messageId, version }, open: true, trigger });
  }, []);
  const onOpenChange = useCallback((open: boolean) => {
    setState((current) => (current ? { ...current, open } : current));
  }, []);
  return {
    show,
    dialog: {
      target: state?.target ?? null,
      open: state?.open ?? false,
      onOpenChange,
      returnFocus: state?.trigger ?? null,
    },
  };
}
