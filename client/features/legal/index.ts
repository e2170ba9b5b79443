// The legal feature's door: the privacy and terms pages, loaded lazily (one chunk).
export { PrivacyPage, TermsPage } from './lazy-page';
