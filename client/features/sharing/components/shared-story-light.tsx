// The lightweight shared page for social-network in-app browsers: the first scene
// image only, the first five turns, and the note that this is a preview.
import { LIGHT_PREVIEW_MAX_MESSAGES } from '@shared/constants';
import type { SharedStory } from '@shared/schemas/sharing';
import { SHARING_STRINGS } from '../strings';
import { previewContent } from '../utils/in-app-browser';
import { NarrativeEntry, SceneImage, sceneAlt, SharedStoryHeader, StartYourStory } from './shared-story-view';

export function SharedStoryLight({ story, isSample }: { story: SharedStory; isSample: boolean }) {
  const preview = previewContent(story.messages, LIGHT_PREVIEW_MAX_MESSAGES);
  return (
    <article className="grid gap-6">
      <SharedStoryHeader title={story.title} isSample={isSample} />
      {preview.image ? (
        <SceneImage
          src={preview.image.image}
          thumbnail={preview.image.thumbnail}
          label={sceneAlt(SHARING_STRINGS.sceneLabel(1), preview.image)}
        />
      ) : null}
      <ol className="grid gap-3" aria-label={SHARING_STRINGS.narrative}>
        {preview.messages.map((message, index) => (
          <NarrativeEntry key={index} role={message.role} content={message.content} />
        ))}
      </ol>
      <p role="note" className="rounded-lg border border-dashed bg-muted/60 px-4 py-3 text-sm">
        {SHARING_STRINGS.previewNote}
      </p>
      <StartYourStory />
    </article>
  );
}
