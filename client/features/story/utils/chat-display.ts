// Chat display messages (spec section 3): what the chat view draws from the story messages. When no
// message has a server id yet, display ids are made from a base time minus one second per
// position; an assistant message with an image and a server id gets an extra image entry.
import { STORY_STRINGS } from '../strings';
import type { LocalRole, LocalStoryMessage } from '../state/story-state';

export interface ChatDisplayMessage {
  id: string;
  /** The story store's id of the message, whatever display id it is drawn under (streaming, 'Try again'). */
  localId: string;
  role: LocalRole;
  content: string;
  messageId?: number;
  image?: string;
  isNotice?: boolean;
}

/** `baseTime` must stay fixed for a story (the view keeps it), or the made-up ids would change on every render. */
export function toChatDisplayMessages(messages: LocalStoryMessage[], baseTime: number): ChatDisplayMessage[] {
  const anyServerId = messages.some((m) => m.messageId !== undefined);
  const display: ChatDisplayMessage[] = [];
  messages.forEach((m, position) => {
    const id = anyServerId ? m.id : String(baseTime - position * 1000);
    display.push({ id, localId: m.id, role: m.role, content: m.content, messageId: m.messageId, image: m.image, isNotice: m.isNotice });
    if (m.role === 'assistant' && m.image && m.messageId !== undefined) {
      display.push({ id: `${id}-image`, localId: m.id, role: 'image', content: STORY_STRINGS.generatedImage, image: m.image, messageId: m.messageId });
    }
  });
  return display;
}
