// Chat display messages: what the chat view draws from the story messages. When no
// message has a server id yet, display ids are made from a base time minus one second per
// position. A narrator reply with a server id and a picture gets an extra entry '{id}-image' right
// after it: role image with 'Generated image' once painted, the 'Generating image...' placeholder
// while it is painted, or an assistant entry 'Failed to generate image: {reason}'.
import { type ScenePicture, IMAGES_STRINGS } from '@client/features/images';
import type { LoopGuardMark, ReplyUsage } from '@shared/schemas/story';
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
  /** Set on a picture entry only: the picture of the narrator reply just before it. */
  picture?: ScenePicture;
  /** Set on a narrator reply that has a picture (or one on its way or failed). */
  hasPicture?: boolean;
  /** The premise the story began with. */
  isInitialMessage?: boolean;
  /** Set on a message with several versions: the one shown, and how many. */
  version?: number;
  versions?: number;
  /** The loop guard's mark on a narrator reply, and whether it is writing the reply again now. */
  loopGuard?: LoopGuardMark;
  rewriting?: boolean;
  /** What a settled narrator reply cost (its quiet 'i'). */
  usage?: ReplyUsage;
}

export interface ChatDisplayOptions {
  /** False when the server paints no pictures: placeholders and failures stay hidden, painted pictures still show. */
  pictureProgress?: boolean;
}

function pictureOf(m: LocalStoryMessage): ScenePicture | undefined {
  if (m.role !== 'assistant' || m.messageId === undefined || m.isNotice) return undefined;
  return m.picture ?? (m.image ? { status: 'ready', url: m.image, alt: '' } : undefined);
}

/** `baseTime` must stay fixed for a story (the view keeps it), or the made-up ids would change on every render. */
export function toChatDisplayMessages(
  messages: LocalStoryMessage[],
  baseTime: number,
  options: ChatDisplayOptions = {},
): ChatDisplayMessage[] {
  const pictureProgress = options.pictureProgress ?? true;
  const anyServerId = messages.some((m) => m.messageId !== undefined);
  const display: ChatDisplayMessage[] = [];
  messages.forEach((m, position) => {
    const id = anyServerId ? m.id : String(baseTime - position * 1000);
    const picture = pictureOf(m);
    const entry: ChatDisplayMessage = {
      id,
      localId: m.id,
      role: m.role,
      content: m.content,
      messageId: m.messageId,
      image: m.image,
      isNotice: m.isNotice,
    };
    if (picture) entry.hasPicture = true;
    if (m.isInitialMessage) entry.isInitialMessage = true;
    if (m.loopGuard) entry.loopGuard = m.loopGuard;
    if (m.usage && m.role === 'assistant' && !m.isNotice) entry.usage = m.usage;
    if (m.rewriting) entry.rewriting = true;
    if (m.versions !== undefined && m.versions > 1) {
      entry.version = m.version ?? m.versions;
      entry.versions = m.versions;
    }
    display.push(entry);
    if (!picture || m.messageId === undefined) return;
    const pictureId = `${id}-image`;
    if (picture.status === 'ready') {
      display.push({
        id: pictureId,
        localId: m.id,
        role: 'image',
        content: IMAGES_STRINGS.generatedImage,
        image: picture.url,
        messageId: m.messageId,
        picture,
      });
    } else if (!pictureProgress) {
      return;
    } else if (picture.status === 'pending') {
      display.push({
        id: pictureId,
        localId: m.id,
        role: 'image',
        content: IMAGES_STRINGS.generatingImage,
        messageId: m.messageId,
        picture,
      });
    } else {
      display.push({
        id: pictureId,
        localId: m.id,
        role: 'assistant',
        content: IMAGES_STRINGS.failedWithReason(picture.reason),
        messageId: m.messageId,
        picture,
      });
    }
  });
  return display;
}
