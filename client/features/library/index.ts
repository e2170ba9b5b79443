// The library feature's door: 'Your Stories' (/stories), loaded lazily.
export { LibraryPage } from './lazy-page';
