// The feature's page, loaded lazily (React.lazy) in a chunk of its own, so a first load skips it.
import { lazy } from 'react';

export const AuthPage = lazy(() => import('./components/auth-page').then((m) => ({ default: m.AuthPage })));
