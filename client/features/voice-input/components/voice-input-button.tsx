// The microphone button of the story page's bottom bar: a toggle that starts and
// stops voice input, with a label and tooltip for each state, a pulsing recording dot (still under
// prefers-reduced-motion) and a polite live region saying what is happening. It stays usable while
// the narrator writes: the player may dictate the next action; sending is what waits.
import { LoaderCircle, Mic, Square } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import { useFeatures } from '@client/lib/features';
import { cn } from '@client/lib/utils';
import { useVoiceInput, type VoiceInputPhase } from '../hooks/use-voice-input';
import type { VoiceInputPorts } from '../ports/voice-input-ports';
import { VOICE_INPUT_STRINGS } from '../strings';

export interface VoiceInputButtonProps {
  /** Receives the recognised text (trimmed, never empty); it is the caller's to add to the draft. */
  onTranscript(text: string): void;
  /** Overrides what GET /api/features says about server transcription (tests). */
  transcription?: boolean;
  /** Fakes for tests; the real browser otherwise. */
  ports?: VoiceInputPorts;
  className?: string;
}

const LABELS: Record<VoiceInputPhase, string> = {
  idle: VOICE_INPUT_STRINGS.speak,
  starting: VOICE_INPUT_STRINGS.stop,
  recording: VOICE_INPUT_STRINGS.stop,
  processing: VOICE_INPUT_STRINGS.transcribing,
};

export function VoiceInputButton({ onTranscript, transcription, ports, className }: VoiceInputButtonProps) {
  const features = useFeatures();
  const serverTranscribes = transcription ?? features.data?.speech.transcription ?? false;
  const { phase, announcement, toggle } = useVoiceInput({ transcription: serverTranscribes, onTranscript, ports });
  const label = LABELS[phase];
  const listening = phase === 'starting' || phase === 'recording';
  const busy = phase === 'processing';

  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button
            variant={listening ? 'destructive' : 'outline'}
            size="icon"
            aria-label={label}
            aria-pressed={listening}
            // Not `disabled`: a disabled button drops keyboard focus mid-use. Clicks are ignored instead.
            aria-disabled={busy || undefined}
            aria-busy={busy || undefined}
            data-phase={phase}
            onClick={toggle}
            className={cn('relative', busy && 'cursor-progress opacity-70', className)}
          >
            {busy ? (
              <LoaderCircle className="animate-spin motion-reduce:animate-none" aria-hidden="true" />
            ) : listening ? (
              <Square className="fill-current" aria-hidden="true" />
            ) : (
              <Mic aria-hidden="true" />
            )}
            {phase === 'recording' ? (
              <span
                className="pointer-events-none absolute -top-1 -right-1 flex size-3"
                aria-hidden="true"
                data-testid="recording-indicator"
              >
                <span className="absolute inline-flex size-full animate-ping rounded-full bg-destructive opacity-75 motion-reduce:hidden" />
                <span className="relative inline-flex size-3 rounded-full border-2 border-background bg-destructive" />
              </span>
            ) : null}
          </Button>
        </TooltipTrigger>
        <TooltipContent>{label}</TooltipContent>
      </Tooltip>
      <span className="sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </span>
    </>
  );
}
