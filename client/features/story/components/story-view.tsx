// The story itself: the 'Branches' and 'Story Experience' buttons, a notice while its narrator is
// gone, the header picture, the chat
// with its scene pictures and each message's menu and versions, the 'Narrator is thinking...'
// indicator, the error alert with Retry (and another narrator to switch to when one failed), and the bottom bar with Undo and Redo, Story Memory and Story
// Cards. It composes other features' pieces (bookmarks, sharing, images, narration, ads, story
// versions, story memory and cards) without owning them; a reply's 'What the narrator saw' opens the
// page's one context dialog.
// The input is focused about 100 ms after a reply arrives, unless the player has
// acted meanwhile.
import { useEffect, useMemo, useRef, useState } from 'react';
import { RotateCcw } from 'lucide-react';
import { FOCUS_DELAY_MS } from '@shared/constants';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { SaveProgressButton } from '@client/features/bookmarks';
import { ShareStoryButton } from '@client/features/sharing';
import { StoryMemoryButton } from '@client/features/story-memory';
import { NarratorContextDialog, StoryCardsButton, useNarratorContextViewer } from '@client/features/story-cards';
import { SceneImageOptions, StoryHeaderImage } from '@client/features/images';
import { AdSettingsSection, useAds, useChatAdSlot } from '@client/features/ads';
import { NarratorVoiceSection, useNarration } from '@client/features/narration';
import {
  BranchesButton,
  StoryVersionsDialogs,
  UndoRedoButtons,
  type StoryVersionsControls,
} from '@client/features/story-versions';
import type { StoryPictures } from '../hooks/use-story-pictures';
import { lastServerMessageId, type StoryState } from '../state/story-state';
import { STORY_STRINGS } from '../strings';
import { toChatDisplayMessages } from '../utils/chat-display';
import { ChatInputBar, INPUT_BAR_HEIGHT, type ChatInputHandle } from './chat-input-bar';
import { ChatView } from './chat-view';
import { StoryWritingSection } from './story-writing-section';
import { SwitchNarrator } from './switch-narrator';
import { NarratorGoneNotice } from './narrator-gone-notice';
import { StoryExperienceDrawer } from './story-experience-drawer';

export interface StoryViewProps {
  state: StoryState;
  focusMessageId: number | null;
  expectFocus: boolean;
  onSend: (text: string) => void;
  onRetry: () => void;
  onRegenerate: (id: string) => void;
  inputRef: React.RefObject<ChatInputHandle | null>;
  pictures: StoryPictures;
  /** Undo, redo, and what each message's menu and version arrows do. */
  versions: StoryVersionsControls;
}

export function StoryView({
  state,
  focusMessageId,
  expectFocus,
  onSend,
  onRetry,
  onRegenerate,
  inputRef,
  pictures,
  versions,
}: StoryViewProps) {
  const [baseTime] = useState(() => Date.now());
  const { settings } = pictures;
  const display = useMemo(
    () => toChatDisplayMessages(state.messages, baseTime, { pictureProgress: settings.available }),
    [state.messages, baseTime, settings.available],
  );
  const lastMessage = state.messages[state.messages.length - 1];
  const regenerableId =
    !state.isGenerating && lastMessage?.role === 'assistant' && lastMessage.messageId !== undefined
      ? lastMessage.id
      : null;
  const thinking = state.isGenerating && state.streamingId === null;
  const bookmarkId = lastServerMessageId(state.messages);
  // Reads new narrator replies aloud while narration is on; stops when the story leaves the screen.
  useNarration(state);
  // Ads between turns (never inside a reply being written), per the player's ad settings.
  const ads = useAds();
  const chatAds = useChatAdSlot({ messages: state.messages, isGenerating: state.isGenerating, storyId: state.storyId });
  const narratorContext = useNarratorContextViewer();

  const wasGenerating = useRef(state.isGenerating);
  useEffect(() => {
    const ended = wasGenerating.current && !state.isGenerating;
    wasGenerating.current = state.isGenerating;
    if (!ended) return;
    // The player may act during the delay (open a message's menu, say): a click or a key since the
    // reply ended, or focus moved elsewhere, keeps the input from taking focus away (a menu would close).
    const focusAtEnd = document.activeElement;
    let acted = false;
    const onAct = () => {
      acted = true;
    };
    const stopWatching = () => {
      document.removeEventListener('pointerdown', onAct, true);
      document.removeEventListener('keydown', onAct, true);
    };
    document.addEventListener('pointerdown', onAct, true);
    document.addEventListener('keydown', onAct, true);
    const timer = setTimeout(() => {
      stopWatching();
      const active = document.activeElement;
      if (!acted && (active === focusAtEnd || active === document.body)) inputRef.current?.focus();
    }, FOCUS_DELAY_MS);
    return () => {
      clearTimeout(timer);
      stopWatching();
    };
  }, [state.isGenerating, inputRef]);

  return (
    <div className="mx-auto w-full max-w-3xl px-3 pt-6" style={{ paddingBottom: INPUT_BAR_HEIGHT + 24 }}>
      <h1 className="sr-only">
        {state.storyId ? STORY_STRINGS.storyTitle(state.storyId) : STORY_STRINGS.currentStoryTitle}
      </h1>
      <div className="mb-3 flex justify-end gap-2">
        <BranchesButton storyId={state.storyId} />
        <StoryExperienceDrawer
          narration={<NarratorVoiceSection />}
          writing={<StoryWritingSection key={state.storyId ?? 'new'} storyId={state.storyId} />}
          images={settings.available ? <SceneImageOptions settings={settings} storyId={state.storyId} /> : null}
          ads={ads.enabled ? <AdSettingsSection /> : null}
        />
      </div>
      <NarratorGoneNotice storyId={state.storyId} />
      {settings.active ? (
        <div className="mb-4">
          <StoryHeaderImage picture={pictures.header} />
        </div>
      ) : null}
      <ChatView
        messages={display}
        streamingId={state.streamingId}
        regenerableId={regenerableId}
        onRegenerate={onRegenerate}
        focusMessageId={focusMessageId}
        expectFocus={expectFocus}
        bottomInset={INPUT_BAR_HEIGHT}
        pictures={pictures.actions}
        adAfter={chatAds.adAfter}
        ad={chatAds.ad}
        versions={versions.chat}
        onShowContext={narratorContext.show}
      />
      <div aria-live="polite" className="grid gap-3 pt-2">
        {thinking ? (
          <div className="flex items-center gap-2 text-muted-foreground">
            <Spinner label={STORY_STRINGS.thinking} />
            <span className="font-serif italic" aria-hidden="true">
              {STORY_STRINGS.thinking}
            </span>
          </div>
        ) : null}
        {state.error && state.errorKind === 'turn' ? (
          <Alert variant="destructive">
            <AlertTitle>{STORY_STRINGS.errorAlertTitle}</AlertTitle>
            <AlertDescription className="grid gap-3">
              <p>{state.error}</p>
              {state.retry ? (
                <Button variant="outline" size="sm" className="justify-self-start" onClick={onRetry}>
                  <RotateCcw aria-hidden="true" />
                  {STORY_STRINGS.retry}
                </Button>
              ) : null}
              {state.retry && state.failedNarrator && state.storyId !== null ? (
                <SwitchNarrator storyId={state.storyId} failed={state.failedNarrator} onRetry={onRetry} />
              ) : null}
            </AlertDescription>
          </Alert>
        ) : null}
      </div>
      <ChatInputBar
        ref={inputRef}
        storyId={state.storyId}
        isGenerating={state.isGenerating}
        onSend={onSend}
        tools={
          <UndoRedoButtons
            canUndo={versions.canUndo}
            canRedo={versions.canRedo}
            onUndo={versions.undo}
            onRedo={versions.redo}
          />
        }
        actions={
          // Two columns: four buttons stacked would be taller than the bar.
          <div className="grid grid-cols-2 gap-2">
            <SaveProgressButton
              storyId={state.storyId}
              lastMessageId={bookmarkId}
              disabled={state.storyId === null || bookmarkId === null}
            />
            <ShareStoryButton storyId={state.storyId} disabled={state.isGenerating || bookmarkId === null} />
            <StoryMemoryButton storyId={state.storyId} disabled={state.isGenerating} />
            <StoryCardsButton storyId={state.storyId} disabled={state.isGenerating} />
          </div>
        }
      />
      <StoryVersionsDialogs storyId={state.storyId} versions={versions} />
      <NarratorContextDialog storyId={state.storyId} {...narratorContext.dialog} />
    </div>
  );
}
