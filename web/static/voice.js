// Spoken answers. The record button ([data-action=record], key r) starts the browser's
// MediaRecorder; a Web Audio level meter counts voiced time (a level over the threshold, plus a
// short hang-over so the gaps between words count but silences do not) and shows it live
// against the target; stopping plays the recording back at once and uploads it with the spoken
// and wall times. Without a microphone, or when permission is refused, the widget says so and
// typing still works. Forms marked data-wait-recording (the mock answer) wait for the upload.
(function () {
  "use strict";
  var POLL_MS = 50;     // meter interval
  var HANG_MS = 300;    // a gap shorter than this between loud frames still counts as speech
  var MIN_LEVEL = 0.01; // RMS below this is never speech, whatever the noise floor
  var active = null;    // the recording in progress: one at a time
  var pending = null;   // the last upload, so a submit can wait for it

  function secs(ms) { return Math.round(ms / 1000) + " s"; }
  function part(el, sel) { return el.querySelector(sel); }
  function say(el, text, bad) {
    var s = part(el, ".rec-status");
    s.textContent = text;
    s.classList.toggle("rec-error", !!bad);
  }
  function supported() {
    return !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia && window.MediaRecorder &&
      (window.AudioContext || window.webkitAudioContext));
  }

  // Widgets come and go (study swaps the page's main content): bring new ones to life.
  function init() {
    document.querySelectorAll("[data-recorder]:not([data-ready])").forEach(function (el) {
      el.setAttribute("data-ready", "1");
      el.hidden = false;
      if (!supported()) {
        part(el, "[data-action]").disabled = true;
        say(el, "Recording is not available here (it needs a microphone and an https page). Typing still works.", true);
      }
    });
  }
  init();
  new MutationObserver(init).observe(document.body, { childList: true, subtree: true });

  function pickType() {
    var types = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/mp4", "audio/webm"];
    for (var i = 0; i < types.length; i++) {
      if (MediaRecorder.isTypeSupported && MediaRecorder.isTypeSupported(types[i])) return types[i];
    }
    return "";
  }

  function setButton(el, recording) {
    var b = part(el, "[data-action]");
    b.setAttribute("data-action", recording ? "stop" : "record");
    b.setAttribute("aria-pressed", recording ? "true" : "false");
    part(b, ".rec-label").textContent = recording ? "Stop recording" : "Record again";
    el.classList.toggle("recording", recording);
  }

  function showSpoken(el, ms) {
    var c = part(el, "[data-spoken-ms]");
    c.setAttribute("data-spoken-ms", String(Math.round(ms)));
    part(c, ".rec-spoken").textContent = secs(ms);
    c.classList.toggle("over", ms > 1.2 * parseInt(el.dataset.targetMs, 10));
  }

  function start(el) {
    if (active || !supported()) return;
    say(el, "Asking for the microphone…");
    navigator.mediaDevices.getUserMedia({ audio: true }).then(function (stream) {
      var type = pickType();
      var opts = { audioBitsPerSecond: 32000 }; // speech needs no more; keeps uploads small
      if (type) opts.mimeType = type;
      var rec = new MediaRecorder(stream, opts);
      var Ctx = window.AudioContext || window.webkitAudioContext;
      var ctx = new Ctx();
      var an = ctx.createAnalyser();
      an.fftSize = 2048;
      ctx.createMediaStreamSource(stream).connect(an);
      if (ctx.resume) ctx.resume();
      var now = performance.now();
      var st = { el: el, stream: stream, rec: rec, chunks: [], ctx: ctx, an: an, buf: new Float32Array(an.fftSize),
        spoken: 0, lastLoud: -1e9, last: now, started: now, floor: 1 };
      rec.ondataavailable = function (e) { if (e.data && e.data.size) st.chunks.push(e.data); };
      rec.start(1000);
      st.timer = setInterval(function () { meter(st); }, POLL_MS);
      active = st;
      part(el, ".rec-playback").replaceChildren();
      showSpoken(el, 0);
      setButton(el, true);
      say(el, "Recording: speak your answer, then press Stop (or r).");
    }, function (err) {
      var refused = err && (err.name === "NotAllowedError" || err.name === "SecurityError");
      say(el, refused ? "Microphone permission was refused, so nothing is recorded. Typing still works."
        : "No microphone was found, so nothing is recorded. Typing still works.", true);
    });
  }

  // meter adds the time since the last poll to the spoken time when the level says speech.
  function meter(st) {
    var now = performance.now();
    var dt = Math.min(now - st.last, 500); // a stalled timer must not credit seconds at once
    st.last = now;
    st.an.getFloatTimeDomainData(st.buf);
    var sum = 0;
    for (var i = 0; i < st.buf.length; i++) sum += st.buf[i] * st.buf[i];
    var rms = Math.sqrt(sum / st.buf.length);
    // The noise floor follows quiet moments at once and loud ones only slowly.
    st.floor = rms < st.floor ? rms : st.floor + (rms - st.floor) * 0.002;
    if (rms > Math.max(MIN_LEVEL, 3 * st.floor)) st.lastLoud = now;
    if (now - st.lastLoud <= HANG_MS) st.spoken += dt;
    showSpoken(st.el, st.spoken);
  }

  function stop(st) {
    clearInterval(st.timer);
    meter(st);
    var wall = performance.now() - st.started; // the same clock and moment as the spoken time
    st.el.setAttribute("data-wall-ms", String(Math.round(wall)));
    active = null;
    setButton(st.el, false);
    pending = new Promise(function (resolve) {
      st.rec.onstop = function () {
        st.stream.getTracks().forEach(function (t) { t.stop(); });
        if (st.ctx.close) st.ctx.close();
        var blob = new Blob(st.chunks, { type: st.rec.mimeType || "audio/webm" });
        playback(st.el, blob);
        upload(st.el, blob, st.spoken, wall).then(resolve, resolve);
      };
      st.rec.stop();
    });
    return pending;
  }

  function playback(el, blob) {
    var a = document.createElement("audio");
    a.controls = true;
    a.src = URL.createObjectURL(blob);
    a.setAttribute("data-playback", "local");
    part(el, ".rec-playback").replaceChildren(a);
  }

  function upload(el, blob, spoken, wall) {
    var q = new URLSearchParams({ card: el.dataset.card, mode: el.dataset.mode, depth: el.dataset.depth || "",
      spoken_ms: String(Math.round(spoken)), wall_ms: String(Math.round(wall)) });
    if (el.dataset.mode === "mock") {
      q.set("session", el.dataset.session);
      q.set("pos", el.dataset.pos);
      q.set("followup", el.dataset.followup);
    }
    say(el, "Saving the recording…");
    var t0 = performance.now();
    return fetch("/recordings?" + q.toString(), { method: "POST", body: blob, credentials: "same-origin",
      headers: { "Content-Type": blob.type || "application/octet-stream", "Accept": "application/json" } })
      .then(function (resp) {
        return resp.json().then(function (j) {
          if (!resp.ok) { say(el, j.error || "The recording was not saved.", true); return; }
          el.setAttribute("data-recording-id", String(j.id));
          el.setAttribute("data-upload-ms", String(Math.round(performance.now() - t0)));
          el.setAttribute("data-bytes", String(j.bytes));
          var input = document.getElementById("rate-recording");
          if (input) input.value = String(j.id);
          say(el, "Saved: spoken " + secs(j.spoken_ms) + " of a " + secs(j.target_ms) + " target (" +
            Math.round(j.bytes / 1024) + " KB).");
          addDelete(el, j.id);
          heard(el, j);
        });
      }, function () { say(el, "The recording could not be uploaded (connection lost).", true); });
  }

  // heard follows the background check of a recording (GET check_url until it is no longer
  // pending) and marks the key points on the page: data-heard="true|false" on each.
  var checking = 0; // the recording whose check the page follows; a newer one replaces it
  function heard(el, j) {
    var summary = document.getElementById("heard-summary");
    checking = j.id;
    if (j.status !== "pending") { showCheck(j); return; }
    if (summary) summary.textContent = "Listening to your answer…";
    var tries = 0;
    (function poll() {
      if (checking !== j.id) return;
      fetch(j.check_url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (c) {
          if (checking !== j.id) return;
          if (c && c.status === "pending" && ++tries < 240) { setTimeout(poll, 1000); return; }
          showCheck(c || { status: "unavailable", note: "the check could not be read" });
        }, function () { if (++tries < 240) setTimeout(poll, 2000); });
    })();
  }

  function showCheck(c) {
    var summary = document.getElementById("heard-summary");
    var list = document.getElementById("key-points");
    var rec = document.getElementById("recorder");
    if (rec) rec.setAttribute("data-check", c.status);
    if (!list) return;
    if (c.status !== "done") {
      if (summary) summary.textContent = c.status === "none" ? c.note : "Not checked: " + (c.note || "no reason given") + ".";
      return;
    }
    var by = {};
    (c.points || []).forEach(function (p) { by[p.bullet] = p.heard; });
    var n = 0, of = 0;
    list.querySelectorAll("li[data-point]").forEach(function (li) {
      var h = !!by[li.getAttribute("data-point")];
      li.setAttribute("data-heard", h ? "true" : "false");
      li.setAttribute("aria-label", (h ? "heard: " : "missed: ") + li.textContent.trim());
      of++;
      if (h) n++;
    });
    if (summary) summary.textContent = "Heard " + n + " of " + of + " key points.";
    var t = document.getElementById("heard-transcript");
    if (t && c.transcript) {
      t.hidden = false;
      t.querySelector("p").textContent = c.transcript;
    }
  }

  function addDelete(el, id) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "secondary small";
    b.setAttribute("data-action", "delete-recording");
    b.textContent = "Delete recording";
    b.addEventListener("click", function () {
      fetch("/recordings/" + id + "/delete", { method: "POST", credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (resp) {
          if (!resp.ok) { say(el, "The recording was not deleted.", true); return; }
          el.removeAttribute("data-recording-id");
          var input = document.getElementById("rate-recording");
          if (input) input.value = "";
          part(el, ".rec-playback").replaceChildren();
          say(el, "Recording deleted.");
        });
    });
    part(el, ".rec-playback").appendChild(b);
  }

  function toggle(el) {
    if (active && active.el === el) stop(active);
    else if (!active) start(el);
  }

  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-recorder] button[data-action=record], [data-recorder] button[data-action=stop]");
    if (b) { e.preventDefault(); toggle(b.closest("[data-recorder]")); }
  });

  function typing(t) {
    return t && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || t.tagName === "SELECT" || t.isContentEditable);
  }

  document.addEventListener("keydown", function (e) {
    if (e.key !== "r" && e.key !== "R") return;
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || typing(e.target)) return;
    var el = active ? active.el : null;
    if (!el) {
      document.querySelectorAll("[data-recorder]").forEach(function (w) { if (!el && w.offsetParent !== null) el = w; });
    }
    if (!el || part(el, "[data-action]").disabled) return;
    e.preventDefault();
    toggle(el);
  });

  // finish stops a recording in progress and resolves once the last upload is done.
  function finish() {
    if (active) return stop(active);
    return pending || Promise.resolve();
  }

  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (!f.hasAttribute || !f.hasAttribute("data-wait-recording") || (!active && !pending)) return;
    if (f.getAttribute("data-recording-done") === "1") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (f.getAttribute("data-recording-wait") === "1") return; // already waiting: submit once
    f.setAttribute("data-recording-wait", "1");
    finish().then(function () {
      f.setAttribute("data-recording-done", "1");
      f.submit();
    });
  }, true);

  window.rehearseVoice = { finish: finish };
})();
