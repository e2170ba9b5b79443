// What the story page hands its chat: the messages ads follow and the ad itself. One call keeps the
// page composing the ads feature without owning any of it.
import { createElement, useMemo, type ReactNode } from 'react';
import { AdBlock } from '../components/ad-block';
import { useAds } from './use-ads';
import { useChatAds, type ChatAdsInput } from './use-chat-ads';

export function useChatAdSlot(story: Omit<ChatAdsInput, 'enabled'>): { adAfter: ReadonlySet<string>; ad: ReactNode } {
  const ads = useAds();
  const adAfter = useChatAds({ ...story, enabled: ads.enabled });
  const ad = useMemo(() => createElement(AdBlock, { href: ads.href }), [ads.href]);
  return { adAfter, ad };
}
