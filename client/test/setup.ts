// Vitest setup for client component tests (jsdom): DOM matchers, and a clean slate between tests
// (DOM, toast store, browser storage, stubbed fetch, timers) so no test leaks into the next.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetToasts } from '@client/components/ui/use-toast';

// findBy*/waitFor default to 1 s. The first render of a lazy route module transforms and imports
// it, which on a busy 2-core CI machine (four Vitest projects in parallel) took longer than that.
// Waiting longer never slows a passing test: the wait ends as soon as the assertion holds.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  resetToasts();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.documentElement.className = '';
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
