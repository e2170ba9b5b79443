// Messenger's in-app browser gets three alternate share addresses (/fb-redirect.html, /fb-viewer.html,
// /fb-shared.html); they are one page, client/messenger-share.html, written under each name into the
// build output (so the precompression plugin gives each its .br/.gz siblings, as for any text file)
// and answered under each name by the dev server.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { MESSENGER_PAGES } from '../../client/lib/messenger-pages.ts';

export function messengerPages(templatePath: string): Plugin {
  const page = () => readFileSync(templatePath);
  return {
    name: 'taleweaver:messenger-pages',
    generateBundle() {
      const source = page();
      for (const path of MESSENGER_PAGES) this.emitFile({ type: 'asset', fileName: path.slice(1), source });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0];
        if (!MESSENGER_PAGES.some((page) => page === path)) return next();
        res.setHeader('Content-Type', 'text/html');
        res.end(page());
      });
    },
  };
}
