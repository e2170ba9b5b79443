// The addresses of the alternate share page for Messenger's in-app browser: one page
// (client/messenger-share.html) answered at each, by the build and the dev server alike
// (scripts/build/vite-messenger-pages.ts); the share dialog offers all three.
export const MESSENGER_PAGES = ['/fb-redirect.html', '/fb-viewer.html', '/fb-shared.html'] as const;
