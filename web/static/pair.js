// Pair interview screens: the shared clock ticks here; server-sent events say when the session
// moves on (the page then reloads, rendered for this side) and whether the other person is here.
(function () {
  var root = document.getElementById("pair");
  if (!root) return;
  var clock = document.getElementById("pair-clock");
  var state = document.getElementById("pair-state").dataset.state;
  var target = +clock.dataset.targetMs, started = +clock.dataset.startedMs, used = +clock.dataset.usedMs;
  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function tick() {
    var ms = state === "running" && started ? Date.now() - started : used;
    clock.textContent = fmt(ms) + " / " + fmt(target);
    clock.classList.toggle("over", ms > target);
  }
  tick();
  if (state === "running") setInterval(tick, 250);
  if (!window.EventSource || state === "done" || state === "cancelled") return;
  var es = new EventSource("/pair/" + encodeURIComponent(root.dataset.code) + "/events");
  es.addEventListener("pair", function (e) {
    var ev = JSON.parse(e.data);
    if (ev.state !== state) { es.close(); location.reload(); return; }
    var here = document.getElementById("pair-here");
    if (here) {
      var who = here.dataset.with || "";
      here.textContent = ev.here ? who + " has the session open" : who + " has not opened it yet: send them this page's address";
    }
  });
})();
