// Simulation figures, progressively enhanced. Without this script every close-up and every
// round is on the page as served; with it:
// - the step view shows one round at a time (buttons or ←/→), highlights that round's band on
//   the close-up and moves the close-up's cursor to it;
// - dragging or clicking on the whole-run timeline picks the episode whose close-up is shown;
// - in the lab, the time scrubber moves a line over the timelines and rewrites the "who owns
//   what" table, and the chosen round and episode are kept in the address (?ep=, ?round=).
(function () {
  function num(el, k) { return +el.dataset[k]; }
  function xAt(svg, ms) {
    var from = num(svg, 'fromMs'), to = num(svg, 'toMs'), x0 = num(svg, 'plotx'), w = num(svg, 'plotw');
    return x0 + (to > from ? (ms - from) / (to - from) : 0) * w;
  }
  function setCursor(svg, ms) {
    var line = svg && svg.querySelector('.cursor');
    if (!line) return;
    var inside = ms >= num(svg, 'fromMs') && ms <= num(svg, 'toMs');
    var x = xAt(svg, ms);
    line.setAttribute('x1', x);
    line.setAttribute('x2', x);
    line.classList.toggle('on', inside);
    line.setAttribute('data-at-ms', ms);
  }
  var params = new URLSearchParams(location.search);
  function remember(k, v) {
    if (!document.getElementById('sim-form')) return; // only the lab's address carries state
    params.set(k, v);
    history.replaceState(null, '', location.pathname + '?' + params.toString());
  }

  // Step view.
  document.querySelectorAll('.steps').forEach(function (sec) {
    var items = sec.querySelectorAll('.step');
    if (!items.length) return;
    var nav = sec.querySelector('.step-nav'), pos = sec.querySelector('.step-pos');
    var svg = document.getElementById(sec.dataset.closeup);
    nav.hidden = false;
    sec.classList.add('js');
    var cur = 0;
    function show(i) {
      cur = Math.max(0, Math.min(items.length - 1, i));
      items.forEach(function (li, k) { li.hidden = k !== cur; li.classList.toggle('on', k === cur); });
      var li = items[cur];
      pos.textContent = li.querySelector('strong').textContent + ' of ' + items.length;
      sec.dataset.current = li.dataset.round;
      if (svg) {
        svg.querySelectorAll('.band').forEach(function (b) { b.classList.toggle('on', b.dataset.round === li.dataset.round); });
        setCursor(svg, num(li, 'fromMs'));
      }
    }
    sec.querySelector('.step-prev').addEventListener('click', function () { stop(); show(cur - 1); sync(); remember('round', cur + 1); });
    sec.querySelector('.step-next').addEventListener('click', function () { stop(); show(cur + 1); sync(); remember('round', cur + 1); });
    sec.step = function (d) { stop(); show(cur + d); sync(); remember('round', cur + 1); };
    sec.addEventListener('keydown', function (e) {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      e.stopPropagation(); // the page-wide handler would step it again
      sec.step(e.key === 'ArrowRight' ? 1 : -1);
    });
    sec.addEventListener('focusin', function () { active = sec; });
    sec.addEventListener('click', function () { active = sec; });

    // Playback: every line of every round in turn, the line as a caption and the close-up's
    // cursor moving through the round as it goes.
    var play = sec.querySelector('.step-play'), lines = [];
    items.forEach(function (li, r) {
      var ls = li.querySelectorAll('.step-lines li');
      if (!ls.length) lines.push({ r: r, el: null, k: 0, n: 1 });
      ls.forEach(function (el, k) { lines.push({ r: r, el: el, k: k, n: ls.length }); });
    });
    var scrub = play.querySelector('.step-scrub'), cap = play.querySelector('.step-caption');
    var toggle = play.querySelector('.step-toggle'), speed = play.querySelector('.step-speed');
    var at = 0, timer = null;
    scrub.max = lines.length - 1;
    play.hidden = false;
    function line(i) {
      at = Math.max(0, Math.min(lines.length - 1, i));
      var l = lines[at];
      if (l.r !== cur) show(l.r);
      items[cur].querySelectorAll('.step-lines li').forEach(function (el) { el.classList.toggle('on', el === l.el); });
      cap.textContent = l.el ? l.el.textContent : items[cur].querySelector('.step-head').textContent;
      scrub.value = at;
      if (svg) {
        var li = items[cur], from = num(li, 'fromMs'), to = num(li, 'toMs');
        setCursor(svg, from + (to - from) * (l.k + 1) / l.n);
      }
    }
    function sync() { // the round was changed directly: the playback starts from its first line
      for (var i = 0; i < lines.length; i++) if (lines[i].r === cur) { line(i); return; }
    }
    function stop() {
      if (timer) clearInterval(timer);
      timer = null;
      toggle.textContent = 'Play';
      toggle.setAttribute('aria-pressed', 'false');
    }
    function start() {
      if (at >= lines.length - 1) line(0);
      toggle.textContent = 'Pause';
      toggle.setAttribute('aria-pressed', 'true');
      timer = setInterval(function () {
        if (at >= lines.length - 1) { stop(); return; }
        line(at + 1);
      }, 1600 / (+speed.value || 1));
    }
    sec.toggle = function () { active = sec; if (timer) stop(); else start(); };
    toggle.addEventListener('click', sec.toggle);
    speed.addEventListener('change', function () { if (timer) { stop(); start(); } });
    scrub.addEventListener('input', function () { stop(); line(+scrub.value); });
    show((+params.get('round') || 1) - 1);
    sync();
  });

  // The arrow keys and p work without focusing a step view first: they act on the one last
  // used, else the first on screen. Typing in a field keeps its keys.
  var active = null;
  document.addEventListener('keydown', function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName))) return;
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight' && e.key !== 'p') return;
    var sec = active;
    if (!sec || !document.body.contains(sec) || sec.closest('[hidden]')) {
      sec = null;
      document.querySelectorAll('.steps.js').forEach(function (s) {
        var r = s.getBoundingClientRect();
        if (!sec && !s.closest('[hidden]') && r.bottom > 0 && r.top < innerHeight) sec = s;
      });
    }
    if (!sec) return;
    e.preventDefault();
    if (e.key === 'p') sec.toggle(); else sec.step(e.key === 'ArrowRight' ? 1 : -1);
  });

  // Brushing the whole run picks an episode's close-up (and its step view).
  document.querySelectorAll('.sim-variant').forEach(function (fig) {
    var over = fig.querySelector('svg[data-view=overview]');
    var cups = fig.querySelectorAll('.episode');
    if (!over || cups.length < 2) return;
    var eps = [];
    cups.forEach(function (c) {
      var s = c.querySelector('svg');
      eps.push({ n: c.dataset.episode, from: num(s, 'fromMs'), to: num(s, 'toMs'), el: c });
    });
    function pick(n) {
      eps.forEach(function (e) { e.el.hidden = e.n !== n; });
      fig.dataset.episode = n;
    }
    function msAt(evt) {
      var p = over.createSVGPoint();
      p.x = evt.clientX; p.y = evt.clientY;
      var x = p.matrixTransform(over.getScreenCTM().inverse()).x;
      var from = num(over, 'fromMs'), to = num(over, 'toMs'), x0 = num(over, 'plotx'), w = num(over, 'plotw');
      return from + (x - x0) / w * (to - from);
    }
    var brush = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    brush.setAttribute('class', 'brush');
    brush.setAttribute('y', 16);
    brush.setAttribute('height', over.viewBox.baseVal.height - 44);
    over.appendChild(brush);
    var start = null;
    function choose(a, b) {
      var lo = Math.min(a, b), hi = Math.max(a, b), best = null, bestD = Infinity;
      eps.forEach(function (e) { // the episode overlapping the brush, or else the nearest
        var d = e.to < lo ? lo - e.to : e.from > hi ? e.from - hi : 0;
        if (d < bestD) { bestD = d; best = e; }
      });
      if (best) { pick(best.n); remember('ep', best.n); }
    }
    over.addEventListener('pointerdown', function (e) {
      start = msAt(e);
      try { over.setPointerCapture(e.pointerId); } catch (err) { /* synthetic events have no pointer */ }
    });
    over.addEventListener('pointermove', function (e) {
      if (start === null) return;
      var a = xAt(over, start), b = xAt(over, msAt(e));
      brush.setAttribute('x', Math.min(a, b));
      brush.setAttribute('width', Math.abs(b - a));
    });
    over.addEventListener('pointerup', function (e) {
      if (start === null) return;
      choose(start, msAt(e));
      start = null;
    });
    var want = params.get('ep');
    pick(eps.some(function (e) { return e.n === want; }) ? want : eps[0].n);
  });

  // The lab's event rows: only the fields the chosen type uses are shown (the server ignores
  // the others anyway), and rows can be added and removed in place.
  function fitRow(row) {
    var type = row.querySelector('select').value;
    row.querySelectorAll('[data-for]').forEach(function (f) {
      var uses = f.dataset.for.split(' ');
      f.hidden = !type || (uses.indexOf('all') < 0 && uses.indexOf(type) < 0);
    });
  }
  function wireRow(row) {
    row.querySelector('select').addEventListener('change', function () { fitRow(row); });
    var rm = row.querySelector('.ev-remove');
    rm.hidden = false;
    rm.addEventListener('click', function () {
      var next = row.nextElementSibling && row.nextElementSibling.querySelector('select');
      row.remove();
      if (next) next.focus();
    });
    fitRow(row);
  }
  var addBtn = document.getElementById('ev-add');
  if (addBtn) {
    document.querySelectorAll('.sim-event').forEach(wireRow);
    addBtn.hidden = false;
    addBtn.addEventListener('click', function () {
      var rows = document.querySelectorAll('.sim-event');
      var last = rows[rows.length - 1];
      if (!last) return;
      var n = 0;
      rows.forEach(function (r) { n = Math.max(n, +r.dataset.n + 1); });
      var row = last.cloneNode(true);
      row.id = 'ev' + n;
      row.dataset.n = n;
      row.querySelectorAll('[id],[name],[for],[aria-describedby]').forEach(function (el) {
        ['id', 'name', 'for', 'aria-describedby'].forEach(function (a) {
          var v = el.getAttribute(a);
          if (v) el.setAttribute(a, v.replace(/^e\d+/, 'e' + n));
        });
      });
      row.querySelectorAll('input').forEach(function (i) { i.value = ''; i.removeAttribute('aria-invalid'); });
      row.querySelectorAll('.field-error').forEach(function (e) { e.remove(); });
      row.querySelector('select').value = '';
      last.parentNode.insertBefore(row, last.nextSibling);
      wireRow(row);
      row.querySelector('select').focus();
    });
  }

  // The lab's time scrubber.
  var range = document.getElementById('t');
  var out = document.getElementById('t-out');
  var table = document.getElementById('sim-at');
  if (!range || !table) return;
  var data = [];
  document.querySelectorAll('.scrub-data').forEach(function (el) {
    try { data.push(JSON.parse(el.dataset.json)); } catch (e) { data.push(null); }
  });
  var rows = table.tBodies[0].rows;
  function at(d, i, ms) {
    var segs = d && d.segs[i];
    if (!segs) return ['', '—'];
    for (var k = 0; k < segs.length; k++) {
      var s = segs[k];
      if (s[0] <= ms && (ms < s[1] || (k === segs.length - 1 && ms === s[1]))) {
        var st = d.states[s[2]];
        var who = s[3] >= 0 ? d.owners[s[3]] : '';
        return [st, !who ? st : st === 'unowned' ? 'unowned (still assigned to ' + who + ')' : st + ' · ' + who];
      }
    }
    return ['', '—'];
  }
  function update() {
    var ms = Math.round(parseFloat(range.value) * 1000);
    out.textContent = (ms / 1000).toFixed(1) + ' s';
    document.querySelectorAll('svg[data-view=overview]').forEach(function (svg) { setCursor(svg, ms); });
    for (var i = 0; i < rows.length; i++) {
      for (var v = 0; v < data.length; v++) {
        var cell = rows[i].cells[v + 1];
        if (!cell) continue;
        var r = at(data[v], i, ms);
        cell.textContent = r[1];
        cell.className = r[0] ? 'at-' + r[0] : '';
      }
    }
  }
  range.addEventListener('input', update);
  range.addEventListener('change', function () { remember('t', range.value); });
  update();
})();
