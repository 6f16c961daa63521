// Makes the lab's time scrubber live: dragging moves a line over each timeline and rewrites
// the "who owns what" table from the JSON the server embedded. Without it, the range input is
// submitted with the form and the server renders the same table for ?t=.
(function () {
  var range = document.getElementById('t');
  var out = document.getElementById('t-out');
  var table = document.getElementById('sim-at');
  if (!range || !table) return;
  var data = [];
  document.querySelectorAll('.scrub-data').forEach(function (el) {
    try { data.push(JSON.parse(el.dataset.json)); } catch (e) { data.push(null); }
  });
  var svgs = document.querySelectorAll('svg.tl');
  var rows = table.tBodies[0].rows;

  function at(d, i, ms) {
    var segs = d && d.segs[i];
    if (!segs) return ['', '—'];
    for (var k = 0; k < segs.length; k++) {
      var s = segs[k];
      if (s[0] <= ms && (ms < s[1] || (k === segs.length - 1 && ms === s[1]))) {
        var st = d.states[s[2]];
        return [st, s[3] >= 0 ? st + ' · ' + d.owners[s[3]] : st];
      }
    }
    return ['', '—'];
  }

  function update() {
    var ms = Math.round(parseFloat(range.value) * 1000);
    out.textContent = (ms / 1000).toFixed(1) + ' s';
    svgs.forEach(function (svg) {
      var dur = +svg.dataset.duration, x0 = +svg.dataset.plotx, w = +svg.dataset.plotw;
      var line = svg.querySelector('.cursor');
      var x = x0 + (dur > 0 ? ms / dur : 0) * w;
      line.setAttribute('x1', x);
      line.setAttribute('x2', x);
      line.classList.add('on');
    });
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
  update();
})();
