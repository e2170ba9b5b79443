// The ad block of the 'Creating Your Story' loading screen, shown when the server
// has ads and the player keeps 'Show ads while a story is created' on.
import { useAds } from '../hooks/use-ads';
import { useAdSettings } from '../state/ad-settings';
import { AdBlock } from './ad-block';

export function LoadingAd() {
  const ads = useAds();
  const { showOnLoading } = useAdSettings();
  if (!ads.enabled || !showOnLoading) return null;
  return <AdBlock href={ads.href} />;
}
