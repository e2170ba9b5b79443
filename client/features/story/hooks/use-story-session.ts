// What the story routes do on arrival: /story/new starts the requested
// story; /story shows the current one or restores the saved one (else goes home); /story/:id loads
// it, or runs the bookmark recovery when ?messageId= is present; a pending continuation is sent
// 500 ms after its story is on screen. Also the handlers for send, retry and 'Try again', which
// turn failures into toasts, a restored input, or a trip to log in that keeps the action.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CONTINUATION_DELAY_MS, HIGHLIGHT_MS, RECOVERY_START_DELAY_MS, STORY_PRESETS } from '@shared/constants';
import { composeRandomPrompt, composeStoryPrompt } from '@shared/prompt';
import type { User } from '@shared/schemas/user';
import { toast } from '@client/components/ui/use-toast';
import {
  clearPendingContinuation,
  readPendingContinuation,
  savePendingContinuation,
  savePendingOperation,
  type PendingOperation,
} from '@client/lib/pending-actions';
import { clearSessionUser } from '@client/features/auth';
import type { ChatInputHandle } from '../components/chat-input-bar';
import { loadSavedStory } from '../state/persistence';
import { storyController, type TurnOutcome } from '../state/story-controller';
import { useStoryState } from '../state/story-store';
import { STORY_STRINGS } from '../strings';

type StartRequest = PendingOperation['data'];

const ID_PATTERN = /^\d{1,15}$/;
/** Router entries already acted on, so React's double effects or a re-render never start twice. */
const handledStarts = new Set<string>();
const warnedBookmarks = new Set<string>();

function isStartRequest(value: unknown): value is StartRequest {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.prompt === 'string' &&
    record.prompt.trim() !== '' &&
    typeof record.isRandom === 'boolean' &&
    typeof record.genrePreferences === 'object'
  );
}

/** The story asked for: router state from Home, else the scenario/type/preset query of /story/new. */
export function startRequestFrom(state: unknown, search: URLSearchParams): StartRequest | null {
  const fromState = (state as { start?: unknown } | null)?.start;
  if (isStartRequest(fromState)) return fromState;
  if (search.get('type') === 'random')
    return { prompt: composeRandomPrompt(null), genrePreferences: {}, isRandom: true };
  const preset = STORY_PRESETS.find((p) => p.id === search.get('preset') || p.label === search.get('preset'));
  if (preset) return { prompt: composeStoryPrompt(preset.scenario, null), genrePreferences: {}, isRandom: false };
  const scenario = search.get('scenario')?.trim();
  return scenario ? { prompt: composeStoryPrompt(scenario, null), genrePreferences: {}, isRandom: false } : null;
}

function errorToast(description: string) {
  toast({ title: STORY_STRINGS.errorTitle, description, variant: 'destructive' });
}

export function useStorySession(user: User, isNew: boolean) {
  const controller = storyController;
  const state = useStoryState(controller.store);
  const params = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const inputRef = useRef<ChatInputHandle>(null);
  const [focusMessageId, setFocusMessageId] = useState<number | null>(null);

  const idParam = params.storyId ?? null;
  const routeStoryId = idParam !== null && ID_PATTERN.test(idParam) ? Number(idParam) : null;
  const messageParam = search.get('messageId');
  const bookmarkMessageId = messageParam !== null && ID_PATTERN.test(messageParam) ? Number(messageParam) : null;
  const mode = isNew ? 'new' : idParam === null ? 'current' : 'story';

  const endSession = useCallback(() => clearSessionUser(queryClient), [queryClient]);

  // Someone else's story never stays on screen after a change of user.
  useEffect(() => {
    const owner = controller.store.getState().ownerId;
    if (owner !== null && owner !== user.id) controller.reset(user.id);
  }, [controller, user.id]);

  // /story/new: start once, then show it at /story until the server names it (its first event).
  useEffect(() => {
    if (mode !== 'new' || handledStarts.has(location.key)) return;
    handledStarts.add(location.key);
    const request = startRequestFrom(location.state, search);
    if (!request) {
      navigate('/', { replace: true });
      return;
    }
    navigate('/story', { replace: true });
    void controller.start(user.id, request.prompt).then((outcome) => {
      if (outcome.ok || outcome.aborted) return;
      if (outcome.unauthorized) {
        savePendingOperation({ type: 'start_story', data: request, path: '/' });
        endSession();
        return;
      }
      errorToast(outcome.message);
    });
  }, [mode, location.key, location.state, search, navigate, controller, user.id, endSession]);

  // /story: the story on screen (by its address as soon as the server names it, even while its
  // opening is still being written), else the saved one, else home.
  useEffect(() => {
    if (mode !== 'current') return;
    const current = controller.store.getState();
    if (current.ownerId === user.id && current.storyId !== null) {
      navigate(`/story/${current.storyId}`, { replace: true });
      return;
    }
    if (current.ownerId === user.id && (current.isGenerating || current.messages.length > 0)) return;
    const saved = loadSavedStory();
    if (saved && saved.storyId !== null && (saved.ownerId === null || saved.ownerId === user.id)) {
      controller.restore(user.id, saved);
      navigate(`/story/${saved.storyId}`, { replace: true });
      return;
    }
    navigate('/', { replace: true });
  }, [mode, state.storyId, state.isGenerating, navigate, controller, user.id]);

  // /story/:id: load it, or recover it at the bookmarked message.
  useEffect(() => {
    if (mode !== 'story' || routeStoryId === null) return;
    if (messageParam !== null && bookmarkMessageId === null && !warnedBookmarks.has(location.key)) {
      warnedBookmarks.add(location.key);
      errorToast(STORY_STRINGS.invalidBookmark);
    }
    if (bookmarkMessageId !== null) {
      const timer = setTimeout(() => {
        void controller.recover(user.id, routeStoryId, bookmarkMessageId).then((outcome) => {
          if (!outcome) return;
          if (outcome.ok) {
            setFocusMessageId(bookmarkMessageId);
            setTimeout(
              () => setFocusMessageId((current) => (current === bookmarkMessageId ? null : current)),
              HIGHLIGHT_MS,
            );
          } else if (outcome.aborted) return;
          else if (outcome.unauthorized) endSession();
          else
            toast({
              title: STORY_STRINGS.recoveryErrorToastTitle,
              description: outcome.message,
              variant: 'destructive',
            });
        });
      }, RECOVERY_START_DELAY_MS);
      return () => clearTimeout(timer);
    }
    const current = controller.store.getState();
    const same = current.storyId === routeStoryId && current.ownerId === user.id;
    if (same && (current.isGenerating || current.isLoadingStory || controller.isFresh(routeStoryId))) return;
    void controller.load(user.id, routeStoryId).then((outcome) => {
      if (outcome.ok || outcome.aborted) return;
      if (outcome.unauthorized) endSession();
      else errorToast(outcome.message);
    });
  }, [mode, routeStoryId, bookmarkMessageId, messageParam, location.key, controller, user.id, endSession]);

  const handleOutcome = useCallback(
    (outcome: TurnOutcome | null, text: string | null) => {
      if (!outcome || outcome.ok || outcome.aborted) return;
      const storyId = controller.store.getState().storyId;
      if (outcome.unauthorized && text !== null && storyId !== null) {
        // The session ended: keep the action, log in, and it is sent on return.
        savePendingContinuation({ type: 'continue_story', storyId, message: text, path: `/story/${storyId}` });
        errorToast(STORY_STRINGS.sessionExpired);
        endSession();
        return;
      }
      if (outcome.unauthorized) endSession();
      errorToast(outcome.message);
      if (outcome.restoreInput) inputRef.current?.restore(outcome.restoreInput);
    },
    [controller, endSession],
  );

  const handleSend = useCallback(
    (text: string) => void controller.send(text).then((outcome) => handleOutcome(outcome, text)),
    [controller, handleOutcome],
  );
  const handleRetry = useCallback(
    () => void controller.retry().then((outcome) => handleOutcome(outcome, null)),
    [controller, handleOutcome],
  );
  const handleRegenerate = useCallback(
    (id: string) => void controller.regenerate(id).then((outcome) => handleOutcome(outcome, null)),
    [controller, handleOutcome],
  );

  // A turn typed before logging in goes out once its story is on screen.
  const ready =
    mode === 'story' &&
    routeStoryId !== null &&
    state.storyId === routeStoryId &&
    !state.isLoadingStory &&
    !state.isGenerating;
  useEffect(() => {
    if (!ready) return;
    const continuation = readPendingContinuation();
    if (!continuation || continuation.storyId !== routeStoryId) return;
    const timer = setTimeout(() => {
      clearPendingContinuation();
      toast({ title: STORY_STRINGS.continuingTitle, description: STORY_STRINGS.continuingText });
      handleSend(continuation.message);
    }, CONTINUATION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [ready, routeStoryId, handleSend]);

  return {
    state,
    mode,
    idParam,
    routeStoryId,
    messageParam,
    bookmarkMessageId,
    focusMessageId,
    inputRef,
    handleSend,
    handleRetry,
    handleRegenerate,
  };
}
