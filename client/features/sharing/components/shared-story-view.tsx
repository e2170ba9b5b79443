// The read-only shared story: header with 'Create Your Own', the title and its badge,
// 'Story Gallery' when there are scenes ('Scene 1'..'Scene n', thumbnails, click to zoom), 'Story
// Narrative' ('You' / 'Story' / 'Scene Visualization' pictures under the narrator's turns), the
// read-only notice and 'Start Your Story'. Pictures sit in fixed 16:9 boxes and load lazily, so the
// text never moves under the reader. Story text is rendered as text, never as HTML.
import { Link } from 'react-router';
import { ArrowLeft, BookOpen, Sparkles } from 'lucide-react';
import type { SharedMessage, SharedStory } from '@shared/schemas/sharing';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { cn } from '@client/lib/utils';
import { ZoomableImage } from '@client/features/images';
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

/** A plain picture (the lightweight page): thumbnail first, the full one for wide or dense screens. */
export function SceneImage({
  src,
  thumbnail,
  label,
  className,
}: {
  src: string;
  thumbnail?: string;
  label: string;
  className?: string;
}) {
  return (
    <img
      src={thumbnail ?? src}
      srcSet={thumbnail && thumbnail !== src ? `${thumbnail} 320w, ${src} 1024w` : undefined}
      sizes={thumbnail && thumbnail !== src ? '(min-width: 768px) 48rem, 100vw' : undefined}
      alt={label}
      loading="lazy"
      decoding="async"
      className={cn('aspect-video w-full rounded-lg border bg-muted object-cover', className)}
    />
  );
}

/** A scene's alt text: its label, and what it shows when the story says. */
export function sceneAlt(label: string, message: SharedMessage): string {
  return message.imageAlt ? `${label}: ${message.imageAlt}` : label;
}

type Scene = SharedMessage & { image: string };

function StoryGallery({ scenes }: { scenes: Scene[] }) {
  return (
    <section aria-labelledby="shared-gallery" className="grid gap-3">
      <h2 id="shared-gallery" className="font-serif text-2xl font-semibold">
        {SHARING_STRINGS.gallery}
      </h2>
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {scenes.map((scene, index) => {
          const label = SHARING_STRINGS.sceneLabel(index + 1);
          return (
            <li key={index}>
              <figure className="grid gap-1">
                <ZoomableImage
                  src={scene.image}
                  thumbnail={scene.thumbnail}
                  alt={sceneAlt(label, scene)}
                  sizes="(min-width: 640px) 22rem, 100vw"
                  canRetry={false}
                  className="rounded-lg"
                />
                <figcaption className="text-sm text-muted-foreground">{label}</figcaption>
              </figure>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function NarrativeEntry({ role, content }: { role: 'user' | 'assistant'; content: string }) {
  const isUser = role === 'user';
  return (
    <li
      className={cn(
        'grid gap-1 rounded-xl border px-4 py-3',
        isUser ? 'ml-6 bg-primary/10 sm:ml-16' : 'mr-6 bg-card/80 sm:mr-16',
      )}
    >
      <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        {isUser ? SHARING_STRINGS.you : SHARING_STRINGS.story}
      </p>
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
                <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                  {SHARING_STRINGS.sceneVisualization}
                </p>
                <ZoomableImage
                  src={message.image}
                  thumbnail={message.thumbnail}
                  alt={sceneAlt(`${SHARING_STRINGS.sceneVisualization}: ${SHARING_STRINGS.sceneLabel(scene)}`, message)}
                  sizes="(min-width: 768px) 42rem, 100vw"
                  canRetry={false}
                  className="rounded-lg"
                />
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
  const scenes = story.messages.filter((m): m is Scene => Boolean(m.image));
  return (
    <article className="grid gap-8">
      <SharedStoryHeader title={story.title} isSample={isSample} />
      {scenes.length > 0 ? <StoryGallery scenes={scenes} /> : null}
      <StoryNarrative messages={story.messages} />
      <p className="rounded-lg border border-dashed bg-muted/60 px-4 py-3 text-sm text-muted-foreground">
        {SHARING_STRINGS.readOnlyNotice}
      </p>
      <StartYourStory />
    </article>
  );
}
