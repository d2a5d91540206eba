import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { ARTICLE_IMAGES_CACHE } from './app/src/data/device/image-caches';

const THEME_COLOR = '#1f6f6b';
const BACKGROUND_COLOR = '#faf9f7';

export default defineConfig({
  root: 'app',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  plugins: [
    react(),
    VitePWA({
      registerType: 'prompt',
      includeAssets: ['icons/favicon.svg', 'icons/favicon-32.png', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'Lectern',
        short_name: 'Lectern',
        description:
          'Save articles by link or screenshot, read them offline, highlight and share reading lists.',
        id: '/',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: THEME_COLOR,
        background_color: BACKGROUND_COLOR,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        // A phone's share sheet opens /share?title=…&text=…&url=…; the share-target screen saves the link.
        share_target: {
          action: '/share',
          method: 'GET',
          params: { title: 'title', text: 'text', url: 'url' },
        },
      },
      workbox: {
        // Every route opens offline from the cached shell; the API is never answered with HTML.
        navigateFallback: '/index.html',
        // The bookmarklet's window (/save) comes from the server: the cached shell carries
        // Cross-Origin-Opener-Policy: same-origin, which would cut it off from the page it saves.
        navigateFallbackDenylist: [/^\/api\//, /^\/save(\?|$)/],
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        // Its static routes: the hashed assets straight from the precache (app/public/sw-routes.js).
        importScripts: ['sw-routes.js'],
        globIgnores: ['sw-routes.js'],
        runtimeCaching: [
          {
            // Images still on other sites (articles saved before their images were archived); keep the ones
            // already seen so cards and the reading view still show them offline. The server's own copies
            // (/api/images/…, screenshots) never come through here: the app downloads them with the token
            // into its offline library (app/src/data/offline) and shows them as object URLs.
            urlPattern: ({ request, url }) =>
              request.destination === 'image' &&
              !(url.origin === self.location.origin && url.pathname.startsWith('/api/')),
            handler: 'CacheFirst',
            options: {
              // Logout deletes it by this name (app/src/data/device/image-caches.ts).
              cacheName: ARTICLE_IMAGES_CACHE,
              expiration: { maxEntries: 800, maxAgeSeconds: 60 * 60 * 24 * 60, purgeOnQuotaError: true },
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
  ],
});
