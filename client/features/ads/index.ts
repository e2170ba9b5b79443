// The ads feature's door: the support page, ad slots between turns and the drawer's ad settings.
export { AdSettingsSection } from './components/ad-settings-section';
export { LoadingAd } from './components/loading-ad';
export { useAds } from './hooks/use-ads';
export { useChatAdSlot } from './hooks/use-chat-ad-slot';
export { SupportPage } from './lazy-page';
