// Mock interview: a countdown display and keyboard shortcuts. The server keeps the real clock
// (it stamps when a question was shown and judges the time itself); this only shows it, and
// under a strict clock submits the answer at zero so the page moves on by itself.
(function () {
  "use strict";
  var form = document.getElementById("answer-form");
  var clock = document.getElementById("clock");

  function fmt(ms) {
    var s = Math.round(Math.abs(ms) / 1000);
    return Math.floor(s / 60) + ":" + (s % 60 < 10 ? "0" : "") + (s % 60);
  }

  if (clock && form) {
    var strict = clock.dataset.strict === "true";
    var end = Date.now() + parseInt(clock.dataset.remainingMs, 10);
    var out = document.createElement("strong");
    out.id = "countdown";
    out.setAttribute("role", "timer");
    clock.insertBefore(out, clock.firstChild);
    clock.insertBefore(document.createTextNode(" "), out.nextSibling);
    var sent = false;
    var tick = function () {
      var left = end - Date.now();
      if (left >= 0) {
        out.textContent = fmt(left) + " left";
      } else {
        out.textContent = fmt(left) + " over";
        clock.classList.add("over");
      }
      if (strict && left <= 0 && !sent) {
        sent = true;
        form.requestSubmit ? form.requestSubmit() : form.submit();
        return;
      }
      setTimeout(tick, 200);
    };
    tick();
    // No autofocus on the text box: many answer out loud, and Enter should finish for them.
    form.addEventListener("submit", function () { sent = true; });
  }

  // On Apple keyboards the submit chord is Cmd+Enter: say so on the button.
  var keys = document.getElementById("submit-keys");
  if (keys && /Mac|iPhone|iPad/.test(navigator.platform || "")) {
    keys.firstElementChild.textContent = "⌘";
  }

  function typing(t) {
    return t && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" && t.type !== "checkbox" && t.type !== "radio" || t.isContentEditable);
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.isComposing) return;
    var t = e.target;
    // Enter finishes an answer; inside the text box it takes Ctrl+Enter (or Cmd+Enter).
    if (form && e.key === "Enter") {
      if (t && t.tagName === "TEXTAREA" && !(e.ctrlKey || e.metaKey)) return;
      if (t && (t.tagName === "BUTTON" || t.tagName === "A")) return;
      e.preventDefault();
      form.requestSubmit ? form.requestSubmit() : form.submit();
      return;
    }
    // 1–4 rate, as in study.
    if (!e.ctrlKey && !e.metaKey && !typing(t) && /^[1-4]$/.test(e.key)) {
      var b = document.getElementById("rate-" + e.key);
      if (b) { e.preventDefault(); b.click(); }
    }
  });
})();
