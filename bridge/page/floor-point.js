// floor-point.js -- the floor's click target (bench/inproc.lua floor, the
// floor column of `make bench-peers`): what a CDP client with no bridge
// must do before it presses, in one Runtime.evaluate in the main world as
// `(this function)(text)`: find the first button whose text is `text`,
// scroll it into view if need be, and give the centre of its box as
// [x, y] in the viewport.  Throws when no button has that text.
function (text) {
  const b = [...document.querySelectorAll('button')].find((e) => e.textContent.trim() === text);
  if (!b) throw new Error('no button ' + text);
  b.scrollIntoView({ block: 'nearest' });
  const r = b.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}
