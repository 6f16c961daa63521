// Rehearse's shared script: small progressive enhancements. Every page works without it.
// Features with more behaviour (study, mock, sim lab) ship their own file in this folder.
(function () {
  "use strict";
  // "/" focuses the search box, as on many reading sites, unless the user is typing.
  document.addEventListener("keydown", function (e) {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    var q = document.querySelector("input[name=q]");
    if (q) { e.preventDefault(); q.focus(); }
  });
})();
