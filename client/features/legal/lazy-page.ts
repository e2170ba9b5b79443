// The privacy and terms pages, loaded lazily (React.lazy) in one chunk of their own.
import { lazy } from 'react';

export const PrivacyPage = lazy(() => import('./components/legal-page').then((m) => ({ default: m.PrivacyPage })));

export const TermsPage = lazy(() => import('./components/legal-page').then((m) => ({ default: m.TermsPage })));
