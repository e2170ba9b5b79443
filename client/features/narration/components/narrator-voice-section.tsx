// The 'Narrator Voice' section of the story page's 'Story Experience' drawer:
// the switch that turns narration on or off, the voice picker (the browser's voices, English first
// then by name, and the server's voices in a group of their own when it offers any), and the
// controls: Play reads the latest narrator reply; Pause/Resume is disabled unless playing or
// paused; Stop shows only while playing or paused. When a control the keyboard was on goes away
// (Stop, or Pause once reading ends), focus moves to Play rather than falling out of the drawer.
import { useEffect, useId, useLayoutEffect, useRef, type ChangeEvent } from 'react';
import { Pause, Play, Square } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Label } from '@client/components/ui/label';
import { Select } from '@client/components/ui/select';
import { Switch } from '@client/components/ui/switch';
import { useServerVoices } from '../hooks/use-narration';
import { canSpeak, selectedVoice, useNarrationState } from '../state/narration-store';
import { narrator as defaultNarrator, type Narrator } from '../state/narrator';
import { NARRATION_STRINGS } from '../strings';
import { voiceKey, type VoiceChoice } from '../utils/voices';

export interface NarratorVoiceSectionProps {
  /** The tab's narrator unless a test gives its own. */
  narrator?: Narrator;
}

export function NarratorVoiceSection({ narrator = defaultNarrator }: NarratorVoiceSectionProps) {
  const state = useNarrationState(narrator.store);
  useServerVoices(narrator);
  useEffect(() => narrator.init(), [narrator]);
  const headingId = useId();
  const switchId = useId();
  const helpId = useId();
  const voiceId = useId();
  const playHelpId = useId();
  const playRef = useRef<HTMLButtonElement>(null);
  /** The control the keyboard is on, when it may disappear or be disabled. */
  const focused = useRef<'pause' | 'stop' | null>(null);

  const { status } = state;
  const paused = status === 'paused';
  const active = status !== 'idle';
  useLayoutEffect(() => {
    if (status !== 'idle' || focused.current === null) return;
    focused.current = null;
    playRef.current?.focus();
  }, [status]);

  const handleStop = () => {
    narrator.stop();
    // Stop leaves with the reading: the keyboard goes on from Play.
    focused.current = null;
    playRef.current?.focus();
  };

  const voice = selectedVoice(state);
  const browserVoices = state.browserSupported ? state.browserVoices : [];
  const { serverVoices } = state;
  const grouped = serverVoices.length > 0;

  const handleVoiceChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const key = event.target.value;
    const browser = browserVoices.find((v) => voiceKey({ name: v.name, source: 'browser' }) === key);
    const server = serverVoices.find((name) => voiceKey({ name, source: 'server' }) === key);
    const choice: VoiceChoice | null = browser
      ? { name: browser.name, lang: browser.lang, source: 'browser' }
      : server
        ? { name: server, lang: '', source: 'server' }
        : null;
    if (choice) narrator.selectVoice(choice);
  };

  const browserOptions = browserVoices.map((v) => (
    <option key={v.name} value={voiceKey({ name: v.name, source: 'browser' })}>
      {NARRATION_STRINGS.voiceOption(v.name, v.lang)}
    </option>
  ));
  const serverOptions = serverVoices.map((name) => (
    <option key={name} value={voiceKey({ name, source: 'server' })}>
      {name}
    </option>
  ));

  return (
    <section aria-labelledby={headingId} className="grid gap-3">
      <h3 id={headingId} className="font-serif text-lg font-semibold">
        {NARRATION_STRINGS.section}
      </h3>
      <div className="flex items-center justify-between gap-4">
        <Label htmlFor={switchId}>{NARRATION_STRINGS.enableToggle}</Label>
        <Switch
          id={switchId}
          checked={state.enabled}
          onCheckedChange={(checked) => narrator.setEnabled(checked)}
          aria-describedby={helpId}
        />
      </div>
      <p id={helpId} className="text-sm text-muted-foreground">
        {NARRATION_STRINGS.enableHelp}
      </p>
      {canSpeak(state) ? (
        <div className="grid gap-2">
          <Label htmlFor={voiceId}>{NARRATION_STRINGS.voiceLabel}</Label>
          <Select id={voiceId} value={voice ? voiceKey(voice) : ''} onChange={handleVoiceChange}>
            {voice === null ? <option value="">{NARRATION_STRINGS.defaultVoice}</option> : null}
            {grouped && browserOptions.length > 0 ? (
              <optgroup label={NARRATION_STRINGS.browserVoices}>{browserOptions}</optgroup>
            ) : null}
            {grouped ? null : browserOptions}
            {grouped ? <optgroup label={NARRATION_STRINGS.serverVoices}>{serverOptions}</optgroup> : null}
          </Select>
        </div>
      ) : null}
      <div role="group" aria-label={NARRATION_STRINGS.controls} className="flex flex-wrap items-center gap-2">
        <Button
          ref={playRef}
          variant="outline"
          onClick={() => narrator.play()}
          disabled={!state.hasReply}
          aria-describedby={playHelpId}
        >
          <Play aria-hidden="true" />
          {NARRATION_STRINGS.play}
        </Button>
        <Button
          variant="outline"
          onClick={() => (paused ? narrator.resume() : narrator.pause())}
          disabled={!active}
          onFocus={() => (focused.current = 'pause')}
          onBlur={() => (focused.current = null)}
        >
          {paused ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}
          {paused ? NARRATION_STRINGS.resume : NARRATION_STRINGS.pause}
        </Button>
        {active ? (
          <Button
            variant="outline"
            onClick={handleStop}
            onFocus={() => (focused.current = 'stop')}
            onBlur={() => (focused.current = null)}
          >
            <Square aria-hidden="true" />
            {NARRATION_STRINGS.stop}
          </Button>
        ) : null}
      </div>
      <p id={playHelpId} className="sr-only">
        {NARRATION_STRINGS.playHelp}
      </p>
    </section>
  );
}
