// Vitest setup for client component tests (jsdom): DOM matchers, and a clean slate between tests
// (DOM, toast store, browser storage, stubbed fetch, timers, and the tab's story and narrator, which
// live as long as the module graph: one per worker, file after file) so no test leaks into the next.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetToasts } from '@client/components/ui/use-toast';
import { narrator } from '@client/features/narration/testing/fakes';
import { storyController } from '@client/features/story/state/story-controller';

// findBy*/waitFor default to 1 s. The first render of a lazy route module transforms and imports
// it, which on a busy 2-core CI machine (four Vitest projects in parallel) took longer than that.
// Waiting longer never slows a passing test: the wait ends as soon as the assertion holds.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  storyController.reset(null);
  resetToasts();
  window.localStorage.clear();
  window.sessionStorage.clear();
  // After the storage: the narrator reads its saved settings again.
  narrator.startOver();
  document.documentElement.className = '';
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
