// Vite builds the React SPA from client/ into dist/client, which the Fastify server serves; each
// text file over 1 KB also gets .br and .gz siblings (scripts/build/vite-precompress.ts) that it sends as is.
// Imports through a feature's door resolve to the module behind it (scripts/build/vite-feature-doors.ts),
// and the one Messenger share page is written under its three names (scripts/build/vite-messenger-pages.ts).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { featureDoors } from './scripts/build/vite-feature-doors.ts';
import { messengerPages } from './scripts/build/vite-messenger-pages.ts';
import { precompress } from './scripts/build/vite-precompress.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('./client'),
  publicDir: here('./client/public'),
  plugins: [
    featureDoors(here('./client/features')),
    react(),
    tailwindcss(),
    messengerPages(here('./client/messenger-share.html')),
    precompress(),
  ],
  resolve: {
    alias: {
      '@client': here('./client'),
      '@shared': here('./shared'),
    },
  },
  build: {
    outDir: here('./dist/client'),
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/healthz': 'http://127.0.0.1:3000' },
  },
});
