// visibility.js -- computed-style reads, cached once per element per call,
// and the rules for what is hidden from the accessibility tree.
//
// A Ctx lives for one bridge call (one snapshot, one describe, ...).  Every
// style or box read goes through it, so an element's style is read at most
// once per call and a read that throws is counted in `unmeasurable` rather
// than silently treated as hidden.

import * as N from './natives.js';
import { ariaToken, flatParent, isElement, tagOf } from './dom.js';

// The style record used when the real one cannot be read: rendered,
// visible, no pointer cursor.
const UNKNOWN_STYLE = Object.freeze({
  display: 'inline',
  visibility: 'visible',
  cursor: 'auto',
  cs: null,
  known: false,
});

const NO_LABELS = Object.freeze([]);

export class Ctx {
  constructor() {
    this.styles = new Map();
    this.boxes = new Map();
    this.names = new Map();
    this.hidden = new Map();
    this.pseudo = new Map();
    this.labelMaps = new Map();
    this.unmeasurable = 0;
    this.failed = new Set();
  }

  // The style record of el: { display, visibility, cursor, cs, known },
  // where cs is the live computed style for other reads (null if unknown).
  style(el) {
    let s = this.styles.get(el);
    if (s) return s;
    try {
      const cs = N.computedStyle(el);
      s = {
        display: cs.display,
        visibility: cs.visibility,
        cursor: cs.cursor,
        cs,
        known: true,
      };
    } catch (e) {
      this.fail(el);
      s = UNKNOWN_STYLE;
    }
    this.styles.set(el, s);
    return s;
  }

  // The bounding box of el as { x, y, w, h }, or null when it cannot be read.
  box(el) {
    let b = this.boxes.get(el);
    if (b !== undefined) return b;
    try {
      const r = N.getBoundingClientRect(el);
      b = { x: r.x, y: r.y, w: r.width, h: r.height };
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
    let v = this.pseudo.get(root);
    if (v === undefined) {
      v = treeHasPseudoRules(root);
      this.pseudo.set(root, v);
    }
    return v;
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
        const control = N.labelControl(labels[i]);
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

const PSEUDO_SELECTOR = /:(?:before|after)\b/i;

function sheetHasPseudoRules(sheet) {
  let rules;
  try {
    rules = sheet.cssRules;
  } catch (e) {
    return true; // a cross-origin sheet cannot be read: assume it may
  }
  return rulesHavePseudo(rules);
}

function rulesHavePseudo(rules) {
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i];
    if (r.selectorText !== undefined && PSEUDO_SELECTOR.test(r.selectorText)) return true;
    if (r.cssRules && r.cssRules.length > 0 && rulesHavePseudo(r.cssRules)) return true;
  }
  return false;
}

function treeHasPseudoRules(root) {
  const lists = [root.styleSheets, root.adoptedStyleSheets];
  for (const list of lists) {
    if (!list) continue;
    for (let i = 0; i < list.length; i++) {
      if (sheetHasPseudoRules(list[i])) return true;
    }
  }
  return false;
}

// True when el's own style removes it and its subtree from rendering.
export function isDisplayNone(ctx, el) {
  return ctx.style(el).display === 'none';
}

// True when el's own box is invisible (its children may still be visible).
export function isVisibilityHidden(ctx, el) {
  const v = ctx.style(el).visibility;
  return v === 'hidden' || v === 'collapse';
}

// Elements that are never rendered, whatever their style says.
const NEVER_RENDERED = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base']);

// SVG elements whose content is never drawn as text.
const SVG_NOT_RENDERED = new Set(['title', 'desc', 'metadata', 'defs', 'style', 'script',
  'clipPath', 'mask', 'pattern', 'symbol', 'linearGradient', 'radialGradient', 'filter']);

export function isNeverRendered(el) {
  const tag = tagOf(el);
  const ns = N.namespaceURI(el);
  if (ns === N.HTML_NS) return NEVER_RENDERED.has(tag);
  return ns === N.SVG_NS && SVG_NOT_RENDERED.has(tag);
}

// True when el hides its whole subtree from the accessibility tree on its
// own account: aria-hidden=true, inert, display:none, never-rendered tags.
export function hidesSubtree(ctx, el) {
  if (isNeverRendered(el)) return true;
  if (ariaToken(el, 'aria-hidden') === 'true') return true;
  if (N.hasAttribute(el, 'inert')) return true;
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

// True when el has a non-empty box and receives pointer events.
export function isActionable(ctx, el) {
  const cs = ctx.style(el).cs;
  if (cs && cs.pointerEvents === 'none') return false;
  const b = ctx.box(el);
  return b !== null && b.w > 0 && b.h > 0;
}
