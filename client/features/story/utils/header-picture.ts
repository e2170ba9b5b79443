// The story page's header picture: the story's own (storyImage, from the server),
// else, as the server picks it, the opening reply's picture or the first painted one. While the
// opening's picture is being painted the header says so.
import type { HeaderPicture, ScenePicture } from '@client/features/images';
import type { LocalStoryMessage } from '../state/story-state';

function pictureOf(m: LocalStoryMessage): ScenePicture | undefined {
  return m.picture ?? (m.image ? { status: 'ready', url: m.image, alt: '' } : undefined);
}

export function headerPicture(messages: LocalStoryMessage[], storyImage: string | null): HeaderPicture {
  const replies = messages.filter((m) => m.role === 'assistant' && !m.isNotice);
  if (storyImage) {
    const match = replies.map(pictureOf).find((p) => p?.status === 'ready' && p.url === storyImage);
    return { status: 'ready', url: storyImage, alt: match?.status === 'ready' ? match.alt : '' };
  }
  const opening = replies[0] ? pictureOf(replies[0]) : undefined;
  if (opening?.status === 'ready') return { status: 'ready', url: opening.url, alt: opening.alt };
  if (opening?.status === 'pending' && !opening.stalled) return { status: 'pending' };
  const first = replies.map(pictureOf).find((p) => p?.status === 'ready');
  return first?.status === 'ready' ? { status: 'ready', url: first.url, alt: first.alt } : { status: 'none' };
}
