/* vdx-bridge 1.0.0 */
(() => {
  // src/natives.js
  var uncurry = Function.prototype.bind.bind(Function.prototype.call);
  function getter(proto, key) {
    const d = Object.getOwnPropertyDescriptor(proto, key);
    return uncurry(d.get);
  }
  function method(proto, key) {
    return uncurry(proto[key]);
  }
  var nodeType = getter(Node.prototype, "nodeType");
  var parentNode = getter(Node.prototype, "parentNode");
  var firstChild = getter(Node.prototype, "firstChild");
  var nextSibling = getter(Node.prototype, "nextSibling");
  var isConnected = getter(Node.prototype, "isConnected");
  var ownerDocument = getter(Node.prototype, "ownerDocument");
  var nodeData = getter(CharacterData.prototype, "data");
  var textContent = getter(Node.prototype, "textContent");
  var getRootNode = method(Node.prototype, "getRootNode");
  var contains = method(Node.prototype, "contains");
  var localName = getter(Element.prototype, "localName");
  var namespaceURI = getter(Element.prototype, "namespaceURI");
  var getAttribute = method(Element.prototype, "getAttribute");
  var hasAttribute = method(Element.prototype, "hasAttribute");
  var getAttributeNames = method(Element.prototype, "getAttributeNames");
  var querySelectorAll = method(Element.prototype, "querySelectorAll");
  var docQuerySelectorAll = method(Document.prototype, "querySelectorAll");
  var fragQuerySelectorAll = method(DocumentFragment.prototype, "querySelectorAll");
  var matches = method(Element.prototype, "matches");
  var shadowRoot = getter(Element.prototype, "shadowRoot");
  var assignedSlot = getter(Element.prototype, "assignedSlot");
  var textAssignedSlot = getter(Text.prototype, "assignedSlot");
  var getBoundingClientRect = method(Element.prototype, "getBoundingClientRect");
  var checkVisibility = method(Element.prototype, "checkVisibility");
  var shadowHost = getter(ShadowRoot.prototype, "host");
  var assignedNodes = method(HTMLSlotElement.prototype, "assignedNodes");
  var docGetElementById = method(Document.prototype, "getElementById");
  var fragGetElementById = method(DocumentFragment.prototype, "getElementById");
  var docActiveElement = getter(Document.prototype, "activeElement");
  var shadowActiveElement = getter(ShadowRoot.prototype, "activeElement");
  var documentElement = getter(Document.prototype, "documentElement");
  var winGetComputedStyle = window.getComputedStyle;
  function computedStyle(el, pseudo) {
    return pseudo === void 0 ? Reflect.apply(winGetComputedStyle, window, [el]) : Reflect.apply(winGetComputedStyle, window, [el, pseudo]);
  }
  var styleValue = method(CSSStyleDeclaration.prototype, "getPropertyValue");
  var inputValue = getter(HTMLInputElement.prototype, "value");
  var inputType = getter(HTMLInputElement.prototype, "type");
  var inputChecked = getter(HTMLInputElement.prototype, "checked");
  var inputIndeterminate = getter(HTMLInputElement.prototype, "indeterminate");
  var inputList = getter(HTMLInputElement.prototype, "list");
  var textareaValue = getter(HTMLTextAreaElement.prototype, "value");
  var selectOptions = getter(HTMLSelectElement.prototype, "options");
  var selectSelectedOptions = getter(HTMLSelectElement.prototype, "selectedOptions");
  var selectMultiple = getter(HTMLSelectElement.prototype, "multiple");
  var selectSize = getter(HTMLSelectElement.prototype, "size");
  var optionSelected = getter(HTMLOptionElement.prototype, "selected");
  var optionText = getter(HTMLOptionElement.prototype, "text");
  var optionLabel = getter(HTMLOptionElement.prototype, "label");
  var detailsOpen = getter(HTMLDetailsElement.prototype, "open");
  var elementTabIndex = getter(HTMLElement.prototype, "tabIndex");
  var labelControl = getter(HTMLLabelElement.prototype, "control");
  var isContentEditable = getter(HTMLElement.prototype, "isContentEditable");
  var ELEMENT_NODE = 1;
  var TEXT_NODE = 3;
  var DOCUMENT_NODE = 9;
  var DOCUMENT_FRAGMENT_NODE = 11;
  var HTML_NS = "http://www.w3.org/1999/xhtml";
  var SVG_NS = "http://www.w3.org/2000/svg";

  // src/dom.js
  function tagOf(node) {
    return nodeType(node) === ELEMENT_NODE ? localName(node) : "";
  }
  function isElement(node) {
    return node != null && typeof node === "object" && nodeType(node) === ELEMENT_NODE;
  }
  function isHTML(el) {
    return namespaceURI(el) === HTML_NS;
  }
  function attr(el, name) {
    return getAttribute(el, name);
  }
  function hasAttr(el, name) {
    return hasAttribute(el, name);
  }
  function ariaToken(el, name) {
    const v = getAttribute(el, name);
    return v == null ? "" : v.trim().toLowerCase();
  }
  function flatParent(node) {
    const type = nodeType(node);
    const slot = type === ELEMENT_NODE ? assignedSlot(node) : type === TEXT_NODE ? textAssignedSlot(node) : null;
    if (slot) return slot;
    const parent = parentNode(node);
    if (parent && nodeType(parent) === DOCUMENT_FRAGMENT_NODE) {
      return shadowHost(parent);
    }
    return parent;
  }
  function forEachFlatChild(el, fn) {
    if (localName(el) === "slot" && isHTML(el)) {
      const assigned = assignedNodes(el);
      if (assigned.length > 0) {
        for (let i = 0; i < assigned.length; i++) fn(assigned[i]);
        return;
      }
    }
    const root = shadowRoot(el);
    let child = firstChild(root || el);
    while (child) {
      fn(child);
      child = nextSibling(child);
    }
  }
  function byId(el, id) {
    if (!id) return null;
    const root = getRootNode(el);
    const type = nodeType(root);
    if (type === DOCUMENT_NODE) return docGetElementById(root, id);
    if (type === DOCUMENT_FRAGMENT_NODE) return fragGetElementById(root, id);
    return null;
  }
  function idRefs(el, name) {
    const value = getAttribute(el, name);
    if (!value) return [];
    const out = [];
    for (const id of value.split(/\s+/)) {
      const target = byId(el, id);
      if (target) out.push(target);
    }
    return out;
  }
  function deepActiveElement(doc) {
    let active = docActiveElement(doc);
    while (active) {
      const root = shadowRoot(active);
      const inner = root ? shadowActiveElement(root) : null;
      if (!inner) break;
      active = inner;
    }
    return active;
  }
  function collapse(s) {
    return s.replace(/[\s\u00a0]+/g, " ");
  }
  function normalize(s) {
    return collapse(s).trim();
  }

  // src/roles.js
  var ROLES = new Set("alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell group heading img insertion link list listbox listitem log main marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem image mark".split(" "));
  var GLOBAL_ARIA = [
    "aria-atomic",
    "aria-busy",
    "aria-controls",
    "aria-current",
    "aria-describedby",
    "aria-details",
    "aria-dropeffect",
    "aria-errormessage",
    "aria-flowto",
    "aria-grabbed",
    "aria-haspopup",
    "aria-invalid",
    "aria-keyshortcuts",
    "aria-label",
    "aria-labelledby",
    "aria-live",
    "aria-owns",
    "aria-relevant",
    "aria-roledescription",
    "aria-disabled"
  ];
  var PRESENTATIONAL_PARENTS = {
    li: ["ul", "ol", "menu"],
    tr: ["table", "thead", "tbody", "tfoot"],
    td: ["tr"],
    th: ["tr"],
    thead: ["table"],
    tbody: ["table"],
    tfoot: ["table"],
    dt: ["dl"],
    dd: ["dl"]
  };
  var SIMPLE = {
    article: "article",
    blockquote: "blockquote",
    button: "button",
    caption: "caption",
    code: "code",
    datalist: "listbox",
    dd: "definition",
    del: "deletion",
    dfn: "term",
    details: "group",
    dialog: "dialog",
    dt: "term",
    em: "emphasis",
    fieldset: "group",
    figure: "figure",
    h1: "heading",
    h2: "heading",
    h3: "heading",
    h4: "heading",
    h5: "heading",
    h6: "heading",
    hgroup: "group",
    hr: "separator",
    iframe: "iframe",
    ins: "insertion",
    main: "main",
    mark: "mark",
    math: "math",
    menu: "list",
    meter: "meter",
    nav: "navigation",
    ol: "list",
    optgroup: "group",
    option: "option",
    output: "status",
    p: "paragraph",
    progress: "progressbar",
    s: "deletion",
    search: "search",
    strong: "strong",
    sub: "subscript",
    sup: "superscript",
    table: "table",
    tbody: "rowgroup",
    textarea: "textbox",
    tfoot: "rowgroup",
    thead: "rowgroup",
    time: "time",
    tr: "row",
    ul: "list",
    address: "group"
  };
  var INPUT_ROLES = {
    button: "button",
    image: "button",
    reset: "button",
    submit: "button",
    file: "button",
    color: "button",
    checkbox: "checkbox",
    radio: "radio",
    range: "slider",
    number: "spinbutton",
    search: "searchbox",
    email: "textbox",
    tel: "textbox",
    text: "textbox",
    url: "textbox",
    password: "textbox",
    date: "textbox",
    "datetime-local": "textbox",
    month: "textbox",
    time: "textbox",
    week: "textbox"
  };
  var MATHML_NS = "http://www.w3.org/1998/Math/MathML";
  var SECTIONING_TAGS = /* @__PURE__ */ new Set(["article", "aside", "main", "nav", "section"]);
  var SECTIONING_ROLES = /* @__PURE__ */ new Set(["article", "complementary", "main", "navigation", "region"]);
  function isFocusable(el) {
    if (hasAttr(el, "tabindex")) return true;
    if (!isHTML(el)) return false;
    const tag = localName(el);
    switch (tag) {
      case "a":
      case "area":
        return hasAttr(el, "href");
      case "button":
      case "select":
      case "textarea":
        return !matches(el, ":disabled");
      case "input":
        return inputType(el) !== "hidden" && !matches(el, ":disabled");
      case "iframe":
        return true;
      case "summary":
        return isDetailsSummary(el);
      case "audio":
      case "video":
        return hasAttr(el, "controls");
      default:
        return isContentEditable(el) && !parentEditable(el);
    }
  }
  function parentEditable(el) {
    const p = parentNode(el);
    return isElement(p) && isHTML(p) && isContentEditable(p);
  }
  function isDetailsSummary(el) {
    const p = parentNode(el);
    if (!isElement(p) || tagOf(p) !== "details") return false;
    for (let c = firstChild(p); c; c = nextSibling(c)) {
      if (isElement(c) && tagOf(c) === "summary") return c === el;
    }
    return false;
  }
  function hasGlobalAria(el) {
    for (let i = 0; i < GLOBAL_ARIA.length; i++) {
      if (hasAttr(el, GLOBAL_ARIA[i])) return true;
    }
    return false;
  }
  function explicitRole(el) {
    const value = attr(el, "role");
    if (!value) return "";
    for (const token of value.trim().toLowerCase().split(/\s+/)) {
      if (ROLES.has(token)) return token === "image" ? "img" : token;
    }
    return "";
  }
  function getRole(el, hasName) {
    const explicit = explicitRole(el);
    if (explicit === "none" || explicit === "presentation") {
      if (isFocusable(el) || hasGlobalAria(el)) return implicitRole(el, hasName);
      return "none";
    }
    if (explicit) return explicit;
    if (inheritsPresentation(el)) return "none";
    return implicitRole(el, hasName);
  }
  function inheritsPresentation(el) {
    if (!isHTML(el)) return false;
    const parents = PRESENTATIONAL_PARENTS[localName(el)];
    if (!parents) return false;
    if (hasAttr(el, "tabindex") || hasGlobalAria(el)) return false;
    for (let p = parentNode(el); isElement(p); p = parentNode(p)) {
      const tag = localName(p);
      const r = explicitRole(p);
      if (r === "none" || r === "presentation") return !isFocusable(p) && !hasGlobalAria(p);
      if (r) return false;
      if (tag === "table" || tag === "ul" || tag === "ol" || tag === "menu" || tag === "dl") return false;
      if (!parents.includes(tag) && !(tag in PRESENTATIONAL_PARENTS)) return false;
    }
    return false;
  }
  function defaultHasName(el) {
    const label = attr(el, "aria-label");
    if (label && label.trim()) return true;
    if (hasAttr(el, "aria-labelledby")) return true;
    const title = attr(el, "title");
    return !!(title && title.trim());
  }
  function implicitRole(el, hasName) {
    if (!isHTML(el)) return svgRole(el);
    const tag = localName(el);
    const simple = SIMPLE[tag];
    if (simple) return tag === "option" ? optionRole(el) : simple;
    const named = () => hasName ? hasName(el) : defaultHasName(el);
    switch (tag) {
      case "a":
      case "area":
        return hasAttr(el, "href") ? "link" : "generic";
      case "header":
        return isScopedToBody(el) ? "banner" : "generic";
      case "footer":
        return isScopedToBody(el) ? "contentinfo" : "generic";
      case "aside":
        return isScopedToBody(el) || named() ? "complementary" : "generic";
      case "section":
        return named() ? "region" : "generic";
      case "form":
        return named() ? "form" : "generic";
      case "img":
        return imgRole(el);
      case "input":
        return inputRole(el);
      case "select":
        return selectRole(el);
      case "li":
        return listItemRole(el);
      case "td":
        return cellRole(el);
      case "th":
        return headerCellRole(el);
      case "summary":
        return isDetailsSummary(el) ? "button" : "generic";
      case "svg":
        return "img";
      default:
        return "generic";
    }
  }
  function svgRole(el) {
    const tag = localName(el);
    if (tag === "svg") return "img";
    if (tag === "math" && namespaceURI(el) === MATHML_NS) return "math";
    return "generic";
  }
  function optionRole(el) {
    const p = parentNode(el);
    const pt = tagOf(p);
    if (pt === "select" || pt === "datalist") return "option";
    if (pt === "optgroup" && tagOf(parentNode(p)) === "select") return "option";
    return "generic";
  }
  function imgRole(el) {
    const alt = attr(el, "alt");
    if (alt === "" && !hasAttr(el, "title") && !isFocusable(el) && !hasGlobalAria(el)) {
      return "presentation";
    }
    return "img";
  }
  function inputRole(el) {
    const type = inputType(el);
    if (type === "hidden") return "generic";
    if (hasAttr(el, "list") && (type === "text" || type === "search" || type === "email" || type === "tel" || type === "url")) {
      return "combobox";
    }
    return INPUT_ROLES[type] || "textbox";
  }
  function selectRole(el) {
    if (selectMultiple(el) || selectSize(el) > 1) return "listbox";
    return "combobox";
  }
  function listItemRole(el) {
    const p = parentNode(el);
    const tag = tagOf(p);
    if (tag === "ul" || tag === "ol" || tag === "menu") return "listitem";
    if (isElement(p) && explicitRole(p) === "list") return "listitem";
    return "generic";
  }
  function tableRoleOf(el) {
    for (let p = parentNode(el); isElement(p); p = parentNode(p)) {
      const r = explicitRole(p);
      if (r === "grid" || r === "treegrid") return "grid";
      if (r === "table") return "table";
      if (tagOf(p) === "table") return r ? "" : "table";
    }
    return "";
  }
  function cellRole(el) {
    const t = tableRoleOf(el);
    if (t === "grid") return "gridcell";
    return t === "table" ? "cell" : "generic";
  }
  function headerCellRole(el) {
    const t = tableRoleOf(el);
    if (!t) return "generic";
    const scope = (attr(el, "scope") || "").toLowerCase();
    if (scope === "col" || scope === "colgroup") return "columnheader";
    if (scope === "row" || scope === "rowgroup") return "rowheader";
    const row = parentNode(el);
    if (tagOf(parentNode(row)) === "thead") return "columnheader";
    let hasData = false;
    for (let c = firstChild(row); c; c = nextSibling(c)) {
      if (isElement(c) && tagOf(c) === "td") {
        hasData = true;
        break;
      }
    }
    if (hasData) return "rowheader";
    return "columnheader";
  }
  function isScopedToBody(el) {
    for (let p = flatParent(el); isElement(p); p = flatParent(p)) {
      if (isHTML(p) && SECTIONING_TAGS.has(localName(p))) return false;
      const r = explicitRole(p);
      if (r && SECTIONING_ROLES.has(r)) return false;
    }
    return true;
  }
  function headingLevel(el, role) {
    if (role !== "heading") return 0;
    const lv = parseInt(attr(el, "aria-level") || "", 10);
    if (lv > 0) return lv;
    const tag = tagOf(el);
    if (tag.length === 2 && tag[0] === "h" && tag[1] >= "1" && tag[1] <= "6") return +tag[1];
    return 2;
  }
  var INTERACTIVE_ROLES = /* @__PURE__ */ new Set([
    "button",
    "checkbox",
    "combobox",
    "link",
    "listbox",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "radio",
    "scrollbar",
    "searchbox",
    "slider",
    "spinbutton",
    "switch",
    "tab",
    "textbox",
    "treeitem",
    "gridcell",
    "iframe"
  ]);
  var NAME_PROHIBITED = /* @__PURE__ */ new Set([
    "caption",
    "code",
    "definition",
    "deletion",
    "emphasis",
    "generic",
    "insertion",
    "mark",
    "none",
    "paragraph",
    "presentation",
    "strong",
    "subscript",
    "superscript",
    "term",
    "time"
  ]);
  var NAME_FROM_CONTENT = /* @__PURE__ */ new Set([
    "button",
    "cell",
    "checkbox",
    "columnheader",
    "gridcell",
    "heading",
    "link",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "radio",
    "row",
    "rowheader",
    "switch",
    "tab",
    "tooltip",
    "treeitem"
  ]);

  // src/visibility.js
  var UNKNOWN_STYLE = Object.freeze({
    display: "inline",
    visibility: "visible",
    cursor: "auto",
    cs: null,
    known: false
  });
  var NO_LABELS = Object.freeze([]);
  var Ctx = class {
    constructor() {
      this.styles = /* @__PURE__ */ new Map();
      this.boxes = /* @__PURE__ */ new Map();
      this.names = /* @__PURE__ */ new Map();
      this.hidden = /* @__PURE__ */ new Map();
      this.pseudo = /* @__PURE__ */ new Map();
      this.labelMaps = /* @__PURE__ */ new Map();
      this.unmeasurable = 0;
      this.failed = /* @__PURE__ */ new Set();
    }
    // The style record of el: { display, visibility, cursor, cs, known },
    // where cs is the live computed style for other reads (null if unknown).
    style(el) {
      let s = this.styles.get(el);
      if (s) return s;
      try {
        const cs = computedStyle(el);
        s = {
          display: cs.display,
          visibility: cs.visibility,
          cursor: cs.cursor,
          cs,
          known: true
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
      if (b !== void 0) return b;
      try {
        const r = getBoundingClientRect(el);
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
      const root = getRootNode(el);
      let v = this.pseudo.get(root);
      if (v === void 0) {
        v = treeHasPseudoRules(root);
        this.pseudo.set(root, v);
      }
      return v;
    }
    // The <label> elements of el, in tree order.  The labels of a whole tree
    // (document or shadow root) are gathered once per Ctx: asking each
    // control for its own labels would scan the tree once per control.
    labelsOf(el) {
      const root = getRootNode(el);
      let map = this.labelMaps.get(root);
      if (map === void 0) {
        map = /* @__PURE__ */ new Map();
        const type = nodeType(root);
        const labels = type === DOCUMENT_NODE ? docQuerySelectorAll(root, "label") : type === DOCUMENT_FRAGMENT_NODE ? fragQuerySelectorAll(root, "label") : [];
        for (let i = 0; i < labels.length; i++) {
          const control = labelControl(labels[i]);
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
  };
  var PSEUDO_SELECTOR = /:(?:before|after)\b/i;
  function sheetHasPseudoRules(sheet) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch (e) {
      return true;
    }
    return rulesHavePseudo(rules);
  }
  function rulesHavePseudo(rules) {
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      if (r.selectorText !== void 0 && PSEUDO_SELECTOR.test(r.selectorText)) return true;
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
  function isDisplayNone(ctx, el) {
    return ctx.style(el).display === "none";
  }
  function isVisibilityHidden(ctx, el) {
    const v = ctx.style(el).visibility;
    return v === "hidden" || v === "collapse";
  }
  var NEVER_RENDERED = /* @__PURE__ */ new Set(["script", "style", "noscript", "template", "head", "meta", "link", "title", "base"]);
  var SVG_NOT_RENDERED = /* @__PURE__ */ new Set([
    "title",
    "desc",
    "metadata",
    "defs",
    "style",
    "script",
    "clipPath",
    "mask",
    "pattern",
    "symbol",
    "linearGradient",
    "radialGradient",
    "filter"
  ]);
  function isNeverRendered(el) {
    const tag = tagOf(el);
    const ns = namespaceURI(el);
    if (ns === HTML_NS) return NEVER_RENDERED.has(tag);
    return ns === SVG_NS && SVG_NOT_RENDERED.has(tag);
  }
  function hidesSubtree(ctx, el) {
    if (isNeverRendered(el)) return true;
    if (ariaToken(el, "aria-hidden") === "true") return true;
    if (hasAttribute(el, "inert")) return true;
    return isDisplayNone(ctx, el);
  }
  function isClosedDetailsContent(details, child) {
    if (detailsOpen(details)) return false;
    if (!isElement(child) || tagOf(child) !== "summary") return true;
    let c = firstChild(details);
    while (c) {
      if (isElement(c) && tagOf(c) === "summary") return c !== child;
      c = nextSibling(c);
    }
    return true;
  }
  function isHiddenForAria(ctx, el) {
    const cached = ctx.hidden.get(el);
    if (cached !== void 0) return cached;
    let hidden = false;
    if (isVisibilityHidden(ctx, el)) hidden = true;
    for (let n = el, child = null; !hidden && n; child = n, n = flatParent(n)) {
      if (!isElement(n)) continue;
      if (hidesSubtree(ctx, n)) hidden = true;
      else if (child && tagOf(n) === "details" && isClosedDetailsContent(n, child)) hidden = true;
    }
    ctx.hidden.set(el, hidden);
    return hidden;
  }
  function isActionable(ctx, el) {
    const cs = ctx.style(el).cs;
    if (cs && cs.pointerEvents === "none") return false;
    const b = ctx.box(el);
    return b !== null && b.w > 0 && b.h > 0;
  }

  // src/name.js
  var LABELABLE = /* @__PURE__ */ new Set(["input", "select", "textarea", "button", "meter", "output", "progress"]);
  var RANGE_ROLES = /* @__PURE__ */ new Set(["slider", "spinbutton", "progressbar", "scrollbar", "meter"]);
  var TEXT_INPUT_TYPES = /* @__PURE__ */ new Set([
    "text",
    "search",
    "email",
    "tel",
    "url",
    "password",
    "number",
    "date",
    "datetime-local",
    "month",
    "time",
    "week",
    ""
  ]);
  function accessibleName(ctx, el, role, visible) {
    const cached = ctx.names.get(el);
    if (cached !== void 0) return cached;
    const r = role || getRole(el);
    const state = {
      root: el,
      includeHidden: visible ? false : isHiddenForAria(ctx, el),
      path: /* @__PURE__ */ new Set()
    };
    const name = normalize(textAlternative(ctx, el, r, state, ROOT));
    ctx.names.set(el, name);
    return name;
  }
  function accessibleDescription(ctx, el, name) {
    const refs = idRefs(el, "aria-describedby");
    if (refs.length > 0) {
      const text = normalize(referencedText(ctx, refs, el));
      if (text) return text;
    }
    const desc = attr(el, "aria-description");
    if (desc && desc.trim()) return normalize(desc);
    const title = attr(el, "title");
    if (title && normalize(title) !== name) return normalize(title);
    return "";
  }
  var ROOT = 0;
  var REFERENCED = 1;
  var LABEL = 2;
  var CONTENT = 3;
  function referencedText(ctx, refs, root) {
    const parts = [];
    for (const ref of refs) {
      const state = {
        root,
        includeHidden: isHiddenForAria(ctx, ref),
        path: /* @__PURE__ */ new Set(),
        inLabelledBy: true
      };
      parts.push(textAlternative(ctx, ref, getRole(ref), state, REFERENCED));
    }
    return parts.join(" ");
  }
  function textAlternative(ctx, el, role, state, how) {
    if (state.path.has(el)) return "";
    if (how === CONTENT && !state.includeHidden && (hidesSubtree(ctx, el) || isVisibilityHidden(ctx, el))) {
      return "";
    }
    state.path.add(el);
    try {
      return computeSteps(ctx, el, role, state, how);
    } finally {
      state.path.delete(el);
    }
  }
  function computeSteps(ctx, el, role, state, how) {
    if (!state.inLabelledBy) {
      const refs = idRefs(el, "aria-labelledby");
      if (refs.length > 0) {
        const text = referencedText(ctx, refs, state.root);
        if (text.trim()) return text;
      }
    }
    if (how !== ROOT && el !== state.root) {
      const value = embeddedValue(ctx, el, role);
      if (value !== null) return value;
    }
    const label = attr(el, "aria-label");
    if (label && label.trim()) return label;
    if (role !== "none" && role !== "presentation") {
      const native = hostLanguageLabel(ctx, el, state, how);
      if (native) return native;
    }
    if (how !== ROOT || NAME_FROM_CONTENT.has(role)) {
      const text = contentText(ctx, el, state);
      if (text.trim()) return text;
    }
    const title = attr(el, "title");
    if (title && title.trim()) return title;
    return how === ROOT ? placeholderOf(el) : "";
  }
  function embeddedValue(ctx, el, role) {
    const tag = isHTML(el) ? localName(el) : "";
    if (role === "textbox" || role === "searchbox") {
      if (tag === "input") return inputValue(el);
      if (tag === "textarea") return textareaValue(el);
      return null;
    }
    if (role === "combobox" || role === "listbox") {
      if (tag === "select") {
        const opts = selectSelectedOptions(el);
        const parts2 = [];
        for (let i = 0; i < opts.length; i++) parts2.push(optionText(opts[i]));
        return parts2.join(" ");
      }
      if (tag === "input") return inputValue(el);
      const selected = querySelectorAll(el, '[role="option"][aria-selected="true"]');
      const parts = [];
      for (let i = 0; i < selected.length; i++) {
        parts.push(accessibleName(ctx, selected[i], "option", true));
      }
      return parts.join(" ");
    }
    if (RANGE_ROLES.has(role)) {
      const vt = attr(el, "aria-valuetext");
      if (vt && vt.trim()) return vt;
      const vn = attr(el, "aria-valuenow");
      if (vn && vn.trim()) return vn;
      if (tag === "input") return inputValue(el);
      if (tag === "progress" || tag === "meter") return attr(el, "value") || "";
      return "";
    }
    return null;
  }
  function hostLanguageLabel(ctx, el, state, how) {
    if (!isHTML(el)) return svgTitle(el);
    const tag = localName(el);
    if (tag === "input") {
      const type = inputType(el);
      if (type === "button" || type === "submit" || type === "reset") {
        const v = attr(el, "value");
        if (v) return v;
        if (type === "submit") return "Submit";
        if (type === "reset") return "Reset";
      }
      if (type === "image") {
        const alt = attr(el, "alt");
        if (alt && alt.trim()) return alt;
        const v = attr(el, "value");
        if (v && v.trim()) return v;
        const title = attr(el, "title");
        return title && title.trim() ? title : "Submit";
      }
    }
    if (how !== LABEL && LABELABLE.has(tag)) {
      const labels = ctx.labelsOf(el);
      if (labels.length > 0) {
        const parts = [];
        for (let i = 0; i < labels.length; i++) {
          const lab = labels[i];
          if (!state.includeHidden && isHiddenForAria(ctx, lab)) continue;
          parts.push(textAlternative(ctx, lab, "generic", state, LABEL));
        }
        const text = parts.join(" ");
        if (text.trim()) return text;
      }
    }
    switch (tag) {
      case "img":
      case "area": {
        const alt = attr(el, "alt");
        return alt && alt.trim() ? alt : "";
      }
      case "fieldset":
        return childText(ctx, el, "legend", state);
      case "figure":
        return childText(ctx, el, "figcaption", state);
      case "table":
        return childText(ctx, el, "caption", state);
      case "optgroup":
        return attr(el, "label") || "";
      case "option": {
        const label = attr(el, "label");
        return label && label.trim() ? label : "";
      }
      default:
        return "";
    }
  }
  function placeholderOf(el) {
    const tag = tagOf(el);
    if (tag === "textarea" || tag === "input" && TEXT_INPUT_TYPES.has(inputType(el))) {
      const ph = attr(el, "placeholder") || attr(el, "aria-placeholder");
      return ph && ph.trim() ? ph : "";
    }
    return "";
  }
  function svgTitle(el) {
    for (let c = firstChild(el); c; c = nextSibling(c)) {
      if (isElement(c) && localName(c) === "title") return textContent(c) || "";
    }
    return "";
  }
  function childText(ctx, el, tag, state) {
    for (let c = firstChild(el); c; c = nextSibling(c)) {
      if (isElement(c) && localName(c) === tag) {
        if (!state.includeHidden && (hidesSubtree(ctx, c) || isVisibilityHidden(ctx, c))) return "";
        return contentText(ctx, c, state);
      }
    }
    return "";
  }
  function contentText(ctx, el, state) {
    let out = pseudoText(ctx, el, "::before");
    const parentHidden = !state.includeHidden && isVisibilityHidden(ctx, el);
    const isDetails = tagOf(el) === "details" && isHTML(el);
    forEachFlatChild(el, (child) => {
      const type = nodeType(child);
      if (type === TEXT_NODE) {
        if (!parentHidden) out += nodeData(child);
        return;
      }
      if (type !== ELEMENT_NODE) return;
      if (child === state.root) return;
      if (isDetails && !state.includeHidden && isClosedDetailsContent(el, child)) return;
      const text = textAlternative(ctx, child, getRole(child), state, CONTENT);
      if (!text) return;
      const display = ctx.style(child).display;
      if (display.startsWith("inline") || display === "contents") out += text;
      else out += " " + text + " ";
    });
    return out + pseudoText(ctx, el, "::after");
  }
  function pseudoText(ctx, el, which) {
    if (!ctx.mayHavePseudo(el)) return "";
    let content;
    try {
      content = computedStyle(el, which).content;
    } catch (e) {
      ctx.fail(el);
      return "";
    }
    if (!content || content === "none" || content === "normal") return "";
    const slash = topLevelSlash(content);
    const source = slash >= 0 ? content.slice(slash + 1) : content;
    let out = "";
    const re = /"((?:[^"\\]|\\.)*)"|attr\(\s*([\w-]+)\s*\)/g;
    let m;
    while ((m = re.exec(source)) !== null) {
      if (m[1] !== void 0) out += unescapeCss(m[1]);
      else out += attr(el, m[2]) || "";
    }
    return out ? collapse(out) : "";
  }
  function topLevelSlash(s) {
    let quoted = false;
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === "\\") {
        i++;
        continue;
      }
      if (c === '"') quoted = !quoted;
      else if (c === "/" && !quoted) return i;
    }
    return -1;
  }
  function unescapeCss(s) {
    return s.replace(/\\([0-9a-fA-F]{1,6}\s?|.)/g, (all, seq) => {
      if (/^[0-9a-fA-F]/.test(seq)) return String.fromCodePoint(parseInt(seq, 16));
      return seq;
    });
  }

  // src/refs.js
  var Refs = class {
    constructor(prefix) {
      this.prefix = prefix;
      this.byElement = /* @__PURE__ */ new WeakMap();
      this.byRef = /* @__PURE__ */ new Map();
      this.next = 1;
      this.pattern = new RegExp("^" + prefix.replace(/[^\w]/g, "\\$&") + "e[1-9][0-9]*$");
    }
    // The ref of el, creating one if needed; records what el was.
    assign(el, role, name, tag) {
      let ref = this.byElement.get(el);
      if (ref === void 0) {
        ref = this.prefix + "e" + this.next++;
        this.byElement.set(el, ref);
        this.byRef.set(ref, { weak: new WeakRef(el), role, name, tag });
      } else {
        const entry = this.byRef.get(ref);
        entry.role = role;
        entry.name = name;
        entry.tag = tag;
      }
      return ref;
    }
    // The ref el already has, or null.
    peek(el) {
      const ref = this.byElement.get(el);
      return ref === void 0 ? null : ref;
    }
    // Looks a ref up: { element, entry } when the element is still in the
    // document, { stale: true, entry } when it left, or null when the ref was
    // never given out.
    lookup(ref) {
      if (typeof ref !== "string" || !this.pattern.test(ref)) return null;
      const entry = this.byRef.get(ref);
      if (!entry) return null;
      const el = entry.weak.deref();
      if (!el || !isConnected(el) || ownerDocument(el) !== document) {
        return { stale: true, entry };
      }
      return { element: el, entry };
    }
  };

  // src/text.js
  var FRAME_MARK = String.fromCharCode(1) + "frame:";
  function render(top, env, maxDepth) {
    const out = { lines: [], refCount: 0, frames: [], env, maxDepth };
    for (const child of top.children) renderNode(out, child, "", 0);
    return { text: out.lines.join("\n"), refCount: out.refCount, frames: out.frames };
  }
  function renderNode(out, node, indent, depth) {
    if (depth > out.maxDepth) return;
    if (typeof node === "string") {
      out.lines.push(indent + "- text: " + yamlValue(node));
      return;
    }
    let key = indent + "- " + node.role;
    if (node.name) key += " " + JSON.stringify(node.name);
    key += node.states;
    if (node.wantsRef) {
      const ref = out.env.refs.assign(node.el, node.role, node.name, localName(node.el));
      key += " [ref=" + ref + "]";
      out.refCount++;
    }
    if (node.frame !== void 0) {
      out.lines.push(key + ":");
      out.lines.push(indent + "  " + FRAME_MARK + node.frame);
      out.frames.push(node.frame);
      return;
    }
    const kids = node.children;
    const hasValue = node.value != null && node.value !== "";
    const extra = node.url != null || hasValue && kids.length > 0;
    if (!extra && kids.length === 0) {
      out.lines.push(hasValue ? key + ": " + yamlValue(node.value) : key);
      return;
    }
    if (!extra && kids.length === 1 && typeof kids[0] === "string") {
      out.lines.push(key + ": " + yamlValue(kids[0]));
      return;
    }
    if (depth + 1 > out.maxDepth) {
      out.lines.push(key);
      return;
    }
    out.lines.push(key + ":");
    const inner = indent + "  ";
    if (node.url != null) out.lines.push(inner + "- /url: " + yamlValue(node.url));
    if (hasValue && kids.length > 0) out.lines.push(inner + "- /value: " + yamlValue(node.value));
    for (const child of kids) renderNode(out, child, inner, depth + 1);
  }
  var PLAIN_UNSAFE_START = /^(?:[,[\]{}#&*!|>'"%@`\s]|[-?:](?:\s|$))/;
  var LOOKS_TYPED = /^(?:true|false|yes|no|on|off|null|~|[-+]?(?:\d[\d_]*)?\.?\d+(?:e[-+]?\d+)?)$/i;
  function yamlValue(s) {
    const str = String(s);
    if (str === "" || PLAIN_UNSAFE_START.test(str) || /\s$/.test(str) || LOOKS_TYPED.test(str) || str.includes(": ") || str.includes(" #") || /[\u0000-\u001f\u007f]/.test(str) || str.endsWith(":")) {
      return JSON.stringify(str);
    }
    return str;
  }

  // src/errors.js
  function bridgeError(kind, detail, fields, Ctor) {
    const e = new (Ctor || Error)(kind + ": " + detail);
    e.vdxType = kind;
    e.vdxFields = fields || null;
    return e;
  }
  function badArgument(detail) {
    return bridgeError("BadArgument", detail, null, TypeError);
  }
  function checkKeys(opts, allowed, what) {
    if (typeof opts !== "object") throw badArgument(what + ": options must be an object");
    for (const key of Object.keys(opts)) {
      if (!allowed.includes(key)) throw badArgument(what + ": unexpected option " + JSON.stringify(key));
    }
  }

  // src/snapshot.js
  var FLATTENED = /* @__PURE__ */ new Set([
    "generic",
    "none",
    "presentation",
    "emphasis",
    "strong",
    "mark",
    "subscript",
    "superscript",
    "time",
    "code",
    "rowgroup"
  ]);
  var CHECKABLE = /* @__PURE__ */ new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"]);
  var VALUE_ROLES = /* @__PURE__ */ new Set(["slider", "spinbutton", "progressbar", "meter", "scrollbar"]);
  var TEXT_ROLES = /* @__PURE__ */ new Set(["textbox", "searchbox", "combobox"]);
  var CHILDREN_PRESENTATIONAL = /* @__PURE__ */ new Set([
    "button",
    "checkbox",
    "img",
    "math",
    "menuitemcheckbox",
    "menuitemradio",
    "meter",
    "option",
    "progressbar",
    "radio",
    "scrollbar",
    "separator",
    "slider",
    "switch",
    "tab"
  ]);
  var TABLE_PARTS = /* @__PURE__ */ new Set(["row", "cell", "gridcell", "columnheader", "rowheader"]);
  var FORM_TAGS = /* @__PURE__ */ new Set(["input", "select", "textarea", "button", "fieldset", "optgroup", "option"]);
  var SNAPSHOT_OPTIONS = ["root", "depth", "maxOptions"];
  function snapshot(env, options) {
    const opts = options || {};
    checkKeys(opts, SNAPSHOT_OPTIONS, "snapshot");
    const ctx = new Ctx();
    const walk = {
      ctx,
      env,
      count: 0,
      maxOptions: opts.maxOptions == null ? 10 : Math.max(0, opts.maxOptions | 0),
      active: deepActiveElement(document),
      owned: /* @__PURE__ */ new Map(),
      ownedDone: /* @__PURE__ */ new Set()
    };
    let rootEl = documentElement(document);
    if (opts.root != null) rootEl = env.resolve(opts.root);
    collectOwned(walk, docQuerySelectorAll(document, "[aria-owns]"));
    const top = { role: "fragment", children: [] };
    if (rootEl) {
      visitElement(walk, rootEl, top, { pointer: false, disabled: false, visible: true, text: true });
    }
    finish(top);
    const depth = opts.depth == null ? Infinity : Math.max(0, opts.depth | 0);
    const out = render(top, env, depth);
    return {
      text: out.text,
      element_count: walk.count,
      ref_count: out.refCount,
      unmeasurable: ctx.unmeasurable,
      frames: out.frames,
      url: String(document.URL),
      title: String(document.title)
    };
  }
  function collectOwned(walk, owners) {
    for (let i = 0; i < owners.length; i++) {
      const owner = owners[i];
      for (const target of idRefs(owner, "aria-owns")) {
        if (target === owner || contains(target, owner) || walk.owned.has(target)) continue;
        walk.owned.set(target, owner);
      }
    }
  }
  function visitNode(walk, node, parent, inherited) {
    const type = nodeType(node);
    if (type === TEXT_NODE) {
      if (inherited.visible && inherited.text) {
        const data = nodeData(node);
        if (data) parent.children.push(data);
      }
      return;
    }
    if (type !== ELEMENT_NODE) return;
    if (walk.owned.has(node)) return;
    visitElement(walk, node, parent, inherited);
  }
  function visitElement(walk, el, parent, inherited) {
    const ctx = walk.ctx;
    walk.count++;
    if (hidesSubtree(ctx, el)) return;
    const style = ctx.style(el);
    const visible = !isVisibilityHidden(ctx, el);
    const html = isHTML(el);
    const tag = localName(el);
    const role = getRole(el);
    const pointer = style.cursor === "pointer";
    const disabled = inherited.disabled || ariaToken(el, "aria-disabled") === "true";
    const labelling = html && tag === "label" && labelsRenderedControl(ctx, el);
    const childInherited = { pointer, disabled, visible, text: inherited.text && !labelling };
    const shadow = shadowRoot(el);
    if (shadow) collectOwned(walk, fragQuerySelectorAll(shadow, "[aria-owns]"));
    const outermostPointer = pointer && !inherited.pointer && !labelling;
    const wantsRef = visible && isRefWorthy(el, tag, role, outermostPointer) && isActionable(ctx, el);
    const node = visible && (wantsRef || !FLATTENED.has(role)) ? createNode(walk, el, tag, role, wantsRef, disabled) : null;
    if (html && (tag === "iframe" || tag === "frame")) {
      if (node) visitFrame(walk, el, node, parent);
      return;
    }
    const target = node || parent;
    const block = !node && !style.display.startsWith("inline") && style.display !== "contents";
    if (block) target.children.push(" ");
    if (!(node && html && fillControl(walk, el, tag, role, node))) {
      const isDetails = html && tag === "details";
      forEachFlatChild(el, (child) => {
        if (isDetails && isClosedDetailsContent(el, child)) return;
        visitNode(walk, child, target, childInherited);
      });
    }
    visitOwned(walk, el, target, childInherited);
    if (block) target.children.push(" ");
    if (node) {
      if (TABLE_PARTS.has(role)) nameTablePart(walk.ctx, el, role, node);
      if (role === "link" && html && hasAttr(el, "href")) node.url = attr(el, "href");
      if (role === "listbox" && !(html && tag === "select")) capOptions(walk, node);
      parent.children.push(node);
    }
  }
  function createNode(walk, el, tag, role, wantsRef, disabled) {
    const node = { el, role, name: "", states: "", value: null, url: null, wantsRef, children: [] };
    if (!NAME_PROHIBITED.has(role) && !TABLE_PARTS.has(role)) {
      node.name = accessibleName(walk.ctx, el, role, true);
    }
    node.states = statesOf(walk, el, tag, role, disabled);
    return node;
  }
  function visitFrame(walk, el, node, parent) {
    const box = walk.ctx.box(el);
    if (box && (box.w <= 0 || box.h <= 0)) return;
    const key = walk.env.frameKeys.get(el);
    node.frame = key === void 0 ? "?" : key;
    parent.children.push(node);
  }
  function labelsRenderedControl(ctx, label) {
    const control = labelControl(label);
    return control !== null && !isHiddenForAria(ctx, control);
  }
  function nameTablePart(ctx, el, role, node) {
    const explicit = hasAttr(el, "aria-label") || hasAttr(el, "aria-labelledby");
    if (!explicit) {
      for (const c of node.children) {
        if (typeof c !== "string") return;
      }
    }
    node.name = accessibleName(ctx, el, role, true);
  }
  function visitOwned(walk, el, target, inherited) {
    if (!hasAttribute(el, "aria-owns")) return;
    for (const owned of idRefs(el, "aria-owns")) {
      if (walk.owned.get(owned) !== el || walk.ownedDone.has(owned)) continue;
      walk.ownedDone.add(owned);
      visitElement(walk, owned, target, inherited);
    }
  }
  function isRefWorthy(el, tag, role, outermostPointer) {
    if (INTERACTIVE_ROLES.has(role) || outermostPointer) return true;
    const tabindex = attr(el, "tabindex");
    if (tabindex !== null) return parseInt(tabindex, 10) >= 0;
    if (!isHTML(el)) return false;
    switch (tag) {
      case "a":
      case "area":
        return hasAttr(el, "href");
      case "button":
      case "input":
      case "select":
      case "textarea":
      case "summary":
        return true;
      case "audio":
      case "video":
        return hasAttr(el, "controls");
      default:
        return isContentEditable(el);
    }
  }
  function statesOf(walk, el, tag, role, ariaDisabled) {
    const html = isHTML(el);
    let s = "";
    if (CHECKABLE.has(role)) {
      let checked = ariaToken(el, "aria-checked");
      if (html && tag === "input" && !hasAttr(el, "aria-checked")) {
        checked = inputIndeterminate(el) && inputType(el) === "checkbox" ? "mixed" : inputChecked(el) ? "true" : "";
      }
      if (checked === "true") s += " [checked]";
      else if (checked === "mixed") s += " [checked=mixed]";
    }
    if (ariaDisabled || html && FORM_TAGS.has(tag) && matches(el, ":disabled")) s += " [disabled]";
    const expanded = ariaToken(el, "aria-expanded");
    if (expanded === "true") s += " [expanded]";
    else if (html && tag === "summary" && role === "button" && detailsOpen(parentNode(el))) {
      s += " [expanded]";
    }
    const level = headingLevel(el, role);
    if (level) s += " [level=" + level + "]";
    const pressed = ariaToken(el, "aria-pressed");
    if (pressed === "true") s += " [pressed]";
    else if (pressed === "mixed") s += " [pressed=mixed]";
    if (role === "option" || role === "tab" || role === "treeitem" || role === "gridcell" || role === "row" || role === "columnheader" || role === "rowheader") {
      const selected = html && tag === "option" ? optionSelected(el) : ariaToken(el, "aria-selected") === "true";
      if (selected) s += " [selected]";
    }
    if (el === walk.active && tag !== "body" && tag !== "html") s += " [active]";
    const invalid = ariaToken(el, "aria-invalid");
    if (invalid && invalid !== "false" || html && FORM_TAGS.has(tag) && matches(el, ":user-invalid")) {
      s += " [invalid]";
    }
    if (ariaToken(el, "aria-required") === "true" || html && (tag === "input" || tag === "select" || tag === "textarea") && hasAttr(el, "required")) {
      s += " [required]";
    }
    if (ariaToken(el, "aria-readonly") === "true" || html && (tag === "input" || tag === "textarea") && hasAttr(el, "readonly") && TEXT_ROLES.has(role)) {
      s += " [readonly]";
    }
    return s;
  }
  function fillControl(walk, el, tag, role, node) {
    if (tag === "input") {
      const type = inputType(el);
      if (TEXT_ROLES.has(role) || VALUE_ROLES.has(role)) {
        const v = inputValue(el);
        node.value = type === "password" && v ? "\u2022".repeat(8) : v;
      }
      return true;
    }
    if (tag === "textarea") {
      node.value = textareaValue(el);
      return true;
    }
    if (tag === "select") {
      const options = selectOptions(el);
      if (options.length > walk.maxOptions) {
        node.states += " [options=" + options.length + "]";
        node.value = selectedText(el);
        return true;
      }
      return false;
    }
    if (VALUE_ROLES.has(role)) {
      node.value = ariaValue(el);
      if (node.value === "" && (tag === "progress" || tag === "meter")) node.value = attr(el, "value") || "";
      return tag === "progress" || tag === "meter";
    }
    return false;
  }
  function selectedText(select) {
    const sel = selectSelectedOptions(select);
    const parts = [];
    for (let i = 0; i < sel.length; i++) parts.push(optionText(sel[i]));
    return parts.join(", ");
  }
  function ariaValue(el) {
    const vt = attr(el, "aria-valuetext");
    if (vt && vt.trim()) return vt.trim();
    const vn = attr(el, "aria-valuenow");
    return vn ? vn.trim() : "";
  }
  function capOptions(walk, node) {
    let count = 0;
    const selected = [];
    for (const c of node.children) {
      if (typeof c !== "string" && c.role === "option") {
        count++;
        if (c.states.includes("[selected]")) selected.push(c.name);
      }
    }
    if (count <= walk.maxOptions) return;
    node.children = node.children.filter((c) => typeof c === "string" || c.role !== "option");
    node.states += " [options=" + count + "]";
    node.value = selected.join(", ");
  }
  function finish(node) {
    const out = [];
    let text = null;
    for (const c of node.children) {
      if (typeof c === "string") {
        text = text === null ? c : text + c;
        continue;
      }
      if (text !== null) {
        pushText(out, text);
        text = null;
      }
      finish(c);
      if (c.role === "listitem" && !c.wantsRef && !c.name && c.children.length === 1 && typeof c.children[0] !== "string") {
        out.push(c.children[0]);
      } else {
        out.push(c);
      }
    }
    if (text !== null) pushText(out, text);
    node.children = out;
    if (CHILDREN_PRESENTATIONAL.has(node.role) && !hasRef(node)) node.children = [];
    dropRepeatedName(node);
    if (out.length === 1 && typeof out[0] === "string" && node.name && NAME_FROM_CONTENT.has(node.role) && out[0] === node.name) {
      node.children = [];
    }
  }
  function hasRef(node) {
    for (const c of node.children) {
      if (typeof c !== "string" && (c.wantsRef || hasRef(c))) return true;
    }
    return false;
  }
  function dropRepeatedName(node) {
    const first = node.children[0];
    if (!node.name || first === void 0) return;
    if (node.children.length === 1) {
      if (typeof first !== "string" && first.role === "img" && !first.wantsRef && first.name === node.name && first.children.length === 0) {
        node.children = [];
      }
      return;
    }
    if (first === node.name || typeof first !== "string" && first.role === "caption" && !first.wantsRef && first.children.length === 1 && first.children[0] === node.name) {
      node.children.shift();
    }
  }
  function pushText(out, raw) {
    const t = raw.replace(/[\s\u00a0]+/g, " ").trim();
    if (t) out.push(t);
  }

  // src/index.js
  var VERSION = true ? "1.0.0" : "0.0.0";
  var MAX_ATTRIBUTES = 40;
  var MAX_ATTRIBUTE_LENGTH = 200;
  var PREFIX_PATTERN = /^(?:f[1-9][0-9]*_)*$/;
  function isElementValue(v) {
    if (v == null || typeof v !== "object") return false;
    try {
      return isElement(v);
    } catch (e) {
      return false;
    }
  }
  function checkElement(v, what) {
    if (!isElementValue(v)) throw badArgument(what + ": expected an element");
    return v;
  }
  function boundedAttributes(el) {
    const out = {};
    const names = getAttributeNames(el);
    const n = Math.min(names.length, MAX_ATTRIBUTES);
    for (let i = 0; i < n; i++) {
      let v = attr(el, names[i]) || "";
      if (v.length > MAX_ATTRIBUTE_LENGTH) v = v.slice(0, MAX_ATTRIBUTE_LENGTH) + "\u2026";
      out[names[i]] = v;
    }
    return out;
  }
  function create(options) {
    if (options != null) checkKeys(options, ["prefix"], "create");
    const prefix = options && options.prefix != null ? String(options.prefix) : "";
    if (!PREFIX_PATTERN.test(prefix)) throw badArgument("create: bad prefix " + JSON.stringify(prefix));
    const refs = new Refs(prefix);
    const frameKeys = /* @__PURE__ */ new WeakMap();
    function resolve(ref) {
      const hit = refs.lookup(ref);
      if (!hit) throw bridgeError("UnknownRef", String(ref), { ref: String(ref) });
      if (hit.stale) {
        const e = hit.entry;
        throw bridgeError("StaleRef", ref, { ref, role: e.role, name: e.name, tag: e.tag });
      }
      return hit.element;
    }
    const env = { refs, frameKeys, resolve };
    const instance2 = {
      version: VERSION,
      prefix,
      // { text, element_count, ref_count, unmeasurable, frames }.
      snapshot(opts) {
        return snapshot(env, opts);
      },
      // Remembers the host's key for a frame owner.  Takes (element, key), or
      // the element as `this` and (key).
      tagFrame(a, b) {
        let el;
        let key;
        if (isElementValue(a)) {
          el = a;
          key = b;
        } else {
          el = checkElement(this, "tagFrame");
          key = a;
        }
        const tag = localName(el);
        if (tag !== "iframe" && tag !== "frame") throw badArgument("tagFrame: expected an iframe element");
        frameKeys.set(el, String(key));
        return true;
      },
      // { ref, role, name, tag, attributes } for a live ref, else an error
      // object with what was last known.
      describe(ref) {
        const hit = refs.lookup(ref);
        if (!hit) return { error: "UnknownRef", ref: String(ref) };
        const e = hit.entry;
        if (hit.stale) return { error: "StaleRef", ref, role: e.role, name: e.name, tag: e.tag };
        const el = hit.element;
        const role = getRole(el);
        const name = accessibleName(new Ctx(), el, role, false);
        return { ref, role, name, tag: localName(el), attributes: boundedAttributes(el) };
      },
      element(ref) {
        return resolve(ref);
      },
      // The role, name, description and ref of up to `limit` elements
      // matching css: { items, total }.
      accessible(css, limit) {
        if (typeof css !== "string") throw badArgument("accessible: selector must be a string");
        const max = limit == null ? 200 : Math.max(0, limit | 0);
        let list;
        try {
          list = docQuerySelectorAll(document, css);
        } catch (e) {
          throw bridgeError("InvalidSelector", css, { selector: css });
        }
        const ctx = new Ctx();
        const items = [];
        const n = Math.min(list.length, max);
        for (let i = 0; i < n; i++) items.push(accessibleItem(ctx, refs, list[i]));
        return { items, total: list.length };
      },
      role(el) {
        return getRole(checkElement(el, "role"));
      },
      name(el) {
        checkElement(el, "name");
        return accessibleName(new Ctx(), el, getRole(el), false);
      }
    };
    return Object.freeze(instance2);
  }
  function accessibleItem(ctx, refs, el) {
    const role = getRole(el);
    const name = accessibleName(ctx, el, role, false);
    const description = accessibleDescription(ctx, el, name);
    let ref = refs.peek(el);
    if (ref === null && !isHiddenForAria(ctx, el)) {
      const parent = flatParent(el);
      const parentPointer = isElement(parent) && ctx.style(parent).cursor === "pointer";
      const pointer = ctx.style(el).cursor === "pointer" && !parentPointer;
      if (isRefWorthy(el, localName(el), role, pointer) && isActionable(ctx, el)) {
        ref = refs.assign(el, role, name, localName(el));
      }
    }
    return { role, name, description, ref };
  }
  var instances = /* @__PURE__ */ new Map();
  function instance(prefix) {
    const key = prefix == null ? "" : String(prefix);
    let inst = instances.get(key);
    if (inst === void 0) {
      inst = create({ prefix: key });
      instances.set(key, inst);
    }
    return inst;
  }
  if (!Object.getOwnPropertyDescriptor(globalThis, "__vdxBridge")) {
    Object.defineProperty(globalThis, "__vdxBridge", {
      value: Object.freeze({ version: VERSION, create, instance }),
      enumerable: false,
      writable: false,
      configurable: false
    });
  }
})();
