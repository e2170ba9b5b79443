// 'Advertisement Settings' in the story page's 'Story Experience' drawer:
// ads while a story is created, ads in the chat, and their frequency (1-10, step 1), disabled while
// in-chat ads are off. Saved on this device as they change. Absent when the server shows no ads.
import { useId } from 'react';
import { AD_MESSAGE_FREQUENCY_MAX, AD_MESSAGE_FREQUENCY_MIN } from '@shared/constants';
import { Label } from '@client/components/ui/label';
import { SliderField } from '@client/components/ui/slider-field';
import { Switch } from '@client/components/ui/switch';
import { useAds } from '../hooks/use-ads';
import { adSettingsStore, useAdSettings } from '../state/ad-settings';
import { ADS_STRINGS } from '../strings';

export function AdSettingsSection() {
  const ads = useAds();
  const settings = useAdSettings();
  const headingId = useId();
  const loadingId = useId();
  const chatId = useId();
  if (!ads.enabled) return null;
  const frequencyDisabled = !settings.showInChat;
  return (
    <section aria-labelledby={headingId} className="grid gap-3">
      <h3 id={headingId} className="font-serif text-lg font-semibold">
        {ADS_STRINGS.settingsSection}
      </h3>
      <p className="text-sm text-muted-foreground">{ADS_STRINGS.settingsHelp}</p>
      <div className="flex items-center justify-between gap-4">
        <Label htmlFor={loadingId}>{ADS_STRINGS.showOnLoading}</Label>
        <Switch
          id={loadingId}
          checked={settings.showOnLoading}
          onCheckedChange={(checked) => adSettingsStore.update({ showOnLoading: checked })}
        />
      </div>
      <div className="flex items-center justify-between gap-4">
        <Label htmlFor={chatId}>{ADS_STRINGS.showInChat}</Label>
        <Switch
          id={chatId}
          checked={settings.showInChat}
          onCheckedChange={(checked) => adSettingsStore.update({ showInChat: checked })}
        />
      </div>
      <SliderField
        label={ADS_STRINGS.frequency}
        valueText={ADS_STRINGS.frequencyValue(settings.messageFrequency)}
        help={frequencyDisabled ? ADS_STRINGS.frequencyHelpOff : ADS_STRINGS.frequencyHelpOn}
        min={AD_MESSAGE_FREQUENCY_MIN}
        max={AD_MESSAGE_FREQUENCY_MAX}
        step={1}
        value={settings.messageFrequency}
        disabled={frequencyDisabled}
        onValueChange={(messageFrequency) => adSettingsStore.update({ messageFrequency })}
      />
    </section>
  );
}
