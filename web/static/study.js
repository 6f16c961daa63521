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

  if (!document.getElementById("study")) return;
  var busy = false; // one answer at a time: a held key must not answer twice

  // Elements are looked up on each use: answering swaps the page's main content in place.
  function $(id) { return document.getElementById(id); }
  function revealed() { var a = $("study-answer"); return a && !a.hidden; }

  function reveal() {
    var a = $("study-answer");
    if (!a || revealed()) return;
    a.hidden = false;
    var f = $("reveal-form");
    if (f) f.hidden = true;
    $("study").setAttribute("data-state", "answer");
  }

  // Answering and undoing post the same forms as without JavaScript, then put the next page's
  // main content in place instead of reloading: no flash, and the keys keep working. Anything
  // unexpected falls back to following the response like a plain form would.
  function submit(form, button) {
    if (busy || !form) return;
    busy = true;
    var body = new FormData(form, button || undefined);
    fetch(form.action, { method: "POST", body: new URLSearchParams(body), credentials: "same-origin" })
      .then(function (resp) {
        // A refusal (say, a stale answer) is shown the way the server words it, as a page.
        if (!resp.ok || !resp.redirected) { form.submit(); return; }
        return resp.text().then(function (html) {
          try { swap(html, resp.url); } catch (err) { window.location.assign(resp.url); }
        });
      }, function () { form.submit(); }) // network failure: the plain form retries
      .then(function () { busy = false; });
  }

  function swap(html, url) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var next = doc.getElementById("main");
    if (!next || !doc.getElementById("study")) { window.location.assign(url); return; }
    $("main").replaceChildren.apply($("main"), Array.prototype.slice.call(next.childNodes));
    document.title = doc.title;
    if (url !== window.location.href) history.replaceState(null, "", url);
    var f = $("reveal-form");
    if (f) f.addEventListener("submit", onReveal);
    bindForms();
    window.scrollTo(0, 0);
  }

  function rate(n) {
    var b = $("rate-" + n);
    if (b && revealed()) submit($("rate-form"), b);
  }

  // Revealing in place keeps the question's timer running and saves a round trip.
  function onReveal(e) { e.preventDefault(); reveal(); }
  if ($("reveal-form")) $("reveal-form").addEventListener("submit", onReveal);

  // Clicked buttons go through the same path as keys.
  function bindForms() {
    ["rate-form", "undo-form"].forEach(function (id) {
      var f = $(id);
      if (!f) return;
      f.addEventListener("submit", function (e) { e.preventDefault(); submit(f, e.submitter); });
    });
  }
  bindForms();

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
      if (!$("undo-form")) return;
      e.preventDefault();
      submit($("undo-form"));
    }
  });
})();
