// The home feature's door: the start screen ('/'), loaded lazily.
export { HomePage } from './lazy-page';
