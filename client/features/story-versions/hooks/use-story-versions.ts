// Where the story page meets the player's control over the story: Undo and Redo, each
// message's menu (Edit in place, Versions, Erase from here, Branch from here) and the version
// arrows. It runs them through the story's versions (state/story-versions.ts), turns failures into the server's message (a
// toast, or inline in the editor and the Versions dialog), offers the erase's Undo in its toast,
// and opens a new branch at its address. Every handler is stable, so the chat's rows stay memoised.
import { useCallback, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage, isUnauthorizedError } from '@client/lib/api-client';
import { clearSessionUser } from '@client/features/auth';
import { useBranchStoryMutation } from '../api/branch-story';
import type { MessageActionKind } from '../components/message-actions-menu';
import type { StoryVersions, VersionsOutcome } from '../state/story-versions';
import { STORY_VERSIONS_STRINGS as S } from '../strings';
import type { MessageControls, MessageEditorState, VersionsChatProps, VersionsScreen } from '../types';

/** A dialog opened from a message's menu; `open` false while it animates out. */
export interface VersionsDialogState {
  kind: 'versions' | 'erase';
  messageId: number;
  open: boolean;
  returnFocus: HTMLElement | null;
}

type Editing = MessageEditorState & { localId: string };

/** The premise and its first reply: the opening, which Undo and Erase never take. */
function openingIdsOf(messages: VersionsScreen['messages']): ReadonlySet<string> {
  const ids = new Set<string>();
  const shown = messages.filter((m) => !m.isNotice);
  if (shown[0]?.role !== 'user') return ids;
  ids.add(shown[0].id);
  if (shown[1]?.role === 'assistant') ids.add(shown[1].id);
  return ids;
}

export function useStoryVersions(state: VersionsScreen, versions: StoryVersions) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { mutateAsync: createBranch } = useBranchStoryMutation();
  const branching = useRef(false);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [dialog, setDialog] = useState<VersionsDialogState | null>(null);
  const drafts = useRef(new Map<string, string>());
  const resolving = useRef(false);

  const fail = useCallback(
    (message: string, unauthorized: boolean) => {
      toast({ title: S.errorTitle, description: message, variant: 'destructive' });
      if (unauthorized) clearSessionUser(queryClient);
    },
    [queryClient],
  );
  const report = useCallback(
    (outcome: VersionsOutcome) => (outcome.ok ? undefined : fail(outcome.message, outcome.unauthorized)),
    [fail],
  );

  /** One change at a time: the buttons and menus wait for it. */
  const run = useCallback(async (change: () => Promise<VersionsOutcome>) => {
    setBusy(true);
    try {
      return await change();
    } finally {
      setBusy(false);
    }
  }, []);

  const undo = useCallback(() => void run(versions.undo).then(report), [run, versions, report]);
  const redo = useCallback(() => void run(versions.redo).then(report), [run, versions, report]);

  const erase = useCallback(
    async (messageId: number) => {
      const outcome = await run(() => versions.erase(messageId));
      setDialog((current) => (current ? { ...current, open: false } : current));
      if (!outcome.ok) return report(outcome);
      toast({ title: S.erased, action: { label: S.undoErase, altText: S.undoEraseAlt, onClick: redo } });
    },
    [run, versions, report, redo],
  );

  const branchFrom = useCallback(
    async (messageId: number) => {
      const storyId = versions.screen().storyId;
      if (storyId === null || branching.current) return;
      branching.current = true;
      try {
        const created = await createBranch({ storyId, messageId });
        toast({ title: S.branchCreated });
        navigate(`/story/${created.storyId}`);
      } catch (error) {
        fail(errorMessage(error, S.failed), isUnauthorizedError(error));
      } finally {
        branching.current = false;
      }
    },
    [versions, createBranch, navigate, fail],
  );

  /** The Versions dialog's choice: its refusal is shown in the dialog. */
  const selectInDialog = useCallback(
    async (messageId: number, version: number): Promise<string | null> => {
      const outcome = await run(() => versions.select(messageId, version));
      if (outcome.ok) return null;
      if (outcome.unauthorized) clearSessionUser(queryClient);
      return outcome.message;
    },
    [run, versions, queryClient],
  );

  const controls = useMemo<MessageControls>(
    () => ({
      onSelectVersion: (messageId, version) => void run(() => versions.select(messageId, version)).then(report),
      onAction: (kind: MessageActionKind, localId, messageId, trigger) => {
        if (messageId === undefined) return;
        if (kind === 'edit') setEditing({ localId, saving: false, error: null });
        else if (kind === 'branch') void branchFrom(messageId);
        else setDialog({ kind, messageId, open: true, returnFocus: trigger });
      },
      onOpenActions: (localId) => {
        // Messages this tab wrote get their server ids from one read of the story, asked for only
        // when the player wants to act on one of them (never after every turn).
        const message = versions.screen().messages.find((m) => m.id === localId);
        if (!message || message.messageId !== undefined || resolving.current) return;
        resolving.current = true;
        void versions
          .resolveIds()
          .then(report)
          .finally(() => {
            resolving.current = false;
          });
      },
      onSaveEdit: (localId, messageId, text) => {
        setEditing((current) => (current?.localId === localId ? { ...current, saving: true, error: null } : current));
        void versions.edit(messageId, text).then((outcome) => {
          if (outcome.ok) drafts.current.delete(localId);
          else if (outcome.unauthorized) clearSessionUser(queryClient);
          // A refusal keeps the editor open with the player's words and the server's message.
          setEditing((current) =>
            current?.localId !== localId
              ? current
              : outcome.ok
                ? null
                : { ...current, saving: false, error: outcome.message },
          );
        });
      },
      onCancelEdit: () =>
        setEditing((current) => {
          if (current) drafts.current.delete(current.localId);
          return null;
        }),
      onDraftChange: (localId, text) => drafts.current.set(localId, text),
      draftOf: (localId) => drafts.current.get(localId),
    }),
    [run, versions, report, branchFrom, queryClient],
  );

  const { messages, isGenerating, storyId, canRedo } = state;
  const openingIds = useMemo(() => openingIdsOf(messages), [messages]);
  const locked = isGenerating || busy || storyId === null;
  const shownCount = useMemo(() => messages.reduce((n, m) => (m.isNotice ? n : n + 1), 0), [messages]);
  // The editor closes by itself when its message leaves the story (undone, erased).
  const editingShown = editing !== null && messages.some((m) => m.id === editing.localId) ? editing : null;

  const chat = useMemo<VersionsChatProps>(
    () => ({ controls, locked, openingIds, editing: editingShown }),
    [controls, locked, openingIds, editingShown],
  );

  return {
    chat,
    canUndo: !locked && shownCount > openingIds.size,
    canRedo: !locked && canRedo,
    undo,
    redo,
    dialog,
    closeDialog: () => setDialog((current) => (current ? { ...current, open: false } : current)),
    confirmErase: () => (dialog ? void erase(dialog.messageId) : undefined),
    selectInDialog,
    busy,
  };
}
export type StoryVersionsControls = ReturnType<typeof useStoryVersions>;
