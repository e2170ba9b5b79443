// Every route of the spec's route list. Each page is its own lazily loaded chunk (React.lazy), so
// the first load carries only the shell plus the page being opened. Declarative routes (rather than
// a data router) keep react-router's share of the home route about 17 KB gzip smaller; data loading
// lives in TanStack Query, so route loaders would add nothing.
import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { RootLayout } from './layout/root-layout';

const HomePage = lazy(() =>
  import('@client/features/home/components/home-page').then((m) => ({ default: m.HomePage })),
);
const AuthPage = lazy(() =>
  import('@client/features/auth/components/auth-page').then((m) => ({ default: m.AuthPage })),
);
const StoryPage = lazy(() =>
  import('@client/features/story/components/story-page').then((m) => ({ default: m.StoryPage })),
);
const SharedStoryPage = lazy(() =>
  import('@client/features/sharing/components/shared-story-page').then((m) => ({ default: m.SharedStoryPage })),
);
const BookmarksPage = lazy(() =>
  import('@client/features/bookmarks/components/bookmarks-page').then((m) => ({ default: m.BookmarksPage })),
);
const LibraryPage = lazy(() =>
  import('@client/features/library/components/library-page').then((m) => ({ default: m.LibraryPage })),
);
const PreferencesPage = lazy(() =>
  import('@client/features/preferences/components/preferences-page').then((m) => ({ default: m.PreferencesPage })),
);
const AccountPage = lazy(() =>
  import('@client/features/account/components/account-page').then((m) => ({ default: m.AccountPage })),
);
const AdminPage = lazy(() =>
  import('@client/features/admin/components/admin-page').then((m) => ({ default: m.AdminPage })),
);
const PrivacyPage = lazy(() =>
  import('@client/features/legal/components/legal-page').then((m) => ({ default: m.PrivacyPage })),
);
const TermsPage = lazy(() =>
  import('@client/features/legal/components/legal-page').then((m) => ({ default: m.TermsPage })),
);
const SupportPage = lazy(() =>
  import('@client/features/ads/components/support-page').then((m) => ({ default: m.SupportPage })),
);
const TokensPage = lazy(() =>
  import('@client/features/tokens/components/tokens-page').then((m) => ({ default: m.TokensPage })),
);
const NotFoundPage = lazy(() => import('./pages/not-found-page').then((m) => ({ default: m.NotFoundPage })));

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        <Route path="auth" element={<AuthPage />} />
        <Route path="story" element={<StoryPage />} />
        <Route path="story/new" element={<StoryPage isNew />} />
        <Route path="story/:storyId" element={<StoryPage />} />
        <Route path="shared/:shareId" element={<SharedStoryPage />} />
        <Route path="stories" element={<LibraryPage />} />
        <Route path="bookmarks" element={<BookmarksPage />} />
        <Route path="preferences" element={<PreferencesPage />} />
        <Route path="account" element={<AccountPage />} />
        <Route path="admin" element={<AdminPage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        <Route path="terms" element={<TermsPage />} />
        <Route path="support" element={<SupportPage />} />
        <Route path="tokens" element={<TokensPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
