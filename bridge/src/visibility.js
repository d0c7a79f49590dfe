// visibility.js -- computed-style reads, cached once per element per call,
// and the rules for what is hidden from the accessibility tree.
//
// A Ctx lives for one bridge call (one snapshot, one describe, ...).  Every
// style or box read goes through it, so an element's style is read at most
// once per call and a read that throws is counted in `unmeasurable` rather
// than silently treated as hidden.

import * as N from './natives.js';
import { GEOMETRY_TARGETS } from './geometry.js';
import { ariaToken, attr, flatParent, isElement, tagOf } from './dom.js';
import {
  addCandidates, INHERIT_CURSOR, INHERIT_EVENTS, INHERIT_VISIBILITY, MARKUP_NO_POINTER, MARKUP_POINTER,
  MARKUP_READ, scanTree,
} from './sheets.js';

// Style flags of an element.  The last three are inherited properties.
export const F_NONE = 1;       // display: none
export const F_HIDDEN = 2;     // visibility: hidden or collapse
export const F_POINTER = 4;    // cursor: pointer
export const F_NO_EVENTS = 8;  // pointer-events: none
export const F_INHERITED = F_HIDDEN | F_POINTER | F_NO_EVENTS;

const NO_LABELS = Object.freeze([]);

export class Ctx {
  constructor() {
    this.flagMap = new Map();
    this.displays = new Map();
    this.boxes = new Map();
    this.names = new Map();
    this.contents = new Map();
    this.hidden = new Map();
    this.trees = new Map();
    this.pseudoOwners = new Map();   // tree root -> the elements a ::before/::after rule is for, or null
    this.labelMaps = new Map();
    this.transforms = new Map();
    this.candidates = new Set();
    // Which inherited properties the rules behind candidates set.
    this.candidateSet = 0;
    this.readAll = false;
    // Elements a rule may take the box from (see sheets.js), and whether
    // that cannot be told for some tree.
    this.boxCandidates = new Set();
    this.boxAll = false;
    // The links and buttons a rule of the document may change the geometry
    // of, and
    // whether the document's links and buttons may have their box proved
    // at all (see geometry.js).
    this.geomCandidates = new Set();
    this.geometry = false;
    // Set by walkFlags: whether the children of the element it was given
    // are known to lie in a box that lays them out (see boxByMarkup).
    this.childBoxed = false;
    // True while every style flag known was read by walkFlags in the
    // current walk, which visits each element once: an element it meets
    // then has no flags yet, and the lookup is spared (see walkFlags).
    this.fresh = true;
    this.unmeasurable = 0;
    this.failed = new Set();
    // Where hasBox keeps each box it reads (element -> DOMRect), when set:
    // a real snapshot's boxes, which a later click compares with (see
    // still.js).
    this.rects = null;
  }

  // The style flags of el (F_*), read from its computed style once per
  // call.  An element whose style cannot be read counts as rendered,
  // visible, without a pointer cursor.
  flags(el) {
    const f = this.flagMap.get(el);
    if (f !== undefined) return f;
    this.fresh = false;
    return this.readStyle(el);
  }

  // The computed display of el.
  display(el) {
    const d = this.displays.get(el);
    if (d !== undefined) return d;
    this.fresh = false;
    this.readStyle(el);
    return this.displays.get(el);
  }

  // Reads el's style flags.  With `layout`, el is known to be laid out by
  // its parent unless its own display is none, and this.childBoxed is set
  // to whether its display and content-visibility lay out its children.
  readStyle(el, layout) {
    let f = 0;
    let display = 'inline';
    let children = false;
    try {
      const cs = N.computedStyle(el);
      display = cs.display;
      if (display === 'none') {
        f = F_NONE;
      } else {
        const v = cs.visibility;
        if (v === 'hidden' || v === 'collapse') f |= F_HIDDEN;
        if (cs.cursor === 'pointer') f |= F_POINTER;
        if (cs.pointerEvents === 'none') f |= F_NO_EVENTS;
        if (layout === true) children = LAYOUT_DISPLAYS.has(display) && cs.contentVisibility !== 'hidden';
      }
    } catch (e) {
      this.fail(el);
    }
    this.flagMap.set(el, f);
    this.displays.set(el, display);
    if (layout === true) this.childBoxed = children;
    return f;
  }

  // The flags of el during a top-down walk, given the flags of its
  // flat-tree parent: the inherited ones are the parent's unless a style
  // rule may target el (see sheets.js), and a native box check stands in
  // for display.  Same result as flags(el), with fewer style reads.
  // `read` forces the full read (an element not under its parent in the
  // walk, such as one moved by aria-owns); `markup` is what el's own
  // markup does to the inherited properties (a MARKUP_* of markupStyle).
  // `direct` says el is not a form (see elementTag in dom.js), so its
  // methods can be called directly.  Flags decided
  // without a style read are kept for later calls only when `keep` is
  // true: they are the parent's, and a later flags(el) reads the same.
  // `boxTag` says el's markup gives it a box laying out its children
  // (boxByMarkup) and `parentBoxed` that its parent has one: then, unless
  // a rule may take its box, el has one too and needs no box check; when
  // a rule may, el's own style is read, which tells whether it lays out
  // its children.  `leaf` says el has no children and leaves no trace in
  // the snapshot but a Sep (see tidy.js), which its display tells apart:
  // its box needs no check either.  Sets this.childBoxed for el's children.
  walkFlags(el, parentFlags, read, markup, direct, keep, boxTag, parentBoxed, leaf) {
    const boxable = boxTag && !this.boxAll && !(this.boxCandidates.size > 0 && this.boxCandidates.has(el));
    const inferred = boxable && parentBoxed;
    const layout = boxTag && parentBoxed && !boxable && !this.boxAll;
    if (!this.fresh) {
      const known = this.flagMap.get(el);
      if (known !== undefined) {
        this.childBoxed = inferred;
        return known;
      }
    }
    if (read || markup === MARKUP_READ || this.readAll ||
        (this.candidates.size > 0 && this.candidates.has(el))) {
      this.childBoxed = inferred;
      // A candidate with a box: only what its rules may set is read.
      if (inferred && !read && markup !== MARKUP_READ && !this.readAll) {
        return this.readInherited(el, inheritedFlags(parentFlags, markup));
      }
      return this.readStyle(el, layout);
    }
    if (layout) return this.readStyle(el, true);
    let rendered = inferred;
    if (!rendered && leaf === true) {
      // Taken as rendered, not kept: a later flags(el) reads its style.
      this.childBoxed = false;
      return inheritedFlags(parentFlags, markup);
    }
    if (!rendered) {
      try {
        rendered = direct === true ? el.checkVisibility() : N.checkVisibility(el);
      } catch (e) {
        rendered = false;
      }
    }
    this.childBoxed = rendered && boxable;
    // No box: display none or contents, or content nothing renders (select
    // options, canvas fallback, ...).  Only the full read can tell.
    if (!rendered) return this.readStyle(el);
    const f = inheritedFlags(parentFlags, markup);
    if (keep === true) this.flagMap.set(el, f);
    return f;
  }

  // The flags of el, which has a box and which only the rules behind
  // candidates give inherited properties of its own: f (its parent's and
  // its markup's) with the properties those rules set read from its style.
  // Kept, like a full read.
  readInherited(el, f) {
    const set = this.candidateSet;
    try {
      const cs = N.computedStyle(el);
      if ((set & INHERIT_VISIBILITY) !== 0) {
        const v = cs.visibility;
        f = v === 'hidden' || v === 'collapse' ? f | F_HIDDEN : f & ~F_HIDDEN;
      }
      if ((set & INHERIT_CURSOR) !== 0) f = cs.cursor === 'pointer' ? f | F_POINTER : f & ~F_POINTER;
      if ((set & INHERIT_EVENTS) !== 0) f = cs.pointerEvents === 'none' ? f | F_NO_EVENTS : f & ~F_NO_EVENTS;
    } catch (e) {
      this.fail(el);
      f = 0;
    }
    this.flagMap.set(el, f);
    return f;
  }

  // The scan of a tree's style sheets (see sheets.js), once per call.
  tree(root) {
    let scan = this.trees.get(root);
    if (scan === undefined) {
      scan = scanTree(root);
      this.trees.set(root, scan);
    }
    return scan;
  }

  // Prepares walkFlags for the elements of a tree: records which of them
  // a style rule may give their own inherited properties.
  enterTree(root) {
    const scan = this.tree(root);
    if (scan.entered) return;
    scan.entered = true;
    if (!addCandidates(root, scan.inherit, this.candidates)) this.readAll = true;
    this.candidateSet |= scan.inheritSet;
    if (!addCandidates(root, scan.box, this.boxCandidates)) this.boxAll = true;
    if (N.nodeType(root) === N.DOCUMENT_NODE) {
      this.geometry = addCandidates(root, scan.geom, this.geomCandidates, GEOMETRY_TARGETS) &&
        plainTopLayer(root);
    }
  }

  // Records that el's box is known to be non-empty (see geometry.js).
  knowBox(el) {
    this.boxes.set(el, true);
  }

  // Records el's computed display, known without reading it.
  knowDisplay(el, display) {
    this.displays.set(el, display);
  }

  // True when el has a non-empty box, false when its box is empty, null
  // when it cannot be read.
  hasBox(el) {
    let b = this.boxes.get(el);
    if (b !== undefined) return b;
    try {
      const r = N.getBoundingClientRect(el);
      b = r.width > 0 && r.height > 0;
      if (this.rects !== null) this.rects.set(el, r);
    } catch (e) {
      this.fail(el);
      b = null;
    }
    this.boxes.set(el, b);
    return b;
  }

  // False when no style sheet of el's tree (document or shadow root) can
  // give a ::before or ::after content, so pseudo-elements need no reads.
  mayHavePseudo(el) {
    const root = N.getRootNode(el);
    const scan = this.tree(root);
    if (!scan.pseudo) return false;
    if (scan.pseudoOwners === null) return true;
    let owners = this.pseudoOwners.get(root);
    if (owners === undefined) {
      owners = new Set();
      if (!addCandidates(root, scan.pseudoOwners, owners)) owners = null;
      this.pseudoOwners.set(root, owners);
    }
    return owners === null || owners.has(el);
  }

  // False when no style of el's tree or of the document can set
  // text-transform, so text needs no transform read.
  mayTransform(el) {
    const root = N.getRootNode(el);
    if (this.tree(root).transform) return true;
    const doc = N.ownerDocument(el);
    return doc !== null && doc !== root && this.tree(doc).transform;
  }

  // The computed text-transform of el, read once per call.
  textTransform(el) {
    let t = this.transforms.get(el);
    if (t === undefined) {
      try {
        t = N.computedStyle(el).textTransform;
      } catch (e) {
        this.fail(el);
        t = 'none';
      }
      this.transforms.set(el, t);
    }
    return t;
  }

  // The <label> elements of el, in tree order.  The labels of a whole tree
  // (document or shadow root) are gathered once per Ctx: asking each
  // control for its own labels would scan the tree once per control.
  labelsOf(el) {
    const root = N.getRootNode(el);
    let map = this.labelMaps.get(root);
    if (map === undefined) {
      map = new Map();
      const type = N.nodeType(root);
      const labels = type === N.DOCUMENT_NODE ? N.docQuerySelectorAll(root, 'label')
        : type === N.DOCUMENT_FRAGMENT_NODE ? N.fragQuerySelectorAll(root, 'label') : [];
      for (let i = 0; i < labels.length; i++) {
        const control = N.labelControl(labels[i]) || hiddenInputFor(root, type, labels[i]);
        if (!control) continue;
        const list = map.get(control);
        if (list) list.push(labels[i]);
        else map.set(control, [labels[i]]);
      }
      this.labelMaps.set(root, map);
    }
    return map.get(el) || NO_LABELS;
  }

  fail(el) {
    if (!this.failed.has(el)) {
      this.failed.add(el);
      this.unmeasurable++;
    }
  }
}

// Displays whose box lays out the element's children (as boxes of their
// own, or, for contents, in the parent's box).
const LAYOUT_DISPLAYS = new Set(['block', 'inline', 'inline-block', 'flex', 'inline-flex', 'grid',
  'inline-grid', 'flow-root', 'list-item', 'contents', 'table', 'inline-table', 'table-row',
  'table-cell', 'table-row-group', 'table-header-group', 'table-footer-group', 'table-caption']);

// The flags of an element no rule styles, from its parent's flags and what
// its markup does (a MARKUP_* of markupStyle).
function inheritedFlags(parentFlags, markup) {
  let f = parentFlags & F_INHERITED;
  if (markup === MARKUP_POINTER) f |= F_POINTER;
  else if (markup === MARKUP_NO_POINTER) f &= ~F_POINTER;
  return f;
}

// True when no font face was added to doc (by @font-face or script: a
// face may have any metrics, so only the system's fonts are trusted) and
// no element of it is fullscreen (the top layer sets its position).
function plainTopLayer(doc) {
  try {
    return N.fontSetSize(N.docFonts(doc)) === 0 && N.docFullscreenElement(doc) === null;
  } catch (e) {
    return false;
  }
}

// True when el's own style removes it and its subtree from rendering.
export function isDisplayNone(ctx, el) {
  return (ctx.flags(el) & F_NONE) !== 0;
}

// True when el's own box is invisible (its children may still be visible).
export function isVisibilityHidden(ctx, el) {
  return (ctx.flags(el) & F_HIDDEN) !== 0;
}

// Elements that are never rendered, whatever their style says.
const NEVER_RENDERED = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base']);

// SVG elements whose content is never drawn as text.
const SVG_NOT_RENDERED = new Set(['title', 'desc', 'metadata', 'defs', 'style', 'script',
  'clipPath', 'mask', 'pattern', 'symbol', 'linearGradient', 'radialGradient', 'filter']);

export function isNeverRendered(el) {
  return neverRendered(tagOf(el), N.namespaceURI(el));
}

// isNeverRendered for an element of local name tag in namespace ns.
export function neverRendered(tag, ns) {
  if (ns === N.HTML_NS) return NEVER_RENDERED.has(tag);
  return ns === N.SVG_NS && SVG_NOT_RENDERED.has(tag);
}

// True when el hides its whole subtree from the accessibility tree on its
// own account: aria-hidden=true, inert, display:none, never-rendered tags.
export function hidesSubtree(ctx, el) {
  if (isNeverRendered(el)) return true;
  if (ariaToken(el, 'aria-hidden') === 'true') return true;
  if (N.hasAttribute(el, 'inert')) return true;
  // An image map's areas have no box of their own (display: none) yet are
  // exposed as the image's links.
  if (N.localName(el) === 'area' && N.namespaceURI(el) === N.HTML_NS) return false;
  return isDisplayNone(ctx, el);
}

// True when child is content of a closed <details> (anything but its first
// <summary>), which is not rendered.
export function isClosedDetailsContent(details, child) {
  if (N.detailsOpen(details)) return false;
  if (!isElement(child) || tagOf(child) !== 'summary') return true;
  let c = N.firstChild(details);
  while (c) {
    if (isElement(c) && tagOf(c) === 'summary') return c !== child;
    c = N.nextSibling(c);
  }
  return true;
}

// True when el is hidden from the accessibility tree, looking at el and all
// of its flat-tree ancestors.  Used outside the snapshot walk (which checks
// top-down as it goes).
export function isHiddenForAria(ctx, el) {
  const cached = ctx.hidden.get(el);
  if (cached !== undefined) return cached;
  let hidden = false;
  if (isVisibilityHidden(ctx, el)) hidden = true;
  for (let n = el, child = null; !hidden && n; child = n, n = flatParent(n)) {
    if (!isElement(n)) continue;
    if (hidesSubtree(ctx, n)) hidden = true;
    else if (child && tagOf(n) === 'details' && isClosedDetailsContent(n, child)) hidden = true;
  }
  ctx.hidden.set(el, hidden);
  return hidden;
}

// Why el is hidden from the accessibility tree with its whole subtree,
// in words ("display:none on <div#menu>"), or null when it is not: it or
// a flat-tree ancestor is aria-hidden, inert, not rendered, or closed
// <details> content.  With visual true, only what keeps it off the
// screen counts (not aria-hidden or inert, which hide it from assistive
// technology alone).
export function subtreeHiddenReason(ctx, el, visual) {
  for (let n = el, child = null; n; child = n, n = flatParent(n)) {
    if (!isElement(n)) continue;
    const on = n === el ? '' : ' on its ancestor ' + describeElement(n);
    if (isNeverRendered(n)) return 'never rendered (' + describeElement(n) + ')';
    if (!visual && ariaToken(n, 'aria-hidden') === 'true') return 'aria-hidden="true"' + on;
    if (!visual && N.hasAttribute(n, 'inert')) return 'inert' + on;
    if (isDisplayNone(ctx, n)) {
      return (N.hasAttribute(n, 'hidden') ? 'the hidden attribute (display:none)' : 'display:none') + on;
    }
    if (child && tagOf(n) === 'details' && isClosedDetailsContent(n, child)) return 'inside a closed <details>';
  }
  return null;
}

// <tag#id> or <tag>, for a message.
function describeElement(el) {
  const id = attr(el, 'id');
  return '<' + tagOf(el) + (id ? '#' + id : '') + '>';
}

// The input type=hidden a label's `for` names, or null.  HTML does not
// make such an input labelable (label.control is null), but HTML-AAM's
// tests name it from its labels, and Chromium's tree does too.
function hiddenInputFor(root, type, label) {
  const id = attr(label, 'for');
  if (!id) return null;
  const el = type === N.DOCUMENT_NODE ? N.docGetElementById(root, id) : N.fragGetElementById(root, id);
  return el && tagOf(el) === 'input' && N.inputType(el) === 'hidden' ? el : null;
}

// True when el is hidden from all users, not only from assistive
// technology: it or a flat-tree ancestor is not rendered (display:none,
// the hidden attribute, a tag never rendered), or its own box is invisible.
// aria-hidden and inert do not count.  WAI-ARIA: aria-owns is not resolved
// to such an element.
export function isHiddenFromAllUsers(ctx, el) {
  if (isVisibilityHidden(ctx, el)) return true;
  for (let n = el; n; n = flatParent(n)) {
    if (!isElement(n)) continue;
    if (isNeverRendered(n) || isDisplayNone(ctx, n)) return true;
  }
  return false;
}

// True when el has a non-empty box and receives pointer events; flags,
// when given, are el's (see Ctx.flags).
export function isActionable(ctx, el, flags) {
  if (((flags === undefined ? ctx.flags(el) : flags) & F_NO_EVENTS) !== 0) return false;
  return ctx.hasBox(el) === true;
}
