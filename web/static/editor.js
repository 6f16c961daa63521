// Card editor: re-checks and re-renders the card as the author types (the Preview button does
// the same without JS), keeps the line-number gutter beside the text, and jumps to a line
// from its error.
(() => {
  const form = document.getElementById('editor');
  if (!form) return;
  const text = document.getElementById('editor-md');
  const gutter = document.getElementById('editor-gutter');
  const live = document.getElementById('editor-live');
  let timer = 0, seq = 0;

  const syncGutter = () => { gutter.scrollTop = text.scrollTop; };
  text.addEventListener('scroll', syncGutter);

  const refresh = async () => {
    const mine = ++seq;
    const body = new FormData(form);
    body.set('action', 'preview');
    try {
      const resp = await fetch(form.dataset.preview, { method: 'POST', body, credentials: 'same-origin' });
      if (!resp.ok || mine !== seq) return; // a newer check is on its way
      live.innerHTML = await resp.text(); // server-rendered, escaped by templ
      const next = document.getElementById('editor-gutter-next');
      if (next) gutter.innerHTML = next.innerHTML;
      syncGutter();
    } catch (_) { /* offline: the Preview button still works */ }
  };
  const schedule = () => { clearTimeout(timer); timer = setTimeout(refresh, 350); };
  text.addEventListener('input', schedule);
  const folder = document.getElementById('editor-folder');
  if (folder) folder.addEventListener('change', schedule);

  // "line N" in an error selects that line in the text.
  live.addEventListener('click', (e) => {
    const a = e.target.closest('a.editor-line');
    if (!a) return;
    e.preventDefault();
    const n = Number(a.closest('li').dataset.line);
    const lines = text.value.split('\n');
    let start = 0;
    for (let i = 0; i < n - 1 && i < lines.length; i++) start += lines[i].length + 1;
    text.focus();
    text.setSelectionRange(start, start + (lines[n - 1] || '').length);
    const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || 20;
    text.scrollTop = Math.max(0, (n - 3) * lineHeight);
  });
  refresh();
})();
