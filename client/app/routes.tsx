// Every route of the spec's route list. Each page is its own lazily loaded chunk (React.lazy, made
// by its feature's door), so the first load carries only the shell plus the page being opened.
// Declarative routes (rather than a data router) keep react-router's share of the home route about 17 KB gzip smaller; data loading
// lives in TanStack Query, so route loaders would add nothing.
import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { AccountPage } from '@client/features/account';
import { AdminPage } from '@client/features/admin';
import { SupportPage } from '@client/features/ads';
import { AuthPage } from '@client/features/auth';
import { BookmarksPage } from '@client/features/bookmarks';
import { HomePage } from '@client/features/home';
import { PrivacyPage, TermsPage } from '@client/features/legal';
import { LibraryPage } from '@client/features/library';
import { PreferencesPage } from '@client/features/preferences';
import { SharedStoryPage } from '@client/features/sharing';
import { StoryPage } from '@client/features/story';
import { AllowancePage } from '@client/features/allowance';
import { RootLayout } from './layout/root-layout';

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
        <Route path="tokens" element={<AllowancePage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
