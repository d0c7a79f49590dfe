// snapshot.js -- one pass over the flat tree that builds a compact
// accessibility tree: nodes { el, role, name, states, value, url, ref?,
// frame?, children } and strings for text.
//
// Generic wrappers without a ref are flattened (their children join the
// parent); text-level roles (strong, emphasis, ...) are flattened into the
// surrounding text.  Each element's style is read once through the Ctx.

import * as N from './natives.js';
import {
  ariaToken, attr, deepActiveElement, elementTag, hasAttr, idRefs, isHTML,
} from './dom.js';
import {
  getRole, NAME_FROM_CONTENT, WALK_ATTRIBUTES,
} from './roles.js';
import { textNamed } from './name.js';
import {
  Ctx, F_HIDDEN, F_INHERITED, F_NONE, F_POINTER, isActionable, isClosedDetailsContent,
  isHiddenForAria, isHiddenFromAllUsers, neverRendered, subtreeHiddenReason,
} from './visibility.js';
import { render, MAX_RUN } from './text.js';
import { safeCut, spend, runSpend } from './budget.js';
import { boxByMarkup, markupStyle } from './sheets.js';
import { boxByGeometry, GEOMETRY_TAGS, UA_DISPLAY } from './geometry.js';
import { bridgeError, checkKeys } from './errors.js';
import { capOptions, fillControl } from './states.js';
import { finish, Sep } from './tidy.js';
import { pseudoText } from './csstext.js';
import { containerKind, isRefWorthy } from './refworthy.js';
import { renderCompact } from './compact.js';
import { createNode, cutDataUrl, fragmentNode, nameNode, placeholderOf, titleOf } from './snapnode.js';

// Roles that are flattened when they carry no ref.
const FLATTENED = new Set([
  'generic', 'none', 'presentation', 'emphasis', 'strong', 'mark', 'subscript',
  'superscript', 'time', 'code', 'rowgroup',
]);

// Void elements that, flattened, leave only a Sep in the snapshot.
const LEAF_TAGS = new Set(['img', 'br', 'wbr']);

// Replaced and void elements, whose ::before and ::after are not rendered.
const NO_PSEUDO_TAGS = new Set(['img', 'br', 'wbr', 'input', 'select', 'textarea', 'video', 'audio',
  'canvas', 'embed', 'object', 'hr', 'meter', 'progress']);

// The elements that can host a shadow root besides custom elements (DOM,
// attachShadow): any other element's shadowRoot is null, unread.
const SHADOW_HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);

// The attribute names of WALK_ATTRIBUTES (a selector list of [name]s).
const WALK_NAMES = new Set(WALK_ATTRIBUTES.slice(1, -1).split('],['));

const SNAPSHOT_OPTIONS = ['root', 'depth', 'maxOptions', 'maxElements', 'maxChars', 'fromLine', 'keepNames',
  'mode', 'interactive'];

// Bits of the walk's inherited state besides the inherited style flags
// (F_HIDDEN, F_POINTER, F_NO_EVENTS of the flat-tree parent).
const W_DISABLED = 16;  // an ancestor has aria-disabled=true
const W_NO_TEXT = 32;   // text is left out (inside a label of a rendered control)
const W_NAMED = 64;     // a name may be computed from an ancestor's content
const W_BOXED = 128;    // the flat-tree parent has a box laying out its children
// The flat-tree ancestors keep the user-agent geometry, and the parent also
// its display (see geometry.js).  Neither holds for an element visited
// outside its parent (aria-owns).
const W_GEOMETRY = 256;
const W_FLOW = 512;

// Tags whose content may name them or another element (see keepsFlags).
const NAMING_TAGS = new Set(['label', 'legend', 'caption', 'figcaption', 'fieldset', 'figure', 'table']);


// Runs a snapshot.  env is the instance's { refs, frameKeys }.  With
// maxChars (the host's budget in characters) and fromLine (its offset in
// lines), the walk stops once its text has, by estimate, more than that
// many characters after line fromLine; the text then holds the first
// lines, exactly as the whole text starts, up to and including the line
// that passes the budget, and `more_lines` / `more_chars` estimate what
// was left unwalked.  An estimate that fell short walks again, four times
// as far, then whole; the walks share one Ctx (the page cannot change
// between them), so a walk again reads no style, box or name twice.
export function snapshot(env, options) {
  const opts = options || {};
  checkKeys(opts, SNAPSHOT_OPTIONS, 'snapshot');
  if (opts.mode != null && opts.mode !== 'ai' && opts.mode !== 'aria') {
    throw bridgeError('InvalidArgument', 'snapshot: mode must be "ai" or "aria", not ' + JSON.stringify(opts.mode));
  }
  const maxChars = opts.maxChars == null || !(opts.maxChars < 2 ** 31) ? Infinity
    : Math.max(1, opts.maxChars | 0);
  const fromLine = opts.fromLine == null ? 0 : Math.max(0, opts.fromLine | 0);
  // The estimate counts every node, so with a depth limit (whose hidden
  // lines are not text) it would stop far too soon: such a walk is whole.
  let slack = opts.depth == null ? 1.5 : Infinity;
  const ctx = new Ctx();
  ctx.rects = env.building ? env.building.rects : null;
  // What the walks read, for the engines of the reads that follow (batch.js).
  env.reading = ctx;
  for (;;) {
    const budget = maxChars === Infinity || slack > 10 ? null
      : { fromLine, cutChars: maxChars, maxChars: maxChars * slack + 512, lines: 0, chars: 0, stopped: false };
    const r = snapshotOnce(ctx, env, opts, budget);
    if (r !== null) return r;
    ctx.fresh = false;
    slack *= 4;
  }
}

// One walk and its text (see snapshot); null when a walk stopped by the
// budget did not reach far enough to cut its text exactly.
function snapshotOnce(ctx, env, opts, budget) {
  // One query for the two attributes the walk must know of beforehand.
  const marked = N.docQuerySelectorAll(document, '[contenteditable],[aria-owns]');
  let editable = document.designMode === 'on';
  const owners = [];
  for (let i = 0; i < marked.length; i++) {
    if (N.hasAttribute(marked[i], 'aria-owns')) owners.push(marked[i]);
    if (N.hasAttribute(marked[i], 'contenteditable')) editable = true;
  }
  const walk = {
    ctx,
    env,
    count: 0,
    maxOptions: opts.maxOptions == null ? 10 : Math.max(0, opts.maxOptions | 0),
    // Elements visited at most (the idle-time warm-up walks part of a page).
    limit: opts.maxElements == null ? Infinity : Math.max(1, opts.maxElements | 0),
    budget,
    // Playwright's aria-snapshot dialect (see render): a visibility:hidden
    // element hides its whole subtree, as there.
    aria: opts.mode === 'aria',
    // The interactive-only text (compact.js): the budget counts only what
    // it prints, elements to act on and headings.
    compact: opts.interactive === true,
    active: deepActiveElement(document),
    owned: new Map(),
    ownedDone: new Set(),
    // Whether any element can be editable, which makes it focusable.
    editable,
    // Whether an element's textContent is the text of its text nodes
    // (see leafText): in an XML document CDATA sections count too.
    textContent: N.docContentType(document) === 'text/html',
    // Whether every child of an element of the document that holds no
    // element is a text node (see visitTextChildren): no comment or
    // processing instruction in the document.
    onlyText: false,
    // Whether every element visited so far is in the document: no shadow
    // tree entered.
    inDocument: true,
    // Whether no sheet of the document may add a ::before or ::after or
    // set text-transform (see plainContentName).
    plainDocument: false,
  };
  walk.onlyText = walk.textContent && noComment(document);
  let rootEl = N.documentElement(document);
  if (opts.root != null) {
    rootEl = env.resolve(opts.root);
    const why = subtreeHiddenReason(ctx, rootEl);
    if (why !== null) throw hiddenRoot(opts.root, rootEl, why);
    if (ctx.hasBox(rootEl) === false && ctx.display(rootEl) !== 'contents' && !boxBelow(ctx, rootEl)) {
      throw hiddenRoot(opts.root, rootEl, 'zero size, and nothing in it has a box', true);
    }
  }
  collectOwned(walk, owners, opts.root != null ? rootEl : null);
  ctx.enterTree(document);
  const docScan = ctx.tree(document);
  walk.plainDocument = !docScan.pseudo && !docScan.transform;

  const top = fragmentNode();
  if (rootEl) {
    const shadowRoot = N.getRootNode(rootEl);
    if (shadowRoot !== document) {
      ctx.enterTree(shadowRoot);
      walk.inDocument = false;
    }
    visitElement(walk, rootEl, elementTag(rootEl), top, opts.root == null && ctx.geometry ? W_GEOMETRY : 0, true);
  }
  finish(ctx, top);
  if (opts.root != null && top.children.length === 0 && isHiddenForAria(ctx, rootEl)) {
    throw hiddenRoot(opts.root, rootEl, 'visibility:hidden, and nothing in it is shown');
  }
  const depth = opts.depth == null ? Infinity : Math.max(0, opts.depth | 0);
  const out = walk.compact ? renderCompact(top, env)
    : render(top, env, depth, opts.keepNames === true || opts.mode === 'aria', opts.mode === 'aria');
  // A live collection counts without building a list (and keeps its count
  // until the document changes).
  const elements = opts.root != null ? walk.count
    : N.collectionLength(N.docGetElementsByTagName(document, '*'));
  const r = {
    text: '',
    element_count: elements,
    walked_count: walk.count,
    ref_count: out.refLines.length,
    unmeasurable: ctx.unmeasurable,
    frames: out.frames,
    url: String(document.URL),
    title: String(document.title),
  };
  if (budget === null || !budget.stopped) {
    r.text = out.lines.join('\n');
    return r;
  }
  const last = safeCut(out, budget);
  if (last < 0) return null;
  const kept = out.lines.slice(0, last + 1);
  r.text = kept.join('\n');
  let refs = 0;
  while (refs < out.refLines.length && out.refLines[refs] <= last) refs++;
  r.ref_count = refs;
  // What the rest of the page would add, at the rate of the part walked.
  const scale = Math.max(0, elements - walk.count) / Math.max(1, walk.count);
  r.more_lines = out.lines.length - kept.length + Math.round(out.lines.length * scale);
  let chars = 0;
  for (let i = 0; i < out.lines.length; i++) chars += out.lines[i].length + 1;
  r.more_chars = chars - r.text.length - 1 + Math.round(chars * scale);
  return r;
}

// Elements below a zero-size root looked at for a box (see boxBelow).
const BOX_PROBES = 2000;

// True when an element below el (among the first BOX_PROBES) has a box:
// content may overflow a root of zero size.
function boxBelow(ctx, el) {
  const all = N.querySelectorAll(el, '*');
  for (let i = 0; i < all.length && i < BOX_PROBES; i++) {
    if (ctx.hasBox(all[i]) === true) return true;
  }
  return all.length > BOX_PROBES;
}

// The ElementNotVisible error of a snapshot root that shows nothing
// (empty: it has no box and nothing in it has one, rather than hidden by
// a style or an attribute).
function hiddenRoot(ref, el, why, empty) {
  return bridgeError('ElementNotVisible', 'snapshot root ' + ref + ' is hidden: ' + why,
    { ref: String(ref), tag: elementTag(el), reason: why, empty: empty === true });
}



// True when one of names (an element's attribute names) is one of
// WALK_ATTRIBUTES.
function hasWalkAttribute(names) {
  for (let i = 0; i < names.length; i++) {
    if (WALK_NAMES.has(names[i])) return true;
  }
  return false;
}

// Records which elements aria-owns moves under another owner, so that
// they are listed once, under it.  An owner that is not in the tree (hidden,
// or outside the subtree being snapshotted, `scope`) moves nothing: what it
// names stays where it is; an element hidden from all users is not moved
// (WAI-ARIA, aria-owns).
function collectOwned(walk, owners, scope) {
  for (let i = 0; i < owners.length; i++) {
    const owner = owners[i];
    if (scope !== null && !N.contains(scope, owner)) continue;
    if (isHiddenForAria(walk.ctx, owner)) continue;
    for (const target of idRefs(owner, 'aria-owns')) {
      if (target === owner || N.contains(target, owner) || walk.owned.has(target)) continue;
      if (isHiddenFromAllUsers(walk.ctx, target)) continue;
      walk.owned.set(target, owner);
    }
  }
}

// Visits an element: decides whether it becomes a node (or is flattened
// into parent), gives it a name, states and a ref flag, then walks its
// flat-tree children and aria-owns children.  tag is its local name (see
// elementTag); `inherited` holds the W_* bits and the parent's inherited
// style flags; `read` asks for el's style to be read whatever its parent
// says.
function visitElement(walk, el, tag, parent, inherited, read) {
  const ctx = walk.ctx;
  walk.count++;
  // Anything but a form is read directly (see elementTag).
  const direct = tag !== 'form';
  const ns = direct ? el.namespaceURI : N.namespaceURI(el);
  if (neverRendered(tag, ns)) return;
  // A plain element has none of WALK_ATTRIBUTES: most have no attribute
  // at all, which one call tells.
  const names = (direct ? el.hasAttributes() : N.hasAttributes(el))
    ? (direct ? el.getAttributeNames() : N.getAttributeNames(el)) : null;
  const plain = names === null || !hasWalkAttribute(names);
  if (!plain && (ariaToken(el, 'aria-hidden') === 'true' || N.hasAttribute(el, 'inert'))) return;
  const shadow = !SHADOW_HOSTS.has(tag) && tag.indexOf('-') < 0 ? null
    : direct ? el.shadowRoot : N.shadowRoot(el);
  // A shadow tree's sheets may style its host (:host), so they are
  // scanned before the host's style is decided.
  if (shadow) {
    ctx.enterTree(shadow);
    walk.inDocument = false;
  }
  const html = ns === N.HTML_NS;
  // A frameset's frame holds a document as an iframe does (Playwright's
  // snapshot gives both the role iframe).
  const role = html && tag === 'frame' ? 'iframe' : getRole(el, undefined, plain, tag, html);
  const named = (inherited & W_NAMED) !== 0 || keepsFlags(tag, role, names);
  // Not ref-worthy whatever its style (no tabindex, no editing, no
  // cursor of its own), so nothing but its Sep depends on its box.
  const leaf = plain && html && !walk.editable && LEAF_TAGS.has(tag) && FLATTENED.has(role);
  const flags = ctx.walkFlags(el, inherited, read, markupStyle(el, tag, names, direct, html, walk.editable),
    direct, named, html && boxByMarkup(tag, names), !read && (inherited & W_BOXED) !== 0, leaf);
  const boxed = ctx.childBoxed;
  if ((flags & F_NONE) !== 0) return;
  const visible = (flags & F_HIDDEN) === 0;
  if (!visible && walk.aria) return;
  const pointer = (flags & F_POINTER) !== 0;
  const disabled = (inherited & W_DISABLED) !== 0 || (!plain && ariaToken(el, 'aria-disabled') === 'true');
  // The text of a label whose control is rendered is that control's name;
  // it is not repeated, and the label itself is not a click target.
  const labelling = html && tag === 'label' && labelsRenderedControl(ctx, el);
  const childInherited = (flags & F_INHERITED) | (disabled ? W_DISABLED : 0) |
    ((inherited & W_NO_TEXT) !== 0 || labelling ? W_NO_TEXT : 0) | (named ? W_NAMED : 0) |
    (boxed ? W_BOXED : 0) | geometryBits(ctx, el, tag, html, names, shadow, inherited);

  if (shadow) collectOwned(walk, N.fragQuerySelectorAll(shadow, '[aria-owns]'), null);

  const outermostPointer = pointer && (inherited & F_POINTER) === 0 && !labelling;
  const refWorthy = visible && isRefWorthy(el, tag, role, outermostPointer, plain, walk.editable, html);
  if (refWorthy && boxed && (inherited & W_FLOW) !== 0 && !ctx.geomCandidates.has(el) &&
      boxByGeometry(el, tag)) {
    ctx.knowBox(el);
  }
  const acts = refWorthy && isActionable(ctx, el, flags);
  const container = !acts && visible ? containerKind(tag, role, names) : null;
  const wantsRef = acts || container !== null;
  // A generic with a title keeps its line, named by the title (the one
  // thing that says what it is), as Playwright's AI snapshot keeps it (its
  // aria dialect does not).
  const titled = !plain && visible && !walk.aria && role === 'generic' && titleOf(el) !== '';
  const node = visible && (wantsRef || titled || !FLATTENED.has(role))
    ? createNode(walk, el, tag, html, role, wantsRef, disabled, plain) : null;
  if (container !== null) node.container = container;
  if (titled) node.titled = true;
  // Its display, which a name from content or a Sep may ask for, is the
  // user-agent's where the geometry proof holds (see geometry.js).
  const display = (named || node === null) && boxed && (inherited & W_FLOW) !== 0 && html &&
    UA_DISPLAY.has(tag) && !ctx.geomCandidates.has(el) ? UA_DISPLAY.get(tag) : undefined;
  if (named && display !== undefined) ctx.knowDisplay(el, display);
  const printed = node !== null && (!walk.compact || acts || role === 'heading' || role === 'iframe');
  if (printed && walk.budget !== null) {
    spend(walk, 1, role.length + node.states.length + (wantsRef ? 14 : 4));
  }

  if (html && (tag === 'iframe' || tag === 'frame')) {
    if (node) {
      nameNode(ctx, el, role, node, tag, html, plain);
      visitFrame(walk, el, node, parent);
    }
    return;
  }

  const target = node || parent;
  const sep = node ? null : new Sep(el, display);
  if (sep) target.children.push(sep);
  // The text of its ::before and ::after is part of its text, as on
  // screen (and in its name), so a child that repeats the name is seen as
  // such (tidy.js).
  const pseudo = visible && (childInherited & W_NO_TEXT) === 0 && ctx.mayHavePseudo(el) &&
    !(html && NO_PSEUDO_TAGS.has(tag));
  if (pseudo) addText(walk, target, pseudoText(ctx, el, '::before'));
  // The text of a link, heading or button that may be named by it is
  // read once, by the walk (see plainContentName).
  let childText;
  const plainTree = walk.inDocument && walk.plainDocument;
  if (node !== null && plain && html && direct && shadow === null && textNamed(tag, role)) {
    childText = visitTextChildren(walk, el, target, childInherited);
  } else if (!(node && html && fillControl(walk, el, tag, role, node))) {
    visitChildren(walk, el, html ? tag : '', direct, shadow, target, childInherited);
  }
  if (!plain && N.hasAttribute(el, 'aria-owns')) visitOwned(walk, el, target, childInherited);
  if (pseudo) addText(walk, target, pseudoText(ctx, el, '::after'));
  if (sep) target.children.push(sep);

  if (node) {
    // Named after its children were walked, so the name computation finds
    // their styles already known.
    nameNode(ctx, el, role, node, tag, html, plain, childText, plainTree);
    if (role === 'link' && html && hasAttr(el, 'href')) node.url = cutDataUrl(attr(el, 'href'));
    if (role === 'textbox' || role === 'searchbox') placeholderOf(el, node);
    if (role === 'listbox' && !(html && tag === 'select')) {
      capOptions(walk, node);
      // Its option count is the part walked (see safeCut).
      if (walk.count >= walk.limit) node.open = true;
    }
    if (printed && walk.budget !== null) {
      spend(walk, 0, node.name.length + (node.url === null || walk.compact ? 0 : node.url.length));
    }
    parent.children.push(node);
  }
}

// The W_GEOMETRY and W_FLOW bits for the children of el (an element of
// tag `tag`, html, with attribute names `names` and shadow root `shadow`)
// whose own bits are `inherited`: the user-agent geometry passes through
// the GEOMETRY_TAGS of HTML without an inline style or a shadow tree, and
// such an element lays its children out in flow unless a rule may give it
// a display.
function geometryBits(ctx, el, tag, html, names, shadow, inherited) {
  if ((inherited & W_GEOMETRY) === 0 || !html || shadow !== null || !GEOMETRY_TAGS.has(tag) ||
      (names !== null && names.includes('style'))) {
    return 0;
  }
  return ctx.boxAll || ctx.boxCandidates.has(el) ? W_GEOMETRY : W_GEOMETRY | W_FLOW;
}

// True when a name computation may later ask for the style flags of an
// element and of its descendants: its name may come from its content, its
// content may name another element (a label, legend or caption, or an
// element with an id that aria-labelledby may point at), or it is named
// after a child (fieldset, figure, table).  The walk keeps the flags it
// decides for these only; a flag asked for elsewhere is read (the same
// value, see Ctx.walkFlags).
function keepsFlags(tag, role, names) {
  return NAME_FROM_CONTENT.has(role) || NAMING_TAGS.has(tag) || (names !== null && names.includes('id'));
}

// Walks the flat-tree children of el (htmlTag is its tag when it is an HTML
// element, else ''; direct says el is not a form): an open shadow root's
// children instead of the light ones, a slot's assigned nodes or else its
// fallback content.
function visitChildren(walk, el, htmlTag, direct, shadow, target, inherited) {
  if (htmlTag === 'slot') {
    const assigned = N.assignedNodes(el);
    if (assigned.length > 0) {
      for (let i = 0; i < assigned.length && walk.count < walk.limit; i++) {
        visitChild(walk, assigned[i], null, target, inherited);
      }
      return;
    }
  }
  const details = htmlTag === 'details' ? el : null;
  if (shadow === null && details === null && direct && walk.textContent && el.childElementCount === 0) {
    if (walk.count >= walk.limit || (inherited & (F_HIDDEN | W_NO_TEXT)) !== 0) return;
    if (leafText(walk, el, target) !== null) return;
  }
  let c = shadow !== null ? shadow.firstChild : direct ? el.firstChild : N.firstChild(el);
  while (c !== null && walk.count < walk.limit) c = visitChild(walk, c, details, target, inherited);
}

// Adds the text of el, an element that holds no element, not a form and
// no shadow host or details, in one read (textContent; the walk would add
// its text nodes one by one, and tidy.js joins them) and returns it, when
// that cannot stop the walk part-way through them (see spend); null,
// having added nothing, when it could.
function leafText(walk, el, target) {
  const text = el.textContent;
  const b = walk.budget;
  if (b !== null && !walk.compact && b.lines > b.fromLine && b.chars + Math.min(text.length, MAX_RUN) > b.maxChars) return null;
  addText(walk, target, text);
  return text;
}

// visitChildren for an element that is not a form, has no shadow root
// and is no slot or details, whose name may be its text children: returns
// their text when every child is a text node and all were walked, else
// null.  In one textContent read only when no comment can be among them
// (walk.onlyText, walk.inDocument): a comment between two text nodes
// puts a space in the name (see plainContentName), and textContent
// cannot tell.
function visitTextChildren(walk, el, target, inherited) {
  const shown = (inherited & (F_HIDDEN | W_NO_TEXT)) === 0;
  if (walk.onlyText && walk.inDocument && walk.count < walk.limit && el.childElementCount === 0) {
    const all = shown ? leafText(walk, el, target) : el.textContent;
    if (all !== null) return all;
  }
  let text = '';
  let onlyText = true;
  let c = el.firstChild;
  while (c !== null && walk.count < walk.limit) {
    if (c.nodeType === N.TEXT_NODE) {
      const data = c.data;
      text += data;
      if (shown) addText(walk, target, data);
      c = c.nextSibling;
    } else {
      onlyText = false;
      c = visitChild(walk, c, null, target, inherited);
    }
  }
  return onlyText && c === null ? text : null;
}

// True when doc holds no comment or processing instruction (the walk
// skips them; only a name computation sees a comment, see
// visitTextChildren).  One native pass, which stops at the first one.
function noComment(doc) {
  const SHOW_PROCESSING_INSTRUCTION = 0x40;
  const SHOW_COMMENT = 0x80;
  return N.treeWalkerNextNode(N.docCreateTreeWalker(doc, doc, SHOW_COMMENT | SHOW_PROCESSING_INSTRUCTION)) === null;
}

// Adds a text node's data to target's children.
function addText(walk, target, data) {
  if (data) {
    target.children.push(data);
    if (walk.budget !== null && !walk.compact) spend(walk, 0, runSpend(target, data.length));
  }
}


// Visits one flat-tree child; details is the closed-or-open <details> the
// child is in, if any.  Returns the child's next sibling.
function visitChild(walk, node, details, target, inherited) {
  let type = node.nodeType;
  if (type === N.TEXT_NODE) {
    // Text nodes have no named properties: read directly.
    if ((inherited & (F_HIDDEN | W_NO_TEXT)) === 0 &&
        (details === null || !isClosedDetailsContent(details, node))) {
      addText(walk, target, node.data);
    }
    return node.nextSibling;
  }
  // A form's controls may hide its nodeType (see elementTag).
  if (typeof type !== 'number') type = N.nodeType(node);
  if (type !== N.ELEMENT_NODE) return node.nextSibling;
  const tag = elementTag(node);
  const next = tag !== 'form' ? node.nextSibling : N.nextSibling(node);
  if (details !== null && isClosedDetailsContent(details, node)) return next;
  if (walk.owned.size > 0 && walk.owned.has(node)) return next;
  visitElement(walk, node, tag, target, inherited, false);
  return next;
}

// A frame owner with a box becomes a node with one placeholder child (the
// host's key for the frame), and is never descended into.
function visitFrame(walk, el, node, parent) {
  if (walk.ctx.hasBox(el) === false) return;
  const key = walk.env.frameKeys.get(el);
  node.frame = key === undefined ? '?' : key;
  parent.children.push(node);
}

// True when label's control is shown: not hidden, and with a box of its
// own.  A control drawn by its label alone (a 0x0 radio, the label styled
// as the button) leaves the label's text in the snapshot, as Playwright's
// does: that text is what a user sees and clicks.
function labelsRenderedControl(ctx, label) {
  const control = N.labelControl(label);
  return control !== null && !isHiddenForAria(ctx, control) && ctx.hasBox(control) !== false;
}

// Visits the elements el owns through aria-owns, after its own children.
function visitOwned(walk, el, target, inherited) {
  for (const owned of idRefs(el, 'aria-owns')) {
    if (walk.count >= walk.limit) return;
    if (walk.owned.get(owned) !== el || walk.ownedDone.has(owned)) continue;
    walk.ownedDone.add(owned);
    visitElement(walk, owned, elementTag(owned), target, inherited & ~(W_GEOMETRY | W_FLOW), true);
  }
}
