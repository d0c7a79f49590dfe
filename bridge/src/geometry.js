// geometry.js -- when the walk knows, without reading it, that a link or a
// button has a non-empty box (width and height above zero, as
// Ctx.hasBox reads it): each such read costs a layout query, and links and
// buttons are most of the elements a snapshot gives a ref.
//
// The proof rests on the user-agent style sheet and on what the author
// sheets can do.  scanTree (sheets.js) asks geometryClass() of every rule:
//   G_HARMLESS  its declarations cannot make any box empty (colours,
//               cursors, backgrounds, fonts of at least MIN_FONT_PX, ...);
//   G_SELF      they can only change the box of the element they style and
//               how its children are laid out (sizes, margins, padding,
//               borders, display, position, flex and grid, ...): the
//               links and buttons its selectors match (GEOMETRY_TARGETS)
//               are read as before;
//   G_ANY       they may empty the box of a descendant (a transform, a
//               zoom, a font size, letter spacing, anything not listed):
//               then nothing is inferred in that tree.
// Under those rules, an HTML element keeps the user-agent geometry when no
// G_SELF rule matches it and no inline style, presentation attribute or
// shadow tree stands between it and the document's root (GEOMETRY_TAGS
// along the way), and its parent lays it out in flow (a GEOMETRY_TAGS
// element that no rule may give a display: not a flex or grid container,
// which would blockify it).  Then:
//   - a <button> is an inline-block with 1px/6px padding and a 2px border:
//     at least 16 by 6 pixels whatever its content;
//   - an <a> whose first child is text with a printable ASCII character
//     is an inline box holding that text, in a font of at least
//     MIN_FONT_PX with its normal line height: wider and higher than zero.
// The caller (the walk) adds that the element has a box at all (boxByMarkup
// under a parent with a box, or a native box check).

import * as N from './natives.js';

export const G_HARMLESS = 0;
export const G_SELF = 1;
export const G_ANY = 2;

// The smallest font size (an absolute px value) a rule may set and still
// count as harmless: well above the sizes whose rounded font metrics are 0.
const MIN_FONT_PX = 4;

// Tags whose user-agent style gives no font size of their own below 1em,
// no transform and a display that is block, inline or list-item: an
// element of one of these passes the proof on to its children.
export const GEOMETRY_TAGS = new Set(['html', 'body', 'main', 'div', 'section', 'article', 'header',
  'footer', 'nav', 'aside', 'ul', 'ol', 'li', 'p', 'form', 'label', 'span', 'a', 'strong', 'b', 'em',
  'i', 'h2', 'h3', 'h4', 'address', 'blockquote', 'figure', 'figcaption', 'dl', 'dt', 'dd']);

// The elements whose geometry the walk may infer, as a selector that
// narrows the query for the rules' candidates (see addCandidates).
export const GEOMETRY_TARGETS = ':is(a, button)';

// The user-agent display of the targets: their computed display under the
// same conditions (no rule may set their display, float or position, and
// their parent does not blockify them), unless they are in the top layer
// (fullscreen), which the caller rules out.
export const UA_DISPLAY = new Map([['a', 'inline'], ['button', 'inline-block']]);

const HARMLESS = new Set(['color', 'cursor', 'pointer-events', 'visibility', 'opacity', 'z-index',
  'box-shadow', 'text-shadow', 'text-align', 'text-align-last', 'text-indent', 'text-transform',
  'white-space', 'white-space-collapse', 'text-wrap', 'text-wrap-mode', 'text-wrap-style',
  'word-break', 'overflow-wrap', 'word-wrap', 'hyphens', 'tab-size', 'caret-color', 'accent-color',
  'user-select', 'filter', 'quotes', 'color-scheme', 'forced-color-adjust', 'print-color-adjust',
  'text-rendering', 'image-rendering', 'isolation', 'mix-blend-mode', 'vertical-align',
  'touch-action', 'scroll-behavior', 'counter-reset', 'counter-increment', 'counter-set']);
const HARMLESS_PREFIXES = ['background-', 'outline-', 'text-decoration-', 'list-style-',
  'transition-', 'text-emphasis-', 'scroll-margin', 'scroll-padding', '--'];

const SELF = new Set(['width', 'height', 'min-width', 'min-height', 'max-width', 'max-height',
  'block-size', 'inline-size', 'min-block-size', 'min-inline-size', 'max-block-size',
  'max-inline-size', 'display', 'gap', 'row-gap', 'column-gap', 'order', 'box-sizing', 'position',
  'top', 'right', 'bottom', 'left', 'float', 'clear', 'object-fit', 'object-position',
  'aspect-ratio', 'contain', 'table-layout',
  'border-collapse', 'border-spacing', 'caption-side', 'empty-cells', 'box-decoration-break',
  'resize']);
const SELF_PREFIXES = ['margin', 'padding', 'border-', 'grid-', 'flex', 'justify-', 'align-',
  'place-', 'overflow', 'inset', 'contain-intrinsic-', 'overscroll-behavior'];

// The class of a property whose value does not matter, cached by name.
const classes = new Map();

function classOfName(name) {
  let c = classes.get(name);
  if (c !== undefined) return c;
  if (HARMLESS.has(name) || HARMLESS_PREFIXES.some((p) => name.startsWith(p))) c = G_HARMLESS;
  else if (SELF.has(name) || SELF_PREFIXES.some((p) => name.startsWith(p))) c = G_SELF;
  else if (name.startsWith('font-')) c = G_HARMLESS;
  else c = G_ANY;
  classes.set(name, c);
  return c;
}

const PX = /^(\d+(?:\.\d+)?)px$/;

// The class of a declaration block (a CSSStyleDeclaration): the highest of
// its properties'.  Font size, line height and font-size-adjust count as
// harmless only with values that cannot shrink text to nothing.
export function geometryClass(style) {
  let worst = G_HARMLESS;
  for (let i = 0; i < style.length; i++) {
    const name = style[i];
    let c;
    if (name === 'font-size') {
      const m = PX.exec(style.getPropertyValue(name));
      c = m !== null && Number(m[1]) >= MIN_FONT_PX ? G_HARMLESS : G_ANY;
    } else if (name === 'line-height') {
      c = style.getPropertyValue(name) === 'normal' ? G_HARMLESS : G_ANY;
    } else if (name === 'font-size-adjust') {
      c = style.getPropertyValue(name) === 'none' ? G_HARMLESS : G_ANY;
    } else {
      c = classOfName(name);
    }
    if (c === G_ANY) return G_ANY;
    if (c > worst) worst = c;
  }
  return worst;
}

// A selector list that is one selector ending in ::before, ::after or
// ::marker: its declarations style a pseudo-element, which only adds to
// its element's box.
const OWN_PSEUDO = /^[^,]*::?(?:before|after|marker)\s*$/i;

// Records in scan.geom what a style rule (selector, declarations style)
// does to geometry; `flat` says its selector applies as written (not
// nested, not reaching across shadow trees).  scan.geom becomes null when
// the proof cannot hold in this tree.
export function scanGeometry(scan, selector, style, flat) {
  if (scan.geom === null || !style || OWN_PSEUDO.test(selector)) return;
  const c = geometryClass(style);
  if (c === G_HARMLESS) return;
  if (c === G_SELF && flat) scan.geom.push(selector);
  else scan.geom = null;
}

// Declarations outside a style rule (a keyframe, @font-face, @page, ...):
// anything but harmless ones ends the proof for the tree.
export function scanLooseGeometry(scan, style) {
  if (scan.geom !== null && style && geometryClass(style) !== G_HARMLESS) scan.geom = null;
}

// True when the box of el, an HTML <a> or <button> the walk has proved is
// laid out with the user-agent geometry (see above), is non-empty.
export function boxByGeometry(el, tag) {
  if (tag === 'button') return true;
  if (tag !== 'a') return false;
  const c = el.firstChild;
  return c !== null && c.nodeType === N.TEXT_NODE && PRINTABLE.test(c.data);
}

const PRINTABLE = /[!-~]/;
