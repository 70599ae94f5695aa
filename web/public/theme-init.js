/* global window, document */
// Runs before first paint (a blocking external script: the server's CSP forbids inline scripts)
// so the page never flashes the wrong theme. Kept in sync with src/lib/theme.ts.
(function () {
  var stored = null;
  try {
    stored = localStorage.getItem("bridgekeeper-theme");
  } catch {
    stored = null;
  }
  var dark = stored === "dark" || (stored !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
})();
