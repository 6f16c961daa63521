// Loaded synchronously in <head> (tiny, no work beyond this) so the chosen theme applies before
// the first paint: no flash of the light page in dark mode. A signed-in user's choice comes
// from the server (data-theme-user) and is remembered for this device; signed out, the
// device's own choice (localStorage) applies. No choice: the browser's prefers-color-scheme.
(function () {
  "use strict";
  var d = document.documentElement;
  d.classList.add("js");
  var user = d.getAttribute("data-theme-user"), t = user;
  try {
    if (user) localStorage.setItem("theme", user);
    else t = localStorage.getItem("theme");
  } catch (e) { /* storage blocked: the server's or the browser's theme still applies */ }
  if (t === "light" || t === "dark") d.setAttribute("data-theme", t);
  else d.removeAttribute("data-theme");
})();
