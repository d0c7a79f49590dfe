// floor-focus.js -- the floor's type target (bench/inproc.lua floor, the
// floor column of `make bench-peers`): in one Runtime.evaluate in the main
// world as `(this function)(text)`, focus the field of the first label
// whose text starts with `text`, so the text can be inserted.  Throws when
// no label names a field.
function (text) {
  const l = [...document.querySelectorAll('label')].find((e) => e.textContent.trim().startsWith(text));
  const f = l && (l.control || l.querySelector('input, textarea'));
  if (!f) throw new Error('no field labelled ' + text);
  f.focus();
  return true;
}
