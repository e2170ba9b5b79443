// The feature's page, loaded lazily (React.lazy) in a chunk of its own, so a first load skips it.
import { lazy } from 'react';

export const LibraryPage = lazy(() => import('./components/library-page').then((m) => ({ default: m.LibraryPage })));
