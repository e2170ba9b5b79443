// The feature's page, loaded lazily (React.lazy) in a chunk of its own, so a first load skips it.
import { lazy } from 'react';

export const PreferencesPage = lazy(() =>
  import('./components/preferences-page').then((m) => ({ default: m.PreferencesPage })),
);
