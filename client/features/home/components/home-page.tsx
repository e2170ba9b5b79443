// '/': the start screen. A scenario of one's own, a random story or a preset, each
// optionally steered by the genre mix; and the bookmarks to resume. Starting hands over to the
// story page; the resume list (which needs the bookmark schemas) loads in its own chunk.
import { Suspense, useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { BookMarked, Dices, Sparkles } from 'lucide-react';
import { START_SCREEN_GENRE_MIX, STORY_PRESETS } from '@shared/constants';
import { composeRandomPrompt, composeStoryPrompt } from '@shared/prompt';
import { Logo } from '@client/components/logo';
import { PageContainer } from '@client/components/page';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { toast } from '@client/components/ui/use-toast';
import { usePageTitle } from '@client/lib/use-page-title';
import { useSession } from '@client/features/auth';
import { BOOKMARKS_STRINGS, ResumeStories } from '@client/features/bookmarks';
import { preloadStoryPage } from '@client/features/story';
import { useStartStory } from '../hooks/use-start-story';
import { HOME_STRINGS } from '../strings';
import { GenreMixCard, type GenreMixValues } from './genre-mix-card';

function handleLogoError() {
  toast({ title: HOME_STRINGS.logoWarningTitle, description: HOME_STRINGS.logoWarningText });
}

/** The story page is the next stop after Home: fetch its code while the player is still choosing. */
function usePrefetchStoryPage(enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(preloadStoryPage, 1500);
    return () => clearTimeout(timer);
  }, [enabled]);
}

export function HomePage() {
  usePageTitle();
  const { isLoggedIn, isLoading } = useSession();
  const startStory = useStartStory();
  const [scenario, setScenario] = useState('');
  const [mixActive, setMixActive] = useState(false);
  const [mix, setMix] = useState<GenreMixValues>(START_SCREEN_GENRE_MIX);
  const scenarioId = useId();
  usePrefetchStoryPage(isLoggedIn);

  const activeMix = mixActive ? mix : null;
  const genrePreferences = activeMix ?? {};

  const handleBegin = (event: FormEvent) => {
    event.preventDefault();
    if (scenario.trim() === '') return;
    startStory({ prompt: composeStoryPrompt(scenario, activeMix), genrePreferences, isRandom: false });
  };

  return (
    <PageContainer width="wide" className="grid gap-10">
      <header className="flex flex-col items-center gap-4 pt-2 text-center">
        <Logo size={112} onLoadError={handleLogoError} className="drop-shadow-[0_8px_24px_rgba(224,180,90,0.25)]" />
        <h1 className="text-5xl font-semibold tracking-tight sm:text-6xl">{HOME_STRINGS.productName}</h1>
        <p className="font-serif text-xl text-gold italic sm:text-2xl">{HOME_STRINGS.tagline}</p>
        <p className="max-w-xl text-balance text-muted-foreground">{HOME_STRINGS.intro}</p>
      </header>

      <section aria-labelledby={`${scenarioId}-title`} className="mx-auto grid w-full max-w-3xl gap-4">
        <h2 id={`${scenarioId}-title`} className="text-2xl font-semibold">
          {HOME_STRINGS.createTitle}
        </h2>
        <form onSubmit={handleBegin} className="flex flex-col gap-3 sm:flex-row">
          <label htmlFor={scenarioId} className="sr-only">
            {HOME_STRINGS.scenarioLabel}
          </label>
          <Input
            id={scenarioId}
            value={scenario}
            onChange={(event) => setScenario(event.target.value)}
            placeholder={HOME_STRINGS.scenarioPlaceholder}
            className="h-12 text-base"
            autoComplete="off"
          />
          <Button type="submit" size="lg" className="h-12" disabled={scenario.trim() === ''}>
            <Sparkles aria-hidden="true" />
            {HOME_STRINGS.begin}
          </Button>
        </form>

        <div className="my-2 flex items-center gap-4" role="separator" aria-label={HOME_STRINGS.randomDivider}>
          <span className="h-px flex-1 bg-gradient-to-r from-transparent to-border" aria-hidden="true" />
          <span className="text-xs font-semibold tracking-[0.2em] text-muted-foreground" aria-hidden="true">
            {HOME_STRINGS.randomDivider}
          </span>
          <span className="h-px flex-1 bg-gradient-to-l from-transparent to-border" aria-hidden="true" />
        </div>
        <Button
          variant="secondary"
          size="lg"
          className="justify-self-center"
          onClick={() => startStory({ prompt: composeRandomPrompt(activeMix), genrePreferences, isRandom: true })}
        >
          <Dices aria-hidden="true" />
          {HOME_STRINGS.createRandom}
        </Button>

        <GenreMixCard active={mixActive} onActiveChange={setMixActive} mix={mix} onMixChange={setMix} />
      </section>

      <section aria-labelledby={`${scenarioId}-presets`} className="mx-auto grid w-full max-w-3xl gap-4">
        <h2 id={`${scenarioId}-presets`} className="text-2xl font-semibold">
          {HOME_STRINGS.presetsTitle}
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2">
          {STORY_PRESETS.map((preset) => (
            <li key={preset.id}>
              <Card className="h-full p-0">
                <button
                  type="button"
                  onClick={() =>
                    startStory({
                      prompt: composeStoryPrompt(preset.scenario, activeMix),
                      genrePreferences,
                      isRandom: false,
                    })
                  }
                  className="grid h-full w-full gap-1 rounded-xl p-4 text-left transition-colors outline-none hover:bg-accent/40 focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <span className="font-semibold text-gold">{preset.label}</span>
                  <span className="line-clamp-3 text-sm text-muted-foreground">{preset.scenario}</span>
                </button>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby={`${scenarioId}-resume`} className="mx-auto grid w-full max-w-3xl gap-4">
        <h2 id={`${scenarioId}-resume`} className="text-2xl font-semibold">
          {BOOKMARKS_STRINGS.resumeTitle}
        </h2>
        {isLoading ? (
          <Spinner label={BOOKMARKS_STRINGS.loading} />
        ) : isLoggedIn ? (
          <Suspense fallback={<Spinner label={BOOKMARKS_STRINGS.loading} />}>
            <ResumeStories />
          </Suspense>
        ) : (
          <p className="text-muted-foreground">{BOOKMARKS_STRINGS.resumeEmpty}</p>
        )}
        <Button asChild variant="outline" className="justify-self-start">
          <Link to="/bookmarks">
            <BookMarked aria-hidden="true" />
            {BOOKMARKS_STRINGS.manageBookmarks}
          </Link>
        </Button>
      </section>
    </PageContainer>
  );
}
