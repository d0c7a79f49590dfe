// floor-walk.js -- the raw floor's DOM walk (bench/scale.mjs, the "floor"
// row of `make bench-scale`): what a page costs to read with no bridge at
// all.  Evaluated in the main world by Runtime.evaluate as `(walk)()`; it
// visits every element and text node of the document once (open shadow
// roots included), writes one indented line per element with its tag and
// its own text, and returns the text, so its transfer back is part of it.
function () {
  const out = [];
  const visit = (node, depth) => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1) {
        let own = '';
        for (let t = c.firstChild; t; t = t.nextSibling) {
          if (t.nodeType === 3) own += t.data;
        }
        own = own.trim();
        out.push(' '.repeat(depth * 2) + '- ' + c.localName + (own ? ': ' + own : ''));
        if (c.shadowRoot) visit(c.shadowRoot, depth + 1);
        visit(c, depth + 1);
      }
    }
  };
  if (document.body) visit(document.body, 0);
  return out.join('\n');
}
