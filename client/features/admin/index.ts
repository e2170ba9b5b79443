// The admin feature's door: the dashboard (/admin), loaded lazily.
export { AdminPage } from './lazy-page';
