// The service worker's static routes (InstallEvent.addRoutes, Chromium 123 and later), imported by the
// generated sw.js (vite.config.ts, workbox.importScripts). The build's hashed scripts and styles are
// answered by the browser from the precache itself, without starting the service worker or running its
// fetch handler once for each: a cold start's first screen waited on that handler for every chunk. The
// answer is the one the handler would give (workbox's precache keeps these files under their own URLs,
// which never change content); a file not in the cache goes to the network, as the handler would send it.
// Browsers without the API ignore this and go through the handler as before.
self.addEventListener('install', (event) => {
  if (typeof event.addRoutes !== 'function') return;
  event.waitUntil(
    event
      .addRoutes({
        condition: { urlPattern: { pathname: '/assets/*' }, requestMethod: 'GET' },
        source: 'cache',
      })
      .catch(() => undefined),
  );
});
