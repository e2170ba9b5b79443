// The read-only shared story (spec section 2): header with 'Create Your Own', the title and its badge,
// 'Story Gallery' when there are scenes, 'Story Narrative' ('You' / 'Story' / 'Scene
// Visualization'), the read-only notice and 'Start Your Story'. Story text is rendered as text, never
// as HTML.
import { Link } from 'react-router';
import { ArrowLeft, BookOpen, Sparkles } from 'lucide-react';
import type { SharedStory } from '@shared/schemas/sharing';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { cn } from '@client/lib/utils';
import { SHARING_STRINGS } from '../strings';

export function SharedStoryHeader({ title, isSample }: { title: string; isSample: boolean }) {
  return (
    <header className="grid gap-4">
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link to="/">
            <ArrowLeft aria-hidden="true" />
            {SHARING_STRINGS.createYourOwn}
          </Link>
        </Button>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="font-serif text-3xl leading-tight font-semibold break-words sm:text-4xl">{title}</h1>
        <span className="inline-flex items-center gap-1 rounded-full border border-primary/40 bg-primary/10 px-3 py-0.5 text-xs font-medium text-primary">
          <BookOpen className="size-3" aria-hidden="true" />
          {isSample ? SHARING_STRINGS.sampleBadge : SHARING_STRINGS.sharedBadge}
        </span>
      </div>
    </header>
  );
}

export function SceneImage({ src, label, className }: { src: string; label: string; className?: string }) {
  return <img src={src} alt={label} loading="lazy" className={cn('aspect-video w-full rounded-lg border object-cover', className)} />;
}

function StoryGallery({ images }: { images: string[] }) {
  return (
    <section aria-labelledby="shared-gallery" className="grid gap-3">
      <h2 id="shared-gallery" className="font-serif text-2xl font-semibold">
        {SHARING_STRINGS.gallery}
      </h2>
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {images.map((src, index) => (
          <li key={index}>
            <figure className="grid gap-1">
              <SceneImage src={src} label={SHARING_STRINGS.sceneLabel(index + 1)} />
              <figcaption className="text-sm text-muted-foreground">{SHARING_STRINGS.sceneLabel(index + 1)}</figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function NarrativeEntry({ role, content }: { role: 'user' | 'assistant'; content: string }) {
  const isUser = role === 'user';
  return (
    <li className={cn('grid gap-1 rounded-xl border px-4 py-3', isUser ? 'ml-6 bg-primary/10 sm:ml-16' : 'mr-6 bg-card/80 sm:mr-16')}>
      <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{isUser ? SHARING_STRINGS.you : SHARING_STRINGS.story}</p>
      <p className={cn('leading-relaxed whitespace-pre-line', !isUser && 'font-serif text-lg')}>{content}</p>
    </li>
  );
}

/** Each message's scene number (1-based) when it has an image, counted in story order. */
function sceneNumbers(messages: SharedStory['messages']): Array<number | null> {
  const numbers: Array<number | null> = [];
  for (const message of messages) numbers.push(message.image ? numbers.filter((n) => n !== null).length + 1 : null);
  return numbers;
}

function StoryNarrative({ messages }: { messages: SharedStory['messages'] }) {
  const scenes = sceneNumbers(messages);
  return (
    <section aria-labelledby="shared-narrative" className="grid gap-3">
      <h2 id="shared-narrative" className="font-serif text-2xl font-semibold">
        {SHARING_STRINGS.narrative}
      </h2>
      <ol className="grid gap-3">
        {messages.flatMap((message, index) => {
          const entries = [<NarrativeEntry key={index} role={message.role} content={message.content} />];
          const scene = scenes[index];
          if (message.image && scene !== null) {
            entries.push(
              <li key={`${index}-image`} className="mr-6 grid gap-1 sm:mr-16">
                <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{SHARING_STRINGS.sceneVisualization}</p>
                <SceneImage src={message.image} label={`${SHARING_STRINGS.sceneVisualization}: ${SHARING_STRINGS.sceneLabel(scene)}`} />
              </li>,
            );
          }
          return entries;
        })}
      </ol>
    </section>
  );
}

export function StartYourStory() {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="font-serif">
          {SHARING_STRINGS.ctaTitle}
        </CardTitle>
        <CardDescription className="text-base">{SHARING_STRINGS.ctaText}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild size="lg">
          <Link to="/">
            <Sparkles aria-hidden="true" />
            {SHARING_STRINGS.startYourStory}
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

export function SharedStoryView({ story, isSample }: { story: SharedStory; isSample: boolean }) {
  const images = story.messages.flatMap((m) => (m.image ? [m.image] : []));
  return (
    <article className="grid gap-8">
      <SharedStoryHeader title={story.title} isSample={isSample} />
      {images.length > 0 ? <StoryGallery images={images} /> : null}
      <StoryNarrative messages={story.messages} />
      <p className="rounded-lg border border-dashed bg-muted/60 px-4 py-3 text-sm text-muted-foreground">{SHARING_STRINGS.readOnlyNotice}</p>
      <StartYourStory />
    </article>
  );
}
