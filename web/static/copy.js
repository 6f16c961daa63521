// Copy buttons beside one-time links: copies the named input's text and says so.
document.addEventListener('click', (e) => {
  const b = e.target.closest('button.copy');
  if (!b) return;
  const input = document.getElementById(b.dataset.copy);
  if (!input) return;
  const done = () => { b.textContent = 'Copied'; setTimeout(() => { b.textContent = 'Copy'; }, 2000); };
  input.select();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(done, () => { document.execCommand('copy'); done(); });
  } else {
    document.execCommand('copy');
    done();
  }
});
