// Rehearse's shared script: small progressive enhancements. Every page works without it.
// Features with more behaviour (study, mock, sim lab) ship their own file in this folder.
//
// Keyboard help: "?" opens a dialog listing the keys of the page. Pages declare their keys on
// any element with data-keys="KEY=what it does;KEY2=…" (keys joined by "+" or " / "); the
// shared ones below are always listed.
(function () {
  "use strict";
  var d = document.documentElement;

  function typing(t) {
    return t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
  }

  // Compact navigation: below the desktop width the links fold behind a Menu button.
  var toggle = document.getElementById("nav-toggle"), nav = document.getElementById("nav");
  function setMenu(open) {
    if (!toggle || !nav) return;
    nav.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  }
  if (toggle && nav) {
    toggle.addEventListener("click", function () { setMenu(!nav.classList.contains("open")); });
    document.addEventListener("click", function (e) {
      if (nav.classList.contains("open") && !nav.contains(e.target) && !toggle.contains(e.target)) setMenu(false);
    });
  }

  // Theme toggle: flips between light and dark from whatever shows now, remembers it on this
  // device and, signed in, for the account (the same form the account page posts).
  var themeBtn = document.getElementById("theme-toggle");
  function current() {
    var t = d.getAttribute("data-theme");
    if (t) return t;
    return window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  function labelTheme() {
    if (!themeBtn) return;
    var next = current() === "dark" ? "light" : "dark";
    themeBtn.setAttribute("aria-label", "Switch to the " + next + " theme");
    themeBtn.title = "Switch to the " + next + " theme";
  }
  if (themeBtn) {
    labelTheme();
    if (window.matchMedia) matchMedia("(prefers-color-scheme: dark)").addEventListener("change", labelTheme);
    themeBtn.addEventListener("click", function () {
      var next = current() === "dark" ? "light" : "dark";
      d.setAttribute("data-theme", next);
      try { localStorage.setItem("theme", next); } catch (e) { /* this page still switches */ }
      labelTheme();
      if (d.hasAttribute("data-theme-user")) {
        d.setAttribute("data-theme-user", next);
        fetch("/account/theme", { method: "POST", credentials: "same-origin",
          body: new URLSearchParams({ theme: next, js: "1" }) }).catch(function () {});
      }
    });
  }

  // Charts that grow to the right (the year heatmap) open scrolled to today on narrow screens.
  document.querySelectorAll(".scroll-end").forEach(function (el) { el.scrollLeft = el.scrollWidth; });
  // A box that scrolls sideways must be reachable with the keyboard (arrow keys scroll it).
  // Boxes inside a closed disclosure have no width yet: they are looked at again when it opens.
  function focusScrollers(root) {
    root.querySelectorAll(".scroll:not([tabindex]), pre:not([tabindex]), .prose table:not([tabindex]), .panel table:not([tabindex])").forEach(function (el) {
      if (el.scrollWidth > el.clientWidth) el.tabIndex = 0;
    });
  }
  focusScrollers(document);
  document.addEventListener("toggle", function (e) {
    if (e.target.tagName === "DETAILS" && e.target.open) focusScrollers(e.target);
  }, true);

  // Keyboard help.
  var shared = [["?", "show or hide this list of keys"], ["/", "search (focus the search box)"], ["Esc", "close this list or the menu"]];
  function pageKeys() {
    var out = [], seen = {};
    document.querySelectorAll("[data-keys]").forEach(function (el) {
      el.getAttribute("data-keys").split(";").forEach(function (pair) {
        var i = pair.indexOf("="), key = pair.slice(0, i).trim();
        if (i > 0 && !seen[key]) { seen[key] = true; out.push([key, pair.slice(i + 1).trim()]); }
      });
    });
    return out;
  }
  function keyCells(keys) {
    var th = document.createElement("th");
    th.scope = "row";
    keys.split(" / ").forEach(function (k, i) {
      if (i) th.appendChild(document.createTextNode(" or "));
      var kbd = document.createElement("kbd");
      kbd.textContent = k;
      th.appendChild(kbd);
    });
    return th;
  }
  function table(caption, rows) {
    var h = document.createElement("h3");
    h.textContent = caption;
    var t = document.createElement("table");
    rows.forEach(function (r) {
      var tr = document.createElement("tr");
      var td = document.createElement("td");
      td.textContent = r[1];
      tr.appendChild(keyCells(r[0]));
      tr.appendChild(td);
      t.appendChild(tr);
    });
    return [h, t];
  }
  var dlg = null;
  function openHelp() {
    if (dlg && dlg.open) { dlg.close(); return; }
    dlg = document.createElement("dialog");
    dlg.className = "keyhelp";
    dlg.id = "keyhelp";
    dlg.setAttribute("aria-labelledby", "keyhelp-title");
    var h = document.createElement("h2");
    h.id = "keyhelp-title";
    h.textContent = "Keyboard shortcuts";
    dlg.appendChild(h);
    var own = pageKeys();
    if (own.length) table("On this page", own).forEach(function (n) { dlg.appendChild(n); });
    table("Everywhere", shared).forEach(function (n) { dlg.appendChild(n); });
    var close = document.createElement("button");
    close.type = "button";
    close.className = "secondary";
    close.textContent = "Close";
    close.addEventListener("click", function () { dlg.close(); });
    dlg.appendChild(close);
    dlg.addEventListener("close", function () { dlg.remove(); });
    document.body.appendChild(dlg);
    dlg.showModal();
    close.focus();
  }

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (dlg && dlg.open) { // the page's own keys wait while the help is open
      e.stopImmediatePropagation();
      if (e.key === "?") { e.preventDefault(); dlg.close(); }
      return;
    }
    if (e.key === "Escape") { setMenu(false); return; }
    if (typing(e.target)) return;
    if (e.key === "?") { e.preventDefault(); e.stopImmediatePropagation(); openHelp(); return; }
    if (e.key !== "/") return;
    var q = document.querySelector("input[name=q]");
    if (q) { e.preventDefault(); q.focus(); }
  }, true);
})();

// First sign-in: the server asks (a rehearse_tz cookie) for the browser's time zone, once.
(function () {
  if (document.cookie.split("; ").indexOf("rehearse_tz=ask") < 0 || !window.fetch) return;
  var tz = "";
  try { tz = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  if (!tz) return;
  fetch("/account/timezone", {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/x-www-form-urlencoded"}, body: "tz=" + encodeURIComponent(tz)});
})();
