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

  // Answering and undoing post the same forms as without JavaScript; the response is the next
  // page itself (the server sees X-Rehearse-Swap), put in place without a reload or a second
  // request. A refusal is shown as the server words it and never posted again: posting an undo
  // twice could take back a second answer.
  function submit(form, button) {
    if (busy || !form) return;
    busy = true;
    // A recording in progress is stopped and saved first, so the answer carries it.
    var voice = window.rehearseVoice;
    (voice ? voice.finish() : Promise.resolve()).then(function () { send(form, button); });
  }

  function send(form, button) {
    var undo = form.id === "undo-form";
    var body = new FormData(form, button || undefined);
    fetch(form.action, { method: "POST", body: new URLSearchParams(body), credentials: "same-origin",
      headers: { "X-Rehearse-Swap": "1" } })
      .then(function (resp) {
        var url = resp.headers.get("X-Rehearse-URL");
        return resp.text().then(function (html) {
          if (resp.ok && url) swap(html, url);
          else if (resp.ok) window.location.assign(resp.url); // say, the sign-in page
          else showRefusal(html);
        });
      }, function () {
        // A rating posted again is refused as stale, so the plain form may retry; an undo may not.
        if (undo) notice("The connection failed. Reload the page to see whether the answer was undone.");
        else form.submit();
      })
      .then(function () { busy = false; }, function () { busy = false; });
  }

  function parse(html) { return new DOMParser().parseFromString(html, "text/html"); }

  function swap(html, url) {
    var doc = parse(html);
    var next = doc.getElementById("main");
    if (!next || !doc.getElementById("study")) { window.location.assign(url); return; }
    $("main").replaceChildren.apply($("main"), Array.prototype.slice.call(next.childNodes));
    document.title = doc.title;
    if (url !== window.location.pathname + window.location.search) history.replaceState(null, "", url);
    var f = $("reveal-form");
    if (f) f.addEventListener("submit", onReveal);
    bindForms();
    window.scrollTo(0, 0);
  }

  // showRefusal puts the error page's main content in place of the study page.
  function showRefusal(html) {
    var doc = parse(html);
    var next = doc.getElementById("main");
    if (!next) { notice("The server refused that. Reload the page."); return; }
    $("main").replaceChildren.apply($("main"), Array.prototype.slice.call(next.childNodes));
    document.title = doc.title;
  }

  function notice(text) {
    var p = document.createElement("p");
    p.className = "notice";
    p.setAttribute("role", "alert");
    p.textContent = text;
    $("main").prepend(p);
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
