// Study keys, as in Anki: Space or Enter shows the answer, then Space or Enter rates Good,
// 1-4 rate, u undoes. The page works without this file: every action is a plain form.
(function () {
  "use strict";

  // Settings page: offer the device's time zone.
  var tzButton = document.getElementById("use-device-tz");
  var tzInput = document.getElementById("timezone");
  if (tzButton && tzInput && window.Intl) {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) {
      tzButton.hidden = false;
      tzButton.textContent = "Use this device's time zone (" + zone + ")";
      tzButton.addEventListener("click", function () { tzInput.value = zone; });
    }
  }

  var root = document.getElementById("study");
  if (!root) return;
  var answer = document.getElementById("study-answer");
  var revealForm = document.getElementById("reveal-form");
  var rateForm = document.getElementById("rate-form");
  var undoForm = document.getElementById("undo-form");
  var busy = false; // one submit per page: a held key must not answer twice

  function revealed() { return answer && !answer.hidden; }

  function reveal() {
    if (!answer || revealed()) return;
    answer.hidden = false;
    if (revealForm) revealForm.hidden = true;
    root.setAttribute("data-state", "answer");
  }

  function submit(form, button) {
    if (busy || !form) return;
    busy = true;
    if (form.requestSubmit) form.requestSubmit(button || undefined);
    else { if (button) button.click(); else form.submit(); }
  }

  function rate(n) {
    var b = document.getElementById("rate-" + n);
    if (b && revealed()) submit(rateForm, b);
  }

  // Revealing in place keeps the question's timer running and saves a round trip.
  if (revealForm) {
    revealForm.addEventListener("submit", function (e) { e.preventDefault(); reveal(); });
  }

  function typing(t) {
    return t && (t.tagName === "INPUT" && t.type !== "radio" || t.tagName === "TEXTAREA" ||
      t.tagName === "SELECT" || t.isContentEditable);
  }

  // Space and Enter on a focused control keep their usual meaning (open a follow-up, press
  // that button); elsewhere they drive the session.
  function control(t) {
    return t && (t.tagName === "BUTTON" || t.tagName === "A" || t.tagName === "SUMMARY" || t.tagName === "INPUT");
  }

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || typing(e.target)) return;
    var k = e.key;
    if (k === " " || k === "Enter") {
      if (control(e.target)) return;
      e.preventDefault();
      if (!revealed()) reveal(); else rate(3);
    } else if (k >= "1" && k <= "4") {
      if (!revealed()) return;
      e.preventDefault();
      rate(k);
    } else if (k === "u" || k === "U") {
      if (!undoForm) return;
      e.preventDefault();
      submit(undoForm);
    }
  });
})();
