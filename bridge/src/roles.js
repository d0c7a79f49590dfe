// roles.js -- the role of an element: the first valid token of its role
// attribute, else its implicit role from HTML-AAM.
//
// Elements HTML-AAM gives no role ("no corresponding role") and elements it
// maps to generic both get 'generic'.  Two pseudo-roles are returned that
// are not ARIA roles: 'iframe' for frame owners and 'textbox' for the input
// types ARIA 1.2 leaves without a role (password, date and time pickers),
// so an agent can tell they take typed input.

import * as N from './natives.js';
import { attr, ariaToken, flatParent, hasAttr, idRefs, isElement, isHTML, tagOf } from './dom.js';

// Concrete WAI-ARIA 1.2 roles (abstract roles are not valid in role=).
const ROLES = new Set((
  'alert alertdialog application article banner blockquote button caption cell checkbox ' +
  'code columnheader combobox complementary contentinfo definition deletion dialog directory ' +
  'document emphasis feed figure form generic grid gridcell group heading img insertion link ' +
  'list listbox listitem log main marquee math menu menubar menuitem menuitemcheckbox ' +
  'menuitemradio meter navigation none note option paragraph presentation progressbar radio ' +
  'radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider ' +
  'spinbutton status strong subscript superscript switch tab table tablist tabpanel term ' +
  'textbox time timer toolbar tooltip tree treegrid treeitem image mark suggestion comment ' +
  // Graphics module (graphics-aria 1.0).
  'graphics-document graphics-object graphics-symbol'
).split(' '));

// Roles that stand for another (WAI-ARIA 1.2 and 1.3): directory is a
// deprecated list, image the new name of img.
const ROLE_SYNONYMS = Object.assign(Object.create(null), { directory: 'list', image: 'img' });

// Roles that only count when the element has an accessible name; unnamed,
// the next token of the role attribute is tried (WAI-ARIA 1.2, region and
// form: "authors MUST give a name"; user agents treat them as generic).
const NEEDS_NAME = new Set(['region', 'form']);

// Global states and properties: having any of them makes an explicit
// none/presentation role be ignored (WAI-ARIA 1.2, presentational role
// conflict resolution).
const GLOBAL_ARIA = [
  'aria-atomic', 'aria-busy', 'aria-controls', 'aria-current', 'aria-describedby',
  'aria-details', 'aria-dropeffect', 'aria-errormessage', 'aria-flowto', 'aria-grabbed',
  'aria-haspopup', 'aria-invalid', 'aria-keyshortcuts', 'aria-label', 'aria-labelledby',
  'aria-live', 'aria-owns', 'aria-relevant', 'aria-roledescription', 'aria-disabled',
];

// The attributes the snapshot walk reads to decide an element's role,
// states, visibility and ref, as one selector.  An element that has none
// of them ("plain") is decided from its tag, its ancestors and its style
// alone, which spares a read of each.  The misspelt aria-labeledby names
// an element as browsers honour it (see name.js), so it counts too.
export const WALK_ATTRIBUTES = ['role', 'tabindex', 'inert', 'contenteditable', 'title',
  'aria-hidden', 'aria-checked', 'aria-expanded', 'aria-level', 'aria-pressed', 'aria-selected', 'aria-sort',
  'aria-required', 'aria-readonly', 'aria-labeledby', ...GLOBAL_ARIA].map((a) => '[' + a + ']').join(',');

// Roles whose owned children become presentational when they are.
// Tables keyed by tag have no prototype, so a tag such as "constructor"
// finds nothing.
const PRESENTATIONAL_PARENTS = Object.assign(Object.create(null), {
  li: ['ul', 'ol', 'menu'],
  tr: ['table', 'thead', 'tbody', 'tfoot'],
  td: ['tr'], th: ['tr'],
  thead: ['table'], tbody: ['table'], tfoot: ['table'],
  dt: ['dl'], dd: ['dl'],
});

// Tags with a fixed implicit role.
const SIMPLE = Object.assign(Object.create(null), {
  article: 'article', blockquote: 'blockquote', button: 'button', caption: 'caption',
  code: 'code', datalist: 'listbox', dd: 'definition', del: 'deletion', dfn: 'term',
  details: 'group', dialog: 'dialog', dt: 'term', em: 'emphasis', fieldset: 'group',
  figure: 'figure', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading',
  h5: 'heading', h6: 'heading', hr: 'separator', iframe: 'iframe',
  ins: 'insertion', main: 'main', mark: 'mark', math: 'math', menu: 'list', meter: 'meter',
  nav: 'navigation', ol: 'list', optgroup: 'group', option: 'option', output: 'status',
  p: 'paragraph', progress: 'progressbar', search: 'search', strong: 'strong',
  sub: 'subscript', sup: 'superscript', table: 'table', tbody: 'rowgroup', textarea: 'textbox',
  tfoot: 'rowgroup', thead: 'rowgroup', time: 'time', tr: 'row', ul: 'list',
});
// (Not address, hgroup (group) or s (deletion), which HTML-AAM maps:
// Playwright's getByRole finds none of them, and the tests vdxlua writes
// run there.)

const INPUT_ROLES = Object.assign(Object.create(null), {
  button: 'button', image: 'button', reset: 'button', submit: 'button', file: 'button',
  color: 'button', checkbox: 'checkbox', radio: 'radio', range: 'slider',
  number: 'spinbutton', search: 'searchbox', email: 'textbox', tel: 'textbox',
  text: 'textbox', url: 'textbox', password: 'textbox', date: 'textbox',
  'datetime-local': 'textbox', month: 'textbox', time: 'textbox', week: 'textbox',
});

const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';

// Landmark scoping for header/footer/aside: sectioning content and the
// roles that stand for it.
const SECTIONING_TAGS = new Set(['article', 'aside', 'main', 'nav', 'section']);
const SECTIONING_ROLES = new Set(['article', 'complementary', 'main', 'navigation', 'region']);

// The tags whose implicit role depends on more than the tag, each with the
// roles it can take besides generic, none and presentation (see
// implicitRole).
const roleSet = (...roles) => new Set(roles);
const CONDITIONAL = Object.assign(Object.create(null), {
  a: roleSet('link'), area: roleSet('link'), header: roleSet('banner'), footer: roleSet('contentinfo'),
  aside: roleSet('complementary'), section: roleSet('region'), form: roleSet('form'), img: roleSet('img'),
  input: new Set(Object.values(INPUT_ROLES).concat(['textbox', 'combobox'])),
  select: roleSet('listbox', 'combobox'), li: roleSet('listitem'), td: roleSet('cell', 'gridcell'),
  th: roleSet('columnheader', 'rowheader'), summary: roleSet('button'), svg: roleSet('img'),
  option: roleSet('option'),
});

// Whether getRole(el) may be role, told from the tag and the role
// attribute alone: false only for an HTML element with no role attribute
// whose tag cannot give role (a div is never a button, an img never a
// textbox), so a search for one role reads the roles of the few elements
// that may have it.
export function mayHaveRole(el, role) {
  if (role === 'generic' || role === 'none' || role === 'presentation') return true;
  if (N.hasAttribute(el, 'role') || !isHTML(el)) return true;
  const tag = N.localName(el);
  if (SIMPLE[tag] === role) return true;
  const can = CONDITIONAL[tag];
  return can !== undefined && can.has(role);
}

// True when el can take focus: natively focusable elements (when enabled)
// and anything with a tabindex attribute.
export function isFocusable(el) {
  if (hasAttr(el, 'tabindex')) return true;
  if (!isHTML(el)) return false;
  const tag = N.localName(el);
  switch (tag) {
    case 'a': case 'area': return hasAttr(el, 'href');
    case 'button': case 'select': case 'textarea':
      return !N.matches(el, ':disabled');
    case 'input':
      return N.inputType(el) !== 'hidden' && !N.matches(el, ':disabled');
    case 'iframe': return true;
    case 'summary': return isDetailsSummary(el);
    case 'audio': case 'video': return hasAttr(el, 'controls');
    default: return N.isContentEditable(el) && !parentEditable(el);
  }
}

function parentEditable(el) {
  const p = N.parentNode(el);
  return isElement(p) && isHTML(p) && N.isContentEditable(p);
}

function isDetailsSummary(el) {
  const p = N.parentNode(el);
  if (!isElement(p) || tagOf(p) !== 'details') return false;
  for (let c = N.firstChild(p); c; c = N.nextSibling(c)) {
    if (isElement(c) && tagOf(c) === 'summary') return c === el;
  }
  return false;
}

export function hasGlobalAria(el) {
  for (let i = 0; i < GLOBAL_ARIA.length; i++) {
    if (hasAttr(el, GLOBAL_ARIA[i])) return true;
  }
  return false;
}

// The first valid, non-abstract token of el's role attribute, or ''.
// With chromium, region and form are skipped when el has no name (hasName
// as for getRole), so an unnamed one falls to the next token or else to
// the element's implicit role (a div's generic, a nav's navigation), as
// Chromium's tree and the WAI-ARIA tests have it; without, they count
// named or not, as Playwright's getByRole and snapshot do.  The snapshot's
// words are returned: img for image, list for directory.
export function explicitRole(el, hasName, chromium) {
  const value = attr(el, 'role');
  if (!value) return '';
  const tokens = value.trim().toLowerCase().split(/\s+/);
  for (const token of tokens) {
    if (!ROLES.has(token)) continue;
    if (chromium && NEEDS_NAME.has(token) && !named(el, hasName)) continue;
    return ROLE_SYNONYMS[token] || token;
  }
  return '';
}

// Roles that only hold inside certain others (WAI-ARIA 1.2, "required
// context role").  Header and grid cells are also taken directly inside
// their table-like container, and a rowgroup or caption anywhere, as most
// of the public role tests expect (they disagree among themselves on
// orphan cells and captions).  An explicit cell stays a cell anywhere, as
// Chromium's tree and html-aam's table tests have it.
const CELLS = ['row', 'grid', 'table', 'treegrid'];
const MENU_ITEMS = ['group', 'menu', 'menubar'];
const REQUIRED_CONTEXT = Object.assign(Object.create(null), {
  columnheader: CELLS, gridcell: CELLS, rowheader: CELLS,
  listitem: ['list', 'directory'],
  menuitem: MENU_ITEMS, menuitemcheckbox: MENU_ITEMS, menuitemradio: MENU_ITEMS,
  option: ['group', 'listbox'],
  row: ['grid', 'rowgroup', 'table', 'treegrid'],
  tab: ['tablist'],
  treeitem: ['group', 'tree'],
});

// True when the nearest ancestor of el with a role other than generic or
// none has one of the roles role requires around it.
function inRequiredContext(el, role) {
  const context = REQUIRED_CONTEXT[role];
  for (let p = flatParent(el); isElement(p); p = flatParent(p)) {
    const r = explicitRole(p) || implicitRole(p);
    if (r === 'generic' || r === 'none' || r === 'presentation') continue;
    return context.includes(r === 'img' ? 'image' : r);
  }
  return false;
}

// The WAI-ARIA name of a role getRole returned, as page:accessible reports
// it (the computed role of CORE-AAM and HTML-AAM): img is image (ARIA 1.3),
// presentation is none, an <svg> root is graphics-document (SVG-AAM), an
// explicit role outside its required context falls back to the element's
// own role, a <form> is a form even unnamed (HTML-AAM), and a banner or
// contentinfo inside sectioning content is generic.  The snapshot
// keeps the words Playwright's getByRole matches instead: img, a role
// wherever it is written, and generic for an unnamed form.
export function ariaRoleName(el, role) {
  if (REQUIRED_CONTEXT[role] !== undefined && explicitRole(el) === role && !inRequiredContext(el, role)) {
    role = implicitRole(el);
  }
  if (role === 'generic' && tagOf(el) === 'form' && isHTML(el) && !explicitRole(el)) return 'form';
  // A banner or contentinfo written inside main, an article or another
  // section is not the page's (HTML-AAM scoping, applied to the role too).
  if ((role === 'banner' || role === 'contentinfo') && !isScopedToBody(el)) return 'generic';
  if (role === 'img') {
    const svgRoot = tagOf(el) === 'svg' && N.namespaceURI(el) === N.SVG_NS && !explicitRole(el);
    return svgRoot ? 'graphics-document' : 'image';
  }
  if (role === 'presentation') return 'none';
  return role;
}

// The role of el as Playwright's getByRole and snapshot see it: the
// snapshot, the locators and the actions use it.  hasName, when given,
// answers whether el has an accessible name (used for section, form and
// aside, which only become landmarks when named); it defaults to a check
// of aria-label/labelledby and title.
//
// plain (see WALK_ATTRIBUTES) says el has none of the attributes that
// would change the answer, so none are read.  tag and html, when given,
// are el's local name and whether it is an HTML element.  chromium: an
// unnamed explicit region or form is not one (see explicitRole and
// accessibleRole).
export function getRole(el, hasName, plain, tag, html, chromium) {
  if (plain === true) {
    return inheritsPresentation(el, true, tag, html) ? 'none' : implicitRole(el, hasName, true, tag, html);
  }
  const explicit = explicitRole(el, hasName, chromium);
  if (explicit === 'none' || explicit === 'presentation') {
    if (isFocusable(el) || hasGlobalAria(el)) return implicitRole(el, hasName, undefined, tag, html);
    return 'none';
  }
  if (explicit) return explicit;
  if (inheritsPresentation(el, false, tag, html)) return 'none';
  return implicitRole(el, hasName, undefined, tag, html);
}

// The computed role of el as page:accessible reports it, Chromium's: an
// explicit region or form without a name is not one.
export function accessibleRole(el) {
  return getRole(el, undefined, undefined, undefined, undefined, true);
}

// True when el is a required child of an element whose role is none or
// presentation (an li of a presentational list, a cell of a presentational
// table), which makes el presentational too.
function inheritsPresentation(el, plain, tag, html) {
  if (!(html === undefined ? isHTML(el) : html)) return false;
  const parents = PRESENTATIONAL_PARENTS[tag === undefined ? N.localName(el) : tag];
  if (!parents) return false;
  if (!plain && (hasAttr(el, 'tabindex') || hasGlobalAria(el))) return false;
  for (let p = N.parentNode(el); isElement(p); p = N.parentNode(p)) {
    const tag = N.localName(p);
    const r = explicitRole(p);
    if (r === 'none' || r === 'presentation') return !isFocusable(p) && !hasGlobalAria(p);
    if (r) return false;
    if (tag === 'table' || tag === 'ul' || tag === 'ol' || tag === 'menu' || tag === 'dl') return false;
    if (!parents.includes(tag) && !(tag in PRESENTATIONAL_PARENTS)) return false;
  }
  return false;
}

// aria-labelledby counts when one of its ids names an element, even an
// empty one (Chromium's tree makes a region of it), not when none does.
function defaultHasName(el) {
  const label = attr(el, 'aria-label');
  if (label && label.trim()) return true;
  if (hasAttr(el, 'aria-labelledby') && idRefs(el, 'aria-labelledby').length > 0) return true;
  const title = attr(el, 'title');
  return !!(title && title.trim());
}

// The implicit (HTML-AAM) role of el, ignoring its role attribute.  tag
// and html as for getRole.
export function implicitRole(el, hasName, plain, tag, html) {
  if (tag === undefined) tag = N.localName(el);
  if (!(html === undefined ? isHTML(el) : html)) return svgRole(el, tag);
  const simple = SIMPLE[tag];
  if (simple) return tag === 'option' ? optionRole(el) : simple;
  switch (tag) {
    case 'a': case 'area':
      return el.hasAttribute('href') ? 'link' : 'generic';
    case 'header': return isScopedToBody(el) ? 'banner' : 'generic';
    case 'footer': return isScopedToBody(el) ? 'contentinfo' : 'generic';
    case 'aside':
      return isScopedToBody(el, true) || named(el, hasName) ? 'complementary' : 'generic';
    case 'section': return named(el, hasName) ? 'region' : 'generic';
    case 'form': return named(el, hasName) ? 'form' : 'generic';
    case 'img': return imgRole(el, plain);
    case 'input': return inputRole(el);
    case 'select': return selectRole(el);
    case 'li': return listItemRole(el);
    case 'td': return cellRole(el);
    case 'th': return headerCellRole(el);
    case 'summary': return isDetailsSummary(el) ? 'button' : 'generic';
    case 'svg': return 'img';
    default: return 'generic';
  }
}

function named(el, hasName) {
  return hasName ? hasName(el) : defaultHasName(el);
}

// Basic shapes: graphics-symbol when named, else none (SVG-AAM).
const SVG_SHAPES = new Set(['circle', 'ellipse', 'line', 'path', 'polygon', 'polyline', 'rect']);

// SVG elements (SVG-AAM) and the MathML root; other foreign elements are
// generic.  The svg root is img here, the word Playwright's snapshot uses
// (page:accessible reports graphics-document, see ariaRoleName).
function svgRole(el, tag) {
  const ns = N.namespaceURI(el);
  if (ns === MATHML_NS) return tag === 'math' ? 'math' : 'generic';
  if (ns !== N.SVG_NS) return 'generic';
  switch (tag) {
    case 'svg': return 'img';
    case 'a': return hasAttr(el, 'href') || hasAttr(el, 'xlink:href') ? 'link' : 'group';
    case 'image': return 'img';
    case 'g': return svgNamed(el) ? 'group' : 'generic';
    default:
      if (SVG_SHAPES.has(tag)) return svgNamed(el) || isFocusable(el) ? 'graphics-symbol' : 'none';
      return 'generic';
  }
}

// True when an SVG element has a name of its own: aria-label,
// aria-labelledby, or a <title> child.
function svgNamed(el) {
  if (defaultHasName(el)) return true;
  for (let c = N.firstChild(el); c; c = N.nextSibling(c)) {
    if (isElement(c) && N.localName(c) === 'title' && (N.textContent(c) || '').trim()) return true;
  }
  return false;
}

function optionRole(el) {
  const p = N.parentNode(el);
  const pt = tagOf(p);
  if (pt === 'select' || pt === 'datalist') return 'option';
  if (pt === 'optgroup' && tagOf(N.parentNode(p)) === 'select') return 'option';
  return 'generic';
}

// An img with alt="" is presentational unless it is focusable or has a
// title or a global ARIA attribute.  A plain one has none of these: without
// tabindex or contenteditable of its own it is never focusable.
function imgRole(el, plain) {
  const alt = el.getAttribute('alt');
  if (plain === true) return alt === '' ? 'presentation' : 'img';
  // An empty title does not count (Chromium's tree: alt="" title="" is none).
  if (alt === '' && !attr(el, 'title') && !isFocusable(el) && !hasGlobalAria(el)) {
    return 'presentation';
  }
  return 'img';
}

function inputRole(el) {
  const type = el.type;
  if (type === 'hidden') return 'generic';
  if (el.hasAttribute('list') && (type === 'text' || type === 'search' || type === 'email' ||
      type === 'tel' || type === 'url')) {
    return 'combobox';
  }
  return INPUT_ROLES[type] || 'textbox';
}

function selectRole(el) {
  if (el.multiple || el.size > 1) return 'listbox';
  return 'combobox';
}

// An li is a list item when its list is its parent in the flat tree, or
// is reached through custom elements and slots only: the rows of
// component lists (an li in a shadow root, or under an element such as
// <todo-item>) are list items, as Chromium exposes them.
function listItemRole(el) {
  for (let p = flatParent(el); isElement(p); p = flatParent(p)) {
    const role = explicitRole(p);
    if (role) return role === 'list' ? 'listitem' : 'generic';
    const tag = tagOf(p);
    if (tag === 'ul' || tag === 'ol' || tag === 'menu') return 'listitem';
    if (tag !== 'slot' && !tag.includes('-')) return 'generic';
  }
  return 'generic';
}

// The table-like ancestor of a cell, and whether it is a grid.
function tableRoleOf(el) {
  for (let p = N.parentNode(el); isElement(p); p = N.parentNode(p)) {
    const r = explicitRole(p);
    if (r === 'grid' || r === 'treegrid') return 'grid';
    if (r === 'table') return 'table';
    if (tagOf(p) === 'table') return r ? '' : 'table';
  }
  return '';
}

function cellRole(el) {
  const t = tableRoleOf(el);
  if (t === 'grid') return 'gridcell';
  return t === 'table' ? 'cell' : 'generic';
}

// th: columnheader or rowheader from scope, else from position (a th in
// thead, or in a row of only th, heads a column; a leading th in a row
// with data cells heads that row).
function headerCellRole(el) {
  const t = tableRoleOf(el);
  if (!t) return 'generic';
  const scope = (attr(el, 'scope') || '').toLowerCase();
  if (scope === 'col' || scope === 'colgroup') return 'columnheader';
  if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
  const row = N.parentNode(el);
  if (tagOf(N.parentNode(row)) === 'thead') return 'columnheader';
  let hasData = false;
  for (let c = N.firstChild(row); c; c = N.nextSibling(c)) {
    if (isElement(c) && tagOf(c) === 'td') { hasData = true; break; }
  }
  if (hasData) return 'rowheader';
  return 'columnheader';
}

// True when a header/footer/aside is not inside sectioning content (or an
// element with a sectioning role), so it maps to a landmark.  For an aside
// (`aside` true) main does not count: HTML-AAM scopes it "to the body or
// main element", and Chromium's tree agrees; an unnamed aside inside a
// section or an article is generic.
function isScopedToBody(el, aside) {
  for (let p = flatParent(el); isElement(p); p = flatParent(p)) {
    const html = isHTML(p);
    const r = explicitRole(p);
    if (aside === true && (r === 'main' || (!r && html && N.localName(p) === 'main'))) return true;
    if (html && SECTIONING_TAGS.has(N.localName(p))) return false;
    if (r && SECTIONING_ROLES.has(r)) return false;
  }
  return true;
}

// The heading level of el (1-6), or 0 when el is not a heading.
export function headingLevel(el, role, plain) {
  if (role !== 'heading') return 0;
  const lv = plain === true ? 0 : parseInt(attr(el, 'aria-level') || '', 10);
  if (lv > 0) return lv;
  const tag = tagOf(el);
  if (tag.length === 2 && tag[0] === 'h' && tag[1] >= '1' && tag[1] <= '6') return +tag[1];
  return 2;
}

// Roles that accept user actions (refs are given to their elements).
export const INTERACTIVE_ROLES = new Set([
  'button', 'checkbox', 'combobox', 'link', 'listbox', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'radio', 'scrollbar', 'searchbox', 'slider', 'spinbutton',
  'switch', 'tab', 'textbox', 'treeitem', 'gridcell', 'iframe',
]);

// Roles ARIA 1.2 prohibits from having a name.
export const NAME_PROHIBITED = new Set([
  'caption', 'code', 'definition', 'deletion', 'emphasis', 'generic', 'insertion',
  'mark', 'none', 'paragraph', 'presentation', 'strong', 'subscript', 'superscript',
  'term', 'time',
]);

// Roles whose name may come from their content (WAI-ARIA 1.2 "name from:
// contents").
export const NAME_FROM_CONTENT = new Set([
  'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch',
  'tab', 'tooltip', 'treeitem',
]);
