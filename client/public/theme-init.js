// Applies the saved theme class before the app's CSS and JS load, so a light-theme user never sees a
// dark flash (and vice versa). It is an external file because the server's CSP forbids inline
// scripts. It mirrors client/components/theme-provider.tsx: key 'vite-ui-theme', default dark.
(function () {
  var theme = 'dark';
  try {
    var stored = window.localStorage.getItem('vite-ui-theme');
    if (stored === 'light' || stored === 'dark' || stored === 'system') theme = stored;
  } catch {
    // Storage can be blocked; the default theme still applies.
  }
  if (theme === 'system') {
    theme = window.matchMedia && !window.matchMedia('(prefers-color-scheme: dark)').matches ? 'light' : 'dark';
  }
  var root = document.documentElement;
  root.classList.remove('light', 'dark');
  root.classList.add(theme);
})();
