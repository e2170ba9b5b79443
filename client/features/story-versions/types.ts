// What the story-versions feature needs of the story on screen, and what it hands the chat: the
// story feature supplies the one and draws the other, so story-versions never imports story.
import type { MessageActionKind } from './components/message-actions-menu';

/** A message on screen, as far as versions go (the story's own messages carry more). */
export interface VersionedMessage {
  /** Local id, stable across reloads and across undo and redo. */
  id: string;
  /** The server's id, once the server has it. */
  messageId?: number;
  role: string;
  isNotice?: boolean;
  version?: number;
  versions?: number;
}

/** The story on screen, as far as versions go. */
export interface VersionsScreen<M extends VersionedMessage = VersionedMessage> {
  storyId: number | null;
  isGenerating: boolean;
  messages: readonly M[];
  /** Undone or erased turns follow the story's end: redo would bring them back. */
  canRedo: boolean;
}

/** What the owner can do with a message; one stable object for the whole chat. */
export interface MessageControls {
  onSelectVersion: (messageId: number, version: number) => void;
  onAction: (
    kind: MessageActionKind,
    localId: string,
    messageId: number | undefined,
    trigger: HTMLElement | null,
  ) => void;
  /** The menu of a message opened: a message without its server id yet needs the story read again. */
  onOpenActions: (localId: string) => void;
  onSaveEdit: (localId: string, messageId: number, text: string) => void;
  onCancelEdit: () => void;
  onDraftChange: (localId: string, text: string) => void;
  draftOf: (localId: string) => string | undefined;
}

/** The state of the editor open on a message. */
export interface MessageEditorState {
  saving: boolean;
  error: string | null;
}

/** The owner's control over each message of the chat (menu, versions, editing). */
export interface VersionsChatProps {
  controls: MessageControls;
  /** Menus and version arrows wait while the narrator writes or a change is on its way. */
  locked: boolean;
  /** Local ids of the opening (the premise and its first reply), which cannot be erased. */
  openingIds: ReadonlySet<string>;
  /** The message being edited, and its editor's state. */
  editing: (MessageEditorState & { localId: string }) | null;
}
