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
  var hasAttributes = method(Element.prototype, "hasAttributes");
  var querySelectorAll = method(Element.prototype, "querySelectorAll");
  var docQuerySelectorAll = method(Document.prototype, "querySelectorAll");
  var docGetElementsByTagName = method(Document.prototype, "getElementsByTagName");
  var docCreateTreeWalker = method(Document.prototype, "createTreeWalker");
  var treeWalkerNextNode = method(TreeWalker.prototype, "nextNode");
  var collectionLength = getter(HTMLCollection.prototype, "length");
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
  var docContentType = getter(Document.prototype, "contentType");
  var docFonts = getter(Document.prototype, "fonts");
  var firstElementChild = getter(DocumentFragment.prototype, "firstElementChild");
  var docFullscreenElement = getter(Document.prototype, "fullscreenElement");
  var fontSetSize = getter(FontFaceSet.prototype, "size");
  var winGetComputedStyle = uncurry(window.getComputedStyle);
  function computedStyle(el, pseudo2) {
    return pseudo2 === void 0 ? winGetComputedStyle(window, el) : winGetComputedStyle(window, el, pseudo2);
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
  var TEST_ID_ATTRIBUTES = ["data-testid", "data-test-id", "data-test", "data-cy", "data-qa"];
  function elementTag(el) {
    const t = el.localName;
    return typeof t === "string" ? t : localName(el);
  }
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
  function isSpace(c) {
    return c === 32 || c >= 9 && c <= 13 || c === 160 || c === 5760 || c >= 8192 && c <= 8202 || c === 8232 || c === 8233 || c === 8239 || c === 8287 || c === 12288 || c === 65279;
  }
  var SPACES = /\s+/g;
  function normalize(s) {
    const n = s.length;
    if (n === 0) return s;
    if (!isSpace(s.charCodeAt(0)) && !isSpace(s.charCodeAt(n - 1)) && isCollapsed(s)) return s;
    return s.replace(SPACES, " ").trim();
  }
  function isCollapsed(s) {
    let prev = false;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 32) {
        if (prev) return false;
        prev = true;
      } else if (c < 33 || c > 126 && isSpace(c)) {
        return false;
      } else {
        prev = false;
      }
    }
    return true;
  }

  // src/roles.js
  var ROLES = new Set("alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell group heading img insertion link list listbox listitem log main marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem image mark suggestion comment graphics-document graphics-object graphics-symbol".split(" "));
  var ROLE_SYNONYMS = Object.assign(/* @__PURE__ */ Object.create(null), { directory: "list", image: "img" });
  var NEEDS_NAME = /* @__PURE__ */ new Set(["region", "form"]);
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
  var WALK_ATTRIBUTES = [
    "role",
    "tabindex",
    "inert",
    "contenteditable",
    "title",
    "aria-hidden",
    "aria-checked",
    "aria-expanded",
    "aria-level",
    "aria-pressed",
    "aria-selected",
    "aria-required",
    "aria-readonly",
    ...GLOBAL_ARIA
  ].map((a) => "[" + a + "]").join(",");
  var PRESENTATIONAL_PARENTS = Object.assign(/* @__PURE__ */ Object.create(null), {
    li: ["ul", "ol", "menu"],
    tr: ["table", "thead", "tbody", "tfoot"],
    td: ["tr"],
    th: ["tr"],
    thead: ["table"],
    tbody: ["table"],
    tfoot: ["table"],
    dt: ["dl"],
    dd: ["dl"]
  });
  var SIMPLE = Object.assign(/* @__PURE__ */ Object.create(null), {
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
  });
  var INPUT_ROLES = Object.assign(/* @__PURE__ */ Object.create(null), {
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
  });
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
  function explicitRole(el, hasName) {
    const value = attr(el, "role");
    if (!value) return "";
    const tokens = value.trim().toLowerCase().split(/\s+/);
    for (const token of tokens) {
      if (!ROLES.has(token)) continue;
      if (NEEDS_NAME.has(token) && !named(el, hasName)) continue;
      return ROLE_SYNONYMS[token] || token;
    }
    return "";
  }
  var CELLS = ["row", "grid", "table", "treegrid"];
  var MENU_ITEMS = ["group", "menu", "menubar"];
  var REQUIRED_CONTEXT = Object.assign(/* @__PURE__ */ Object.create(null), {
    columnheader: CELLS,
    gridcell: CELLS,
    rowheader: CELLS,
    listitem: ["list", "directory"],
    menuitem: MENU_ITEMS,
    menuitemcheckbox: MENU_ITEMS,
    menuitemradio: MENU_ITEMS,
    option: ["group", "listbox"],
    row: ["grid", "rowgroup", "table", "treegrid"],
    tab: ["tablist"],
    treeitem: ["group", "tree"]
  });
  function inRequiredContext(el, role) {
    const context = REQUIRED_CONTEXT[role];
    for (let p = flatParent(el); isElement(p); p = flatParent(p)) {
      const r = explicitRole(p) || implicitRole(p);
      if (r === "generic" || r === "none" || r === "presentation") continue;
      return context.includes(r === "img" ? "image" : r);
    }
    return false;
  }
  function ariaRoleName(el, role) {
    if (REQUIRED_CONTEXT[role] !== void 0 && explicitRole(el) === role && !inRequiredContext(el, role)) {
      role = implicitRole(el);
    }
    if (role === "generic" && tagOf(el) === "form" && isHTML(el) && !explicitRole(el)) return "form";
    if ((role === "banner" || role === "contentinfo") && !isScopedToBody(el)) return "generic";
    if (role === "img") {
      const svgRoot = tagOf(el) === "svg" && namespaceURI(el) === SVG_NS && !explicitRole(el);
      return svgRoot ? "graphics-document" : "image";
    }
    if (role === "presentation") return "none";
    return role;
  }
  function getRole(el, hasName, plain, tag, html) {
    if (plain === true) {
      return inheritsPresentation(el, true, tag, html) ? "none" : implicitRole(el, hasName, true, tag, html);
    }
    const explicit = explicitRole(el, hasName);
    if (explicit === "none" || explicit === "presentation") {
      if (isFocusable(el) || hasGlobalAria(el)) return implicitRole(el, hasName, void 0, tag, html);
      return "none";
    }
    if (explicit) return explicit;
    if (inheritsPresentation(el, false, tag, html)) return "none";
    return implicitRole(el, hasName, void 0, tag, html);
  }
  function inheritsPresentation(el, plain, tag, html) {
    if (!(html === void 0 ? isHTML(el) : html)) return false;
    const parents = PRESENTATIONAL_PARENTS[tag === void 0 ? localName(el) : tag];
    if (!parents) return false;
    if (!plain && (hasAttr(el, "tabindex") || hasGlobalAria(el))) return false;
    for (let p = parentNode(el); isElement(p); p = parentNode(p)) {
      const tag2 = localName(p);
      const r = explicitRole(p);
      if (r === "none" || r === "presentation") return !isFocusable(p) && !hasGlobalAria(p);
      if (r) return false;
      if (tag2 === "table" || tag2 === "ul" || tag2 === "ol" || tag2 === "menu" || tag2 === "dl") return false;
      if (!parents.includes(tag2) && !(tag2 in PRESENTATIONAL_PARENTS)) return false;
    }
    return false;
  }
  function defaultHasName(el) {
    const label2 = attr(el, "aria-label");
    if (label2 && label2.trim()) return true;
    if (hasAttr(el, "aria-labelledby") && idRefs(el, "aria-labelledby").length > 0) return true;
    const title = attr(el, "title");
    return !!(title && title.trim());
  }
  function implicitRole(el, hasName, plain, tag, html) {
    if (tag === void 0) tag = localName(el);
    if (!(html === void 0 ? isHTML(el) : html)) return svgRole(el, tag);
    const simple = SIMPLE[tag];
    if (simple) return tag === "option" ? optionRole(el) : simple;
    switch (tag) {
      case "a":
      case "area":
        return el.hasAttribute("href") ? "link" : "generic";
      case "header":
        return isScopedToBody(el) ? "banner" : "generic";
      case "footer":
        return isScopedToBody(el) ? "contentinfo" : "generic";
      case "aside":
        return isScopedToBody(el, true) || named(el, hasName) ? "complementary" : "generic";
      case "section":
        return named(el, hasName) ? "region" : "generic";
      case "form":
        return named(el, hasName) ? "form" : "generic";
      case "img":
        return imgRole(el, plain);
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
  function named(el, hasName) {
    return hasName ? hasName(el) : defaultHasName(el);
  }
  var SVG_SHAPES = /* @__PURE__ */ new Set(["circle", "ellipse", "line", "path", "polygon", "polyline", "rect"]);
  function svgRole(el, tag) {
    const ns = namespaceURI(el);
    if (ns === MATHML_NS) return tag === "math" ? "math" : "generic";
    if (ns !== SVG_NS) return "generic";
    switch (tag) {
      case "svg":
        return "img";
      case "a":
        return hasAttr(el, "href") || hasAttr(el, "xlink:href") ? "link" : "group";
      case "image":
        return "img";
      case "g":
        return svgNamed(el) ? "group" : "generic";
      default:
        if (SVG_SHAPES.has(tag)) return svgNamed(el) || isFocusable(el) ? "graphics-symbol" : "none";
        return "generic";
    }
  }
  function svgNamed(el) {
    if (defaultHasName(el)) return true;
    for (let c = firstChild(el); c; c = nextSibling(c)) {
      if (isElement(c) && localName(c) === "title" && (textContent(c) || "").trim()) return true;
    }
    return false;
  }
  function optionRole(el) {
    const p = parentNode(el);
    const pt = tagOf(p);
    if (pt === "select" || pt === "datalist") return "option";
    if (pt === "optgroup" && tagOf(parentNode(p)) === "select") return "option";
    return "generic";
  }
  function imgRole(el, plain) {
    const alt = el.getAttribute("alt");
    if (plain === true) return alt === "" ? "presentation" : "img";
    if (alt === "" && !attr(el, "title") && !isFocusable(el) && !hasGlobalAria(el)) {
      return "presentation";
    }
    return "img";
  }
  function inputRole(el) {
    const type = el.type;
    if (type === "hidden") return "generic";
    if (el.hasAttribute("list") && (type === "text" || type === "search" || type === "email" || type === "tel" || type === "url")) {
      return "combobox";
    }
    return INPUT_ROLES[type] || "textbox";
  }
  function selectRole(el) {
    if (el.multiple || el.size > 1) return "listbox";
    return "combobox";
  }
  function listItemRole(el) {
    for (let p = flatParent(el); isElement(p); p = flatParent(p)) {
      const role = explicitRole(p);
      if (role) return role === "list" ? "listitem" : "generic";
      const tag = tagOf(p);
      if (tag === "ul" || tag === "ol" || tag === "menu") return "listitem";
      if (tag !== "slot" && !tag.includes("-")) return "generic";
    }
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
  function isScopedToBody(el, aside) {
    for (let p = flatParent(el); isElement(p); p = flatParent(p)) {
      const html = isHTML(p);
      const r = explicitRole(p);
      if (aside === true && (r === "main" || !r && html && localName(p) === "main")) return true;
      if (html && SECTIONING_TAGS.has(localName(p))) return false;
      if (r && SECTIONING_ROLES.has(r)) return false;
    }
    return true;
  }
  function headingLevel(el, role, plain) {
    if (role !== "heading") return 0;
    const lv = plain === true ? 0 : parseInt(attr(el, "aria-level") || "", 10);
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

  // src/counters.js
  function parseCounterList(value) {
    if (!value || value === "none") return [];
    const out = [];
    const re = /([-\w]+)(?:\s+(-?\d+))?/g;
    let m;
    while ((m = re.exec(value)) !== null) out.push([m[1], m[2] === void 0 ? null : parseInt(m[2], 10)]);
    return out;
  }
  var State = class {
    constructor() {
      this.stacks = /* @__PURE__ */ new Map();
    }
    top(name) {
      const s = this.stacks.get(name);
      return s !== void 0 && s.length > 0 ? s[s.length - 1] : null;
    }
    reset(name, value, scope) {
      let s = this.stacks.get(name);
      if (s === void 0) this.stacks.set(name, s = []);
      const top = s.length > 0 ? s[s.length - 1] : null;
      if (top !== null && top.scope === scope) top.value = value;
      else s.push({ value, scope });
    }
    increment(name, by, scope) {
      const top = this.top(name);
      if (top === null) this.reset(name, by, scope);
      else top.value += by;
    }
    set(name, value, scope) {
      const top = this.top(name);
      if (top === null) this.reset(name, value, scope);
      else top.value = value;
    }
    // Ends the instances scoped to node's children.
    leave(node) {
      for (const s of this.stacks.values()) {
        while (s.length > 0 && s[s.length - 1].scope === node) s.pop();
      }
    }
    // A copy of every counter's values, outermost first.
    copy() {
      const out = /* @__PURE__ */ new Map();
      for (const [name, s] of this.stacks) {
        if (s.length > 0) out.set(name, s.map((i) => i.value));
      }
      return out;
    }
  };
  function apply(state, cs, scope, listItem, valueAttr, listOwner, start) {
    const resets = parseCounterList(cs.counterReset);
    for (const [name, v] of resets) state.reset(name, v === null ? 0 : v, scope);
    if (listOwner && !resets.some((r) => r[0] === "list-item")) state.reset("list-item", start - 1, scope);
    const incs = parseCounterList(cs.counterIncrement);
    for (const [name, v] of incs) state.increment(name, v === null ? 1 : v, scope);
    if (listItem && !incs.some((r) => r[0] === "list-item")) {
      if (valueAttr !== null) state.set("list-item", valueAttr, scope);
      else state.increment("list-item", 1, scope);
    }
    for (const [name, v] of parseCounterList(cs.counterSet)) state.set(name, v === null ? 0 : v, scope);
  }
  function styleOf(ctx, el, which) {
    try {
      return computedStyle(el, which);
    } catch (e) {
      ctx.fail(el);
      return null;
    }
  }
  var USES_COUNTER = /\bcounters?\(/i;
  function walk(ctx, state, el, found) {
    const cs = styleOf(ctx, el, void 0);
    if (cs === null || cs.display === "none") return;
    const tag = tagOf(el);
    const list = tag === "ol" || tag === "ul" || tag === "menu";
    const valueAttr = tag === "li" ? parseInt(getAttribute(el, "value") || "", 10) : NaN;
    const startAttr = tag === "ol" ? parseInt(getAttribute(el, "start") || "", 10) : NaN;
    apply(
      state,
      cs,
      parentNode(el),
      cs.display.includes("list-item"),
      Number.isNaN(valueAttr) ? null : valueAttr,
      list,
      Number.isNaN(startAttr) ? 1 : startAttr
    );
    pseudo(ctx, state, el, "::before", found);
    for (let c = firstChild(el); c !== null; c = nextSibling(c)) {
      if (nodeType(c) === ELEMENT_NODE) walk(ctx, state, c, found);
    }
    pseudo(ctx, state, el, "::after", found);
    state.leave(el);
  }
  function pseudo(ctx, state, el, which, found) {
    const cs = styleOf(ctx, el, which);
    if (cs === null) return;
    const content = cs.content;
    if (!content || content === "none" || content === "normal") return;
    apply(state, cs, el, false, null, false, 1);
    if (USES_COUNTER.test(content)) {
      let entry = found.get(el);
      if (entry === void 0) found.set(el, entry = {});
      entry[which] = state.copy();
    }
  }
  function countersAt(ctx, el, which) {
    const root = getRootNode(el);
    if (ctx.counters === void 0) ctx.counters = /* @__PURE__ */ new Map();
    let found = ctx.counters.get(root);
    if (found === void 0) {
      found = /* @__PURE__ */ new Map();
      const state = new State();
      const top = nodeType(root) === DOCUMENT_NODE ? documentElement(root) : null;
      if (top !== null) {
        walk(ctx, state, top, found);
      } else {
        for (let c = firstChild(root); c !== null; c = nextSibling(c)) {
          if (nodeType(c) === ELEMENT_NODE) walk(ctx, state, c, found);
        }
      }
      ctx.counters.set(root, found);
    }
    const entry = found.get(el);
    return entry && entry[which] || /* @__PURE__ */ new Map();
  }
  var ROMAN = [
    [1e3, "m"],
    [900, "cm"],
    [500, "d"],
    [400, "cd"],
    [100, "c"],
    [90, "xc"],
    [50, "l"],
    [40, "xl"],
    [10, "x"],
    [9, "ix"],
    [5, "v"],
    [4, "iv"],
    [1, "i"]
  ];
  function roman(n) {
    if (n < 1 || n > 3999) return String(n);
    let out = "";
    for (const [v, s] of ROMAN) {
      while (n >= v) {
        out += s;
        n -= v;
      }
    }
    return out;
  }
  function alpha(n) {
    if (n < 1) return String(n);
    let out = "";
    while (n > 0) {
      n--;
      out = String.fromCharCode(97 + n % 26) + out;
      n = Math.floor(n / 26);
    }
    return out;
  }
  function formatCounter(n, style) {
    switch ((style || "decimal").toLowerCase()) {
      case "none":
        return "";
      case "disc":
        return "\u2022";
      case "circle":
        return "\u25E6";
      case "square":
        return "\u25AA";
      case "decimal-leading-zero":
        return n >= 0 && n < 10 ? "0" + n : String(n);
      case "lower-roman":
        return roman(n);
      case "upper-roman":
        return roman(n).toUpperCase();
      case "lower-alpha":
      case "lower-latin":
        return alpha(n);
      case "upper-alpha":
      case "upper-latin":
        return alpha(n).toUpperCase();
      default:
        return String(n);
    }
  }

  // src/csstext.js
  var ASCII_SPACES = /[ \t\n\f\r]+/g;
  function collapse(s) {
    return s.replace(ASCII_SPACES, " ");
  }
  function transformed(ctx, el, text) {
    if (el !== null && nodeType(el) === DOCUMENT_FRAGMENT_NODE) el = shadowHost(el);
    if (el === null || nodeType(el) !== ELEMENT_NODE || !ctx.mayTransform(el)) return text;
    switch (ctx.textTransform(el)) {
      case "uppercase":
        return text.toUpperCase();
      case "lowercase":
        return text.toLowerCase();
      case "capitalize":
        return text.replace(new RegExp("(^|[\\s\\u00a0\\-(])(\\p{L})", "gu"), (m, a, b) => a + b.toUpperCase());
      default:
        return text;
    }
  }
  var CONTENT_PART = '"((?:[^"\\\\]|\\\\.)*)"|attr\\(\\s*([\\w-]+)\\s*\\)|(counters?)\\(\\s*([\\w-]+)\\s*(?:,\\s*"((?:[^"\\\\]|\\\\.)*)"\\s*)?(?:,\\s*([\\w-]+)\\s*)?\\)';
  function pseudoText(ctx, el, which) {
    let cs;
    try {
      cs = computedStyle(el, which);
    } catch (e) {
      ctx.fail(el);
      return "";
    }
    const content = cs.content;
    if (!content || content === "none" || content === "normal") return "";
    if (cs.display === "none" || cs.visibility === "hidden" || cs.visibility === "collapse") return "";
    const slash = topLevelSlash(content);
    const source = slash >= 0 ? content.slice(slash + 1) : stripFunctions(content);
    let out = "";
    let counters = null;
    const re = new RegExp(CONTENT_PART, "gi");
    let m;
    while ((m = re.exec(source)) !== null) {
      if (m[1] !== void 0) {
        out += unescapeCss(m[1]);
      } else if (m[2] !== void 0) {
        out += attr(el, m[2]) || "";
      } else {
        if (counters === null) counters = countersAt(ctx, el, which);
        const values = counters.get(m[4]) || [0];
        if (m[3].length === 7) out += formatCounter(values[values.length - 1], m[6]);
        else out += values.map((v) => formatCounter(v, m[6])).join(unescapeCss(m[5] || ""));
      }
    }
    if (!out) return "";
    out = collapse(out);
    const image = slash >= 0 || /\b(?:url|image-set|[\w-]*gradient|image)\(/i.test(content);
    const apart = !image && cs.display === "inline" && isZero(cs.paddingLeft) && isZero(cs.paddingRight) && isZero(cs.marginLeft) && isZero(cs.marginRight);
    return apart ? out : " " + out + " ";
  }
  function isZero(length) {
    return !length || parseFloat(length) === 0;
  }
  function stripFunctions(content) {
    let out = "";
    let i = 0;
    const re = /\b(?:url|image-set|[\w-]*gradient|counters?|image)\(/gi;
    let m;
    while ((m = re.exec(content)) !== null) {
      out += content.slice(i, m.index);
      let depth = 1;
      let j = m.index + m[0].length;
      let quote = "";
      for (; j < content.length && depth > 0; j++) {
        const c = content[j];
        if (c === "\\") {
          j++;
          continue;
        }
        if (quote) {
          if (c === quote) quote = "";
          continue;
        }
        if (c === '"' || c === "'") quote = c;
        else if (c === "(") depth++;
        else if (c === ")") depth--;
      }
      i = j;
      re.lastIndex = j;
    }
    return out + content.slice(i);
  }
  function topLevelSlash(s) {
    let quoted2 = false;
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === "\\") {
        i++;
        continue;
      }
      if (c === '"') quoted2 = !quoted2;
      else if (c === "/" && !quoted2) return i;
    }
    return -1;
  }
  function unescapeCss(s) {
    return s.replace(/\\([0-9a-fA-F]{1,6}\s?|.)/g, (all, seq) => {
      if (/^[0-9a-fA-F]/.test(seq)) return String.fromCodePoint(parseInt(seq, 16));
      return seq;
    });
  }

  // src/geometry.js
  var G_HARMLESS = 0;
  var G_SELF = 1;
  var G_ANY = 2;
  var MIN_FONT_PX = 4;
  var GEOMETRY_TAGS = /* @__PURE__ */ new Set([
    "html",
    "body",
    "main",
    "div",
    "section",
    "article",
    "header",
    "footer",
    "nav",
    "aside",
    "ul",
    "ol",
    "li",
    "p",
    "form",
    "label",
    "span",
    "a",
    "strong",
    "b",
    "em",
    "i",
    "h2",
    "h3",
    "h4",
    "address",
    "blockquote",
    "figure",
    "figcaption",
    "dl",
    "dt",
    "dd"
  ]);
  var GEOMETRY_TARGETS = ":is(a, button)";
  var UA_DISPLAY = /* @__PURE__ */ new Map([["a", "inline"], ["button", "inline-block"]]);
  var HARMLESS = /* @__PURE__ */ new Set([
    "color",
    "cursor",
    "pointer-events",
    "visibility",
    "opacity",
    "z-index",
    "box-shadow",
    "text-shadow",
    "text-align",
    "text-align-last",
    "text-indent",
    "text-transform",
    "white-space",
    "white-space-collapse",
    "text-wrap",
    "text-wrap-mode",
    "text-wrap-style",
    "word-break",
    "overflow-wrap",
    "word-wrap",
    "hyphens",
    "tab-size",
    "caret-color",
    "accent-color",
    "user-select",
    "filter",
    "quotes",
    "color-scheme",
    "forced-color-adjust",
    "print-color-adjust",
    "text-rendering",
    "image-rendering",
    "isolation",
    "mix-blend-mode",
    "vertical-align",
    "touch-action",
    "scroll-behavior",
    "counter-reset",
    "counter-increment",
    "counter-set"
  ]);
  var HARMLESS_PREFIXES = [
    "background-",
    "outline-",
    "text-decoration-",
    "list-style-",
    "transition-",
    "text-emphasis-",
    "scroll-margin",
    "scroll-padding",
    "--"
  ];
  var SELF = /* @__PURE__ */ new Set([
    "width",
    "height",
    "min-width",
    "min-height",
    "max-width",
    "max-height",
    "block-size",
    "inline-size",
    "min-block-size",
    "min-inline-size",
    "max-block-size",
    "max-inline-size",
    "display",
    "gap",
    "row-gap",
    "column-gap",
    "order",
    "box-sizing",
    "position",
    "top",
    "right",
    "bottom",
    "left",
    "float",
    "clear",
    "object-fit",
    "object-position",
    "aspect-ratio",
    "contain",
    "table-layout",
    "border-collapse",
    "border-spacing",
    "caption-side",
    "empty-cells",
    "box-decoration-break",
    "resize"
  ]);
  var SELF_PREFIXES = [
    "margin",
    "padding",
    "border-",
    "grid-",
    "flex",
    "justify-",
    "align-",
    "place-",
    "overflow",
    "inset",
    "contain-intrinsic-",
    "overscroll-behavior"
  ];
  var classes = /* @__PURE__ */ new Map();
  function classOfName(name) {
    let c = classes.get(name);
    if (c !== void 0) return c;
    if (HARMLESS.has(name) || HARMLESS_PREFIXES.some((p) => name.startsWith(p))) c = G_HARMLESS;
    else if (SELF.has(name) || SELF_PREFIXES.some((p) => name.startsWith(p))) c = G_SELF;
    else if (name.startsWith("font-")) c = G_HARMLESS;
    else c = G_ANY;
    classes.set(name, c);
    return c;
  }
  var PX = /^(\d+(?:\.\d+)?)px$/;
  function geometryClass(style) {
    let worst = G_HARMLESS;
    for (let i = 0; i < style.length; i++) {
      const name = style[i];
      let c;
      if (name === "font-size") {
        const m = PX.exec(style.getPropertyValue(name));
        c = m !== null && Number(m[1]) >= MIN_FONT_PX ? G_HARMLESS : G_ANY;
      } else if (name === "line-height") {
        c = style.getPropertyValue(name) === "normal" ? G_HARMLESS : G_ANY;
      } else if (name === "font-size-adjust") {
        c = style.getPropertyValue(name) === "none" ? G_HARMLESS : G_ANY;
      } else {
        c = classOfName(name);
      }
      if (c === G_ANY) return G_ANY;
      if (c > worst) worst = c;
    }
    return worst;
  }
  var OWN_PSEUDO = /^[^,]*::?(?:before|after|marker)\s*$/i;
  function scanGeometry(scan, selector, style, flat) {
    if (scan.geom === null || !style || OWN_PSEUDO.test(selector)) return;
    const c = geometryClass(style);
    if (c === G_HARMLESS) return;
    if (c === G_SELF && flat) scan.geom.push(selector);
    else scan.geom = null;
  }
  function scanLooseGeometry(scan, style) {
    if (scan.geom !== null && style && geometryClass(style) !== G_HARMLESS) scan.geom = null;
  }
  function boxByGeometry(el, tag) {
    if (tag === "button") return true;
    if (tag !== "a") return false;
    const c = el.firstChild;
    return c !== null && c.nodeType === TEXT_NODE && PRINTABLE.test(c.data);
  }
  var PRINTABLE = /[!-~]/;

  // src/sheets.js
  var PSEUDO_SELECTOR = /:(?:before|after)\b/i;
  var CROSS_TREE = /:host|::slotted|::part/i;
  var UA_BOXED = /* @__PURE__ */ new Set([
    "html",
    "body",
    "div",
    "span",
    "p",
    "a",
    "li",
    "ul",
    "ol",
    "section",
    "article",
    "header",
    "footer",
    "main",
    "nav",
    "aside",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "b",
    "i",
    "em",
    "strong",
    "small",
    "u",
    "s",
    "mark",
    "code",
    "pre",
    "blockquote",
    "dl",
    "dt",
    "dd",
    "figure",
    "figcaption",
    "label",
    "button",
    "abbr",
    "cite",
    "q",
    "sub",
    "sup",
    "time",
    "address",
    "kbd",
    "samp",
    "var"
  ]);
  var BOX_ATTRIBUTES = /* @__PURE__ */ new Set(["hidden", "popover", "style"]);
  function boxByMarkup(tag, names) {
    if (!UA_BOXED.has(tag)) return false;
    if (names === null) return true;
    for (let i = 0; i < names.length; i++) {
      if (BOX_ATTRIBUTES.has(names[i])) return false;
    }
    return true;
  }
  var UA_STYLED = /* @__PURE__ */ new Set(["a", "area", "button", "input", "label", "select", "textarea"]);
  var PRESENTATION = /* @__PURE__ */ new Set(["cursor", "pointer-events", "visibility"]);
  var INLINE_WORDS = /cursor|pointer-events|visibility|all/i;
  function setsInherited(style) {
    return !!(style.cursor || style.pointerEvents || style.visibility);
  }
  var INHERIT_CURSOR = 1;
  var INHERIT_EVENTS = 2;
  var INHERIT_VISIBILITY = 4;
  function inheritedSet(style) {
    return (style.cursor ? INHERIT_CURSOR : 0) | (style.pointerEvents ? INHERIT_EVENTS : 0) | (style.visibility ? INHERIT_VISIBILITY : 0);
  }
  function setsBox(style) {
    return !!(style.display || style.contentVisibility);
  }
  function scanRules(rules, scan, nested) {
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      const selector = r.selectorText;
      if (selector !== void 0) {
        if (PSEUDO_SELECTOR.test(selector)) scan.pseudo = true;
        if (r.style && r.style.textTransform) scan.transform = true;
        const flat = !nested && !CROSS_TREE.test(selector);
        if (r.style && setsInherited(r.style) && scan.inherit !== null) {
          if (flat) {
            scan.inherit.push(selector);
            scan.inheritSet |= inheritedSet(r.style);
          } else {
            scan.inherit = null;
          }
        }
        if (r.style && setsBox(r.style) && scan.box !== null) {
          if (flat) scan.box.push(selector);
          else scan.box = null;
        }
        scanGeometry(scan, selector, r.style, flat);
        if (r.cssRules && r.cssRules.length > 0) scanRules(r.cssRules, scan, true);
        continue;
      }
      if (r.styleSheet !== void 0 && r.href !== void 0) {
        if (r.styleSheet) scanSheet(r.styleSheet, scan);
        continue;
      }
      if (r.keyText !== void 0) {
        if (r.style && setsInherited(r.style)) scan.inherit = null;
        if (r.style && setsBox(r.style)) scan.box = null;
        scanLooseGeometry(scan, r.style);
        continue;
      }
      if (r.cssRules && r.cssRules.length > 0) {
        scanRules(r.cssRules, scan, nested || r.start !== void 0);
      } else if (r.style) {
        if (setsInherited(r.style)) scan.inherit = null;
        if (setsBox(r.style)) scan.box = null;
        scanLooseGeometry(scan, r.style);
      }
    }
  }
  function scanSheet(sheet, scan) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch (e) {
      scan.pseudo = true;
      scan.transform = true;
      scan.inherit = null;
      scan.box = null;
      scan.geom = null;
      return;
    }
    if (rules) scanRules(rules, scan, false);
  }
  function scanTree(root) {
    const scan = {
      pseudo: false,
      transform: false,
      inherit: [],
      inheritSet: 0,
      box: [],
      geom: [],
      entered: false
    };
    const lists = [root.styleSheets, root.adoptedStyleSheets];
    for (let l = 0; l < lists.length; l++) {
      const list = lists[l];
      if (!list) continue;
      for (let i = 0; i < list.length; i++) scanSheet(list[i], scan);
    }
    if (!scan.transform) {
      const inline = '[style*="text-transform" i]';
      try {
        scan.transform = (nodeType(root) === DOCUMENT_NODE ? docQuerySelectorAll(root, inline) : fragQuerySelectorAll(root, inline)).length > 0;
      } catch (e) {
        scan.transform = true;
      }
    }
    return scan;
  }
  var MARKUP_NONE = 0;
  var MARKUP_READ = 1;
  var MARKUP_POINTER = 2;
  var MARKUP_NO_POINTER = 3;
  function markupStyle(el, tag, names, direct, html, editable) {
    if (names !== null) {
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        if (PRESENTATION.has(name)) return MARKUP_READ;
        if (name === "style") {
          const style = direct ? el.getAttribute("style") : getAttribute(el, "style");
          if (style !== null && INLINE_WORDS.test(style)) return MARKUP_READ;
        }
      }
    }
    if (!UA_STYLED.has(tag)) return MARKUP_NONE;
    if (!html || editable !== false) return MARKUP_READ;
    if (tag === "a") return names !== null && names.includes("href") ? MARKUP_POINTER : MARKUP_NONE;
    return tag === "button" ? MARKUP_NO_POINTER : MARKUP_READ;
  }
  function addCandidates(root, selectors, out, only) {
    if (selectors === null) return false;
    if (selectors.length === 0) return true;
    const joined = selectors.join(",");
    const doc = nodeType(root) === DOCUMENT_NODE;
    let list;
    try {
      if (only !== void 0) {
        const probe = doc ? documentElement(root) : firstElementChild(root);
        if (probe !== null) matches(probe, joined);
      }
      const query = only === void 0 ? joined : only + ":is(" + joined + ")";
      list = doc ? docQuerySelectorAll(root, query) : fragQuerySelectorAll(root, query);
    } catch (e) {
      return false;
    }
    for (let i = 0; i < list.length; i++) out.add(list[i]);
    return true;
  }

  // src/visibility.js
  var F_NONE = 1;
  var F_HIDDEN = 2;
  var F_POINTER = 4;
  var F_NO_EVENTS = 8;
  var F_INHERITED = F_HIDDEN | F_POINTER | F_NO_EVENTS;
  var NO_LABELS = Object.freeze([]);
  var Ctx = class {
    constructor() {
      this.flagMap = /* @__PURE__ */ new Map();
      this.displays = /* @__PURE__ */ new Map();
      this.boxes = /* @__PURE__ */ new Map();
      this.names = /* @__PURE__ */ new Map();
      this.contents = /* @__PURE__ */ new Map();
      this.hidden = /* @__PURE__ */ new Map();
      this.trees = /* @__PURE__ */ new Map();
      this.labelMaps = /* @__PURE__ */ new Map();
      this.transforms = /* @__PURE__ */ new Map();
      this.candidates = /* @__PURE__ */ new Set();
      this.candidateSet = 0;
      this.readAll = false;
      this.boxCandidates = /* @__PURE__ */ new Set();
      this.boxAll = false;
      this.geomCandidates = /* @__PURE__ */ new Set();
      this.geometry = false;
      this.childBoxed = false;
      this.fresh = true;
      this.unmeasurable = 0;
      this.failed = /* @__PURE__ */ new Set();
      this.rects = null;
    }
    // The style flags of el (F_*), read from its computed style once per
    // call.  An element whose style cannot be read counts as rendered,
    // visible, without a pointer cursor.
    flags(el) {
      const f = this.flagMap.get(el);
      if (f !== void 0) return f;
      this.fresh = false;
      return this.readStyle(el);
    }
    // The computed display of el.
    display(el) {
      const d = this.displays.get(el);
      if (d !== void 0) return d;
      this.fresh = false;
      this.readStyle(el);
      return this.displays.get(el);
    }
    // Reads el's style flags.  With `layout`, el is known to be laid out by
    // its parent unless its own display is none, and this.childBoxed is set
    // to whether its display and content-visibility lay out its children.
    readStyle(el, layout) {
      let f = 0;
      let display = "inline";
      let children2 = false;
      try {
        const cs = computedStyle(el);
        display = cs.display;
        if (display === "none") {
          f = F_NONE;
        } else {
          const v = cs.visibility;
          if (v === "hidden" || v === "collapse") f |= F_HIDDEN;
          if (cs.cursor === "pointer") f |= F_POINTER;
          if (cs.pointerEvents === "none") f |= F_NO_EVENTS;
          if (layout === true) children2 = LAYOUT_DISPLAYS.has(display) && cs.contentVisibility !== "hidden";
        }
      } catch (e) {
        this.fail(el);
      }
      this.flagMap.set(el, f);
      this.displays.set(el, display);
      if (layout === true) this.childBoxed = children2;
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
        if (known !== void 0) {
          this.childBoxed = inferred;
          return known;
        }
      }
      if (read || markup === MARKUP_READ || this.readAll || this.candidates.size > 0 && this.candidates.has(el)) {
        this.childBoxed = inferred;
        if (inferred && !read && markup !== MARKUP_READ && !this.readAll) {
          return this.readInherited(el, inheritedFlags(parentFlags, markup));
        }
        return this.readStyle(el, layout);
      }
      if (layout) return this.readStyle(el, true);
      let rendered = inferred;
      if (!rendered && leaf === true) {
        this.childBoxed = false;
        return inheritedFlags(parentFlags, markup);
      }
      if (!rendered) {
        try {
          rendered = direct === true ? el.checkVisibility() : checkVisibility(el);
        } catch (e) {
          rendered = false;
        }
      }
      this.childBoxed = rendered && boxable;
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
        const cs = computedStyle(el);
        if ((set & INHERIT_VISIBILITY) !== 0) {
          const v = cs.visibility;
          f = v === "hidden" || v === "collapse" ? f | F_HIDDEN : f & ~F_HIDDEN;
        }
        if ((set & INHERIT_CURSOR) !== 0) f = cs.cursor === "pointer" ? f | F_POINTER : f & ~F_POINTER;
        if ((set & INHERIT_EVENTS) !== 0) f = cs.pointerEvents === "none" ? f | F_NO_EVENTS : f & ~F_NO_EVENTS;
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
      if (scan === void 0) {
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
      if (nodeType(root) === DOCUMENT_NODE) {
        this.geometry = addCandidates(root, scan.geom, this.geomCandidates, GEOMETRY_TARGETS) && plainTopLayer(root);
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
      if (b !== void 0) return b;
      try {
        const r = getBoundingClientRect(el);
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
      return this.tree(getRootNode(el)).pseudo;
    }
    // False when no style of el's tree or of the document can set
    // text-transform, so text needs no transform read.
    mayTransform(el) {
      const root = getRootNode(el);
      if (this.tree(root).transform) return true;
      const doc = ownerDocument(el);
      return doc !== null && doc !== root && this.tree(doc).transform;
    }
    // The computed text-transform of el, read once per call.
    textTransform(el) {
      let t = this.transforms.get(el);
      if (t === void 0) {
        try {
          t = computedStyle(el).textTransform;
        } catch (e) {
          this.fail(el);
          t = "none";
        }
        this.transforms.set(el, t);
      }
      return t;
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
          const control = labelControl(labels[i]) || hiddenInputFor(root, type, labels[i]);
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
  var LAYOUT_DISPLAYS = /* @__PURE__ */ new Set([
    "block",
    "inline",
    "inline-block",
    "flex",
    "inline-flex",
    "grid",
    "inline-grid",
    "flow-root",
    "list-item",
    "contents",
    "table",
    "inline-table",
    "table-row",
    "table-cell",
    "table-row-group",
    "table-header-group",
    "table-footer-group",
    "table-caption"
  ]);
  function inheritedFlags(parentFlags, markup) {
    let f = parentFlags & F_INHERITED;
    if (markup === MARKUP_POINTER) f |= F_POINTER;
    else if (markup === MARKUP_NO_POINTER) f &= ~F_POINTER;
    return f;
  }
  function plainTopLayer(doc) {
    try {
      return fontSetSize(docFonts(doc)) === 0 && docFullscreenElement(doc) === null;
    } catch (e) {
      return false;
    }
  }
  function isDisplayNone(ctx, el) {
    return (ctx.flags(el) & F_NONE) !== 0;
  }
  function isVisibilityHidden(ctx, el) {
    return (ctx.flags(el) & F_HIDDEN) !== 0;
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
    return neverRendered(tagOf(el), namespaceURI(el));
  }
  function neverRendered(tag, ns) {
    if (ns === HTML_NS) return NEVER_RENDERED.has(tag);
    return ns === SVG_NS && SVG_NOT_RENDERED.has(tag);
  }
  function hidesSubtree(ctx, el) {
    if (isNeverRendered(el)) return true;
    if (ariaToken(el, "aria-hidden") === "true") return true;
    if (hasAttribute(el, "inert")) return true;
    if (localName(el) === "area" && namespaceURI(el) === HTML_NS) return false;
    return isDisplayNone(ctx, el);
  }
  function isClosedDetailsContent(details, child2) {
    if (detailsOpen(details)) return false;
    if (!isElement(child2) || tagOf(child2) !== "summary") return true;
    let c = firstChild(details);
    while (c) {
      if (isElement(c) && tagOf(c) === "summary") return c !== child2;
      c = nextSibling(c);
    }
    return true;
  }
  function isHiddenForAria(ctx, el) {
    const cached = ctx.hidden.get(el);
    if (cached !== void 0) return cached;
    let hidden = false;
    if (isVisibilityHidden(ctx, el)) hidden = true;
    for (let n = el, child2 = null; !hidden && n; child2 = n, n = flatParent(n)) {
      if (!isElement(n)) continue;
      if (hidesSubtree(ctx, n)) hidden = true;
      else if (child2 && tagOf(n) === "details" && isClosedDetailsContent(n, child2)) hidden = true;
    }
    ctx.hidden.set(el, hidden);
    return hidden;
  }
  function subtreeHiddenReason(ctx, el) {
    for (let n = el, child2 = null; n; child2 = n, n = flatParent(n)) {
      if (!isElement(n)) continue;
      const on = n === el ? "" : " on its ancestor " + describeElement(n);
      if (isNeverRendered(n)) return "never rendered (" + describeElement(n) + ")";
      if (ariaToken(n, "aria-hidden") === "true") return 'aria-hidden="true"' + on;
      if (hasAttribute(n, "inert")) return "inert" + on;
      if (isDisplayNone(ctx, n)) {
        return (hasAttribute(n, "hidden") ? "the hidden attribute (display:none)" : "display:none") + on;
      }
      if (child2 && tagOf(n) === "details" && isClosedDetailsContent(n, child2)) return "inside a closed <details>";
    }
    return null;
  }
  function describeElement(el) {
    const id = attr(el, "id");
    return "<" + tagOf(el) + (id ? "#" + id : "") + ">";
  }
  function hiddenInputFor(root, type, label2) {
    const id = attr(label2, "for");
    if (!id) return null;
    const el = type === DOCUMENT_NODE ? docGetElementById(root, id) : fragGetElementById(root, id);
    return el && tagOf(el) === "input" && inputType(el) === "hidden" ? el : null;
  }
  function isHiddenFromAllUsers(ctx, el) {
    if (isVisibilityHidden(ctx, el)) return true;
    for (let n = el; n; n = flatParent(n)) {
      if (!isElement(n)) continue;
      if (isNeverRendered(n) || isDisplayNone(ctx, n)) return true;
    }
    return false;
  }
  function isActionable(ctx, el, flags) {
    if (((flags === void 0 ? ctx.flags(el) : flags) & F_NO_EVENTS) !== 0) return false;
    return ctx.hasBox(el) === true;
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
  function accessibleName(ctx, el, role, visible, asTold) {
    const includeHidden = visible ? false : isHiddenForAria(ctx, el);
    const told = asTold === true && includeHidden;
    const cached = told ? void 0 : ctx.names.get(el);
    if (cached !== void 0) return cached;
    const r = role || getRole(el);
    const state = {
      root: el,
      includeHidden,
      told,
      path: [],
      inLabelledBy: false,
      // Pure: every node reached so far was reached from the root through
      // content alone, so the content text of a node does not depend on the
      // root and is cached in ctx.contents.  taint counts the detours
      // (aria-labelledby met inside content) that would make it depend.
      pure: !includeHidden,
      taint: 0,
      // The nodes aria-labelledby reached: met again as content in the same
      // computation, they add nothing (accname 1.2, 2B and 2F).
      seen: null
    };
    const name = flatten(textAlternative(ctx, el, r, state, ROOT));
    if (!told) ctx.names.set(el, name);
    return name;
  }
  var PLAIN_CONTENT_TAGS = /* @__PURE__ */ new Set(["a", "h1", "h2", "h3", "h4", "h5", "h6", "button"]);
  function textNamed(tag, role) {
    return PLAIN_CONTENT_TAGS.has(tag) && NAME_FROM_CONTENT.has(role);
  }
  var HOST_NAMED_TAGS = /* @__PURE__ */ new Set([
    ...LABELABLE,
    "img",
    "area",
    "fieldset",
    "figure",
    "table",
    "optgroup",
    "option",
    "input",
    "textarea"
  ]);
  function plainContentName(ctx, el, tag, role, ownText2, plainTree) {
    if (!NAME_FROM_CONTENT.has(role)) return HOST_NAMED_TAGS.has(tag) ? void 0 : "";
    if (!PLAIN_CONTENT_TAGS.has(tag)) return void 0;
    const cached = ctx.names.get(el);
    if (cached !== void 0) return cached;
    if (el.shadowRoot !== null || plainTree !== true && (ctx.mayHavePseudo(el) || ctx.mayTransform(el))) {
      return void 0;
    }
    if (tag === "button" && ctx.labelsOf(el).length > 0) return void 0;
    let text = "";
    if (ownText2 !== void 0) {
      if (!ownText2) return void 0;
      text = ownText2;
    } else {
      let c = el.firstChild;
      if (c === null) return void 0;
      for (; c !== null; c = c.nextSibling) {
        if (c.nodeType !== TEXT_NODE) return void 0;
        text += c.data;
      }
    }
    if (isVisibilityHidden(ctx, el) || !text.trim()) return void 0;
    ctx.contents.set(el, text);
    const name = flatten(text);
    ctx.names.set(el, name);
    return name;
  }
  var INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;
  var ASCII_SPACES2 = /[ \t\n\f\r]+/g;
  function flatten(s) {
    if (s.length === 0 || isFlat(s)) return s;
    return s.replace(INVISIBLE, "").replace(ASCII_SPACES2, " ").replace(/^ | $/g, "");
  }
  function isFlat(s) {
    const n = s.length;
    if (s.charCodeAt(0) === 32 || s.charCodeAt(n - 1) === 32) return false;
    let prev = 0;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 33) {
        if (c !== 32 || prev === 32) return false;
      } else if (c >= 173 && (c === 173 || c >= 8203 && c <= 8205 || c === 8288 || c === 65279)) {
        return false;
      }
      prev = c;
    }
    return true;
  }
  var NAME_DISPLAY_MAX = 200;
  function displayName(name) {
    if (name.length <= NAME_DISPLAY_MAX) return { text: name, length: 0 };
    let cut = name.lastIndexOf(" ", NAME_DISPLAY_MAX);
    if (cut < NAME_DISPLAY_MAX / 2) cut = NAME_DISPLAY_MAX;
    return { text: name.slice(0, cut) + "\u2026", length: name.length };
  }
  function accessibleDescription(ctx, el, name) {
    const refs = idRefs(el, "aria-describedby");
    if (refs.length > 0) {
      const text = flatten(referencedText(ctx, refs, el, null));
      if (text) return text;
    }
    const desc = attr(el, "aria-description");
    if (desc && desc.trim()) return flatten(desc);
    const title = attr(el, "title");
    if (title && flatten(title) !== name) return flatten(title);
    return "";
  }
  var ROOT = 0;
  var REFERENCED = 1;
  var LABEL = 2;
  var CONTENT = 3;
  function labelledByRefs(el) {
    if (hasAttribute(el, "aria-labelledby")) return idRefs(el, "aria-labelledby");
    return hasAttribute(el, "aria-labeledby") ? idRefs(el, "aria-labeledby") : [];
  }
  function referencedText(ctx, refs, root, outer) {
    const parts = [];
    const used = [];
    for (const ref of refs) {
      if (used.includes(ref)) continue;
      if (outer !== null && outer.seen !== null && outer.seen.has(ref)) continue;
      used.push(ref);
      if (outer !== null) {
        if (outer.seen === null) outer.seen = /* @__PURE__ */ new Set();
        outer.seen.add(ref);
        outer.pure = false;
      }
      const state = {
        root,
        includeHidden: isHiddenForAria(ctx, ref),
        path: [],
        inLabelledBy: true,
        pure: false,
        taint: 0,
        seen: null
      };
      parts.push(textAlternative(ctx, ref, getRole(ref), state, REFERENCED));
    }
    return parts.join(" ");
  }
  function textAlternative(ctx, el, role, state, how) {
    if (state.path.includes(el)) return "";
    if (how === CONTENT && state.seen !== null && state.seen.has(el)) return "";
    if (how === CONTENT && !state.includeHidden) {
      if (hidesSubtree(ctx, el)) return "";
      if (isVisibilityHidden(ctx, el)) return hiddenContainerText(ctx, el, state);
    }
    state.path.push(el);
    try {
      return computeSteps(ctx, el, role, state, how);
    } finally {
      state.path.pop();
    }
  }
  function hiddenContainerText(ctx, el, state) {
    state.path.push(el);
    try {
      return contentText(ctx, el, state);
    } finally {
      state.path.pop();
    }
  }
  function computeSteps(ctx, el, role, state, how) {
    if (how === CONTENT && localName(el) === "slot" && isHTML(el)) return contentText(ctx, el, state);
    if (!state.inLabelledBy) {
      const refs = labelledByRefs(el);
      if (refs.length > 0) {
        if (how === CONTENT) state.taint++;
        const text2 = referencedText(ctx, refs, state.root, state);
        if (text2.trim()) return text2;
      }
    }
    if (how === REFERENCED && el === state.root) {
      const own2 = attr(el, "aria-label");
      if (own2 && own2.trim()) return own2;
    }
    if (how !== ROOT && (el !== state.root || how === REFERENCED)) {
      const value = embeddedValue(ctx, el, role, state, how);
      if (value !== null) return value;
    }
    const label2 = attr(el, "aria-label");
    if (label2 && label2.trim()) return label2;
    if (isHTML(el) && localName(el) === "img" && attr(el, "alt") === "") return "";
    if (role !== "none" && role !== "presentation") {
      const native = hostLanguageLabel(ctx, el, state, how);
      if (native) return native;
    }
    if (isHTML(el) && localName(el) === "input" && inputType(el) === "image" && attr(el, "alt") === "") return "";
    let text = "";
    if ((how !== ROOT || NAME_FROM_CONTENT.has(role)) && !(how === ROOT && state.told)) {
      text = contentText(ctx, el, state);
      if (text.trim()) return text;
    }
    const title = attr(el, "title");
    if (title && title.trim()) return title;
    if (how !== ROOT) return text;
    return placeholderOf(el);
  }
  function embeddedValue(ctx, el, role, state, how) {
    if (how === CONTENT && (role === "menu" || role === "menubar")) return "";
    const tag = isHTML(el) ? localName(el) : "";
    if (role === "textbox" || role === "searchbox") {
      if (tag === "input") return inputValue(el);
      if (tag === "textarea") return textareaValue(el);
      return null;
    }
    if (tag === "select" && role !== "combobox" && role !== "listbox") return "";
    if (role === "combobox" || role === "listbox") {
      if (tag === "select") {
        const opts = selectSelectedOptions(el);
        const parts2 = [];
        for (let i = 0; i < opts.length; i++) parts2.push(optionText(opts[i]));
        return parts2.join(" ");
      }
      if (tag === "input") return inputValue(el);
      const selected2 = selectedOptions(el, role === "combobox");
      const parts = [];
      for (let i = 0; i < selected2.length; i++) {
        parts.push(accessibleName(ctx, selected2[i], "option", true));
      }
      if (parts.length > 0 || role === "listbox") return parts.join(" ");
      if (isFocusable(el) || isContentEditable(el)) return contentText(ctx, el, state);
      if (how !== CONTENT) return null;
      const label2 = attr(el, "aria-label");
      return label2 && label2.trim() ? label2 : "";
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
  var SELECTED_OPTION = '[role="option"][aria-selected="true"]';
  function selectedOptions(el, owned) {
    const out = [...querySelectorAll(el, SELECTED_OPTION)];
    if (!owned || !hasAttribute(el, "aria-owns")) return out;
    for (const o of idRefs(el, "aria-owns")) {
      if (o === el || contains(o, el) || contains(el, o)) continue;
      if (matches(o, SELECTED_OPTION)) out.push(o);
      else out.push(...querySelectorAll(o, SELECTED_OPTION));
    }
    return out;
  }
  function hostLanguageLabel(ctx, el, state, how) {
    if (!isHTML(el)) return svgTitle(el);
    const tag = localName(el);
    const type = tag === "input" ? inputType(el) : "";
    if (how !== LABEL && LABELABLE.has(tag)) {
      const labels = ctx.labelsOf(el);
      if (labels.length > 0) {
        const parts = [];
        const pure = state.pure;
        state.pure = false;
        for (let i = 0; i < labels.length; i++) {
          const lab = labels[i];
          const hidden = !state.includeHidden && isHiddenForAria(ctx, lab);
          const inner = hidden ? { ...state, includeHidden: true, path: state.path.slice() } : state;
          parts.push(textAlternative(ctx, lab, "generic", inner, LABEL));
        }
        state.pure = pure;
        const text = parts.join(" ");
        if (text.trim()) return text;
      }
    }
    if (type === "button" || type === "submit" || type === "reset") {
      const v = attr(el, "value");
      if (v) return v;
    }
    if (type === "submit") return "Submit";
    if (type === "reset") return "Reset";
    if (type === "image") {
      const alt = attr(el, "alt");
      if (alt && alt.trim()) return alt;
      if (alt === "") return "";
      const title = attr(el, "title");
      return title && title.trim() ? title : "Submit";
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
        const label2 = attr(el, "label");
        return label2 && label2.trim() ? label2 : "";
      }
      // A file input without a label or title is named by its button's
      // text, as Playwright's snapshot names it.  Here vdxlua parts from
      // Chromium's tree and HTML-AAM, which leave it nameless: a nameless
      // button in a snapshot gives an agent nothing to write a locator with.
      case "input": {
        if (how === LABEL || inputType(el) !== "file") return "";
        const title = attr(el, "title");
        if (title && title.trim()) return title;
        return attr(el, "multiple") !== null ? "Choose Files" : "Choose File";
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
    return localName(el) === "a" ? attr(el, "xlink:title") || "" : "";
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
    const pure = state.pure;
    if (pure) {
      const cached = ctx.contents.get(el);
      if (cached !== void 0) return cached;
    }
    const taint = state.taint;
    const pseudo2 = ctx.mayHavePseudo(el);
    const parts = [];
    if (pseudo2) parts.push(pseudoText(ctx, el, "::before"));
    const parentHidden = !state.includeHidden && isVisibilityHidden(ctx, el);
    const tag = tagOf(el);
    const html = (tag === "details" || tag === "slot") && isHTML(el);
    const details = html && tag === "details" && !state.includeHidden ? el : null;
    if (html && tag === "slot" && assignedNodes(el).length > 0) {
      const assigned = assignedNodes(el);
      for (let i = 0; i < assigned.length; i++) contentChild(ctx, assigned[i], state, parentHidden, details, parts);
    } else {
      const direct = tag !== "form";
      const shadow = direct ? el.shadowRoot : shadowRoot(el);
      let c = shadow !== null ? shadow.firstChild : direct ? el.firstChild : firstChild(el);
      while (c !== null) c = contentChild(ctx, c, state, parentHidden, details, parts);
    }
    if (pseudo2) parts.push(pseudoText(ctx, el, "::after"));
    if (hasAttribute(el, "aria-owns")) ownedText(ctx, el, state, parts);
    const out = parts.length === 1 ? parts[0] : parts.join("");
    if (pure && state.taint === taint) ctx.contents.set(el, out);
    return out;
  }
  function ownedText(ctx, el, state, parts) {
    state.taint++;
    const owned = idRefs(el, "aria-owns");
    for (let i = 0; i < owned.length; i++) {
      const o = owned[i];
      if (o === el || contains(o, el) || isHiddenFromAllUsers(ctx, o)) continue;
      if (contains(el, o) && !ariaHiddenBetween(el, o)) continue;
      const text = textAlternative(ctx, o, getRole(o), state, CONTENT);
      if (text) parts.push(" ", text, " ");
    }
  }
  function ariaHiddenBetween(ancestor, el) {
    for (let p = flatParent(el); isElement(p) && p !== ancestor; p = flatParent(p)) {
      if (ariaToken(p, "aria-hidden") === "true") return true;
    }
    return false;
  }
  function contentChild(ctx, child2, state, parentHidden, details, parts) {
    let type = child2.nodeType;
    if (type === TEXT_NODE) {
      if (!parentHidden && (details === null || !isClosedDetailsContent(details, child2))) {
        parts.push(transformed(ctx, child2.parentNode, child2.data));
      }
      return child2.nextSibling;
    }
    if (typeof type !== "number") type = nodeType(child2);
    if (type !== ELEMENT_NODE) return child2.nextSibling;
    const tag = elementTag(child2);
    const direct = tag !== "form";
    const next = direct ? child2.nextSibling : nextSibling(child2);
    if (child2 === state.root) {
      parts.push(" ");
      return next;
    }
    if (details !== null && isClosedDetailsContent(details, child2)) return next;
    const html = (direct ? child2.namespaceURI : namespaceURI(child2)) === HTML_NS;
    if (html && tag === "br") {
      if (!parentHidden) parts.push(" ");
      return next;
    }
    const text = textAlternative(ctx, child2, getRole(child2, void 0, void 0, tag, html), state, CONTENT);
    if (!text) return next;
    const display = ctx.display(child2);
    if (display === "contents" || display === "inline") {
      parts.push(text);
    } else {
      parts.push(" ", text, " ");
    }
    return next;
  }

  // src/refs.js
  var Refs = class {
    constructor(prefix) {
      this.prefix = prefix;
      this.byElement = /* @__PURE__ */ new WeakMap();
      this.byRef = /* @__PURE__ */ new Map();
      this.next = 1;
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
    // The host checked the ref's grammar when it took it (src/page/ref.c),
    // so this is a lookup, not a second parse: a string this registry never
    // gave out is simply not found.
    lookup(ref) {
      const entry = this.byRef.get(ref);
      if (!entry) return null;
      const el = entry.weak.deref();
      if (!el || !isConnected(el) || ownerDocument(el) !== document) {
        return { stale: true, entry };
      }
      return { element: el, entry };
    }
  };

  // src/refworthy.js
  var CONTAINER_ROLES = /* @__PURE__ */ new Set([
    "main",
    "navigation",
    "banner",
    "contentinfo",
    "complementary",
    "region",
    "search",
    "form",
    "list",
    "listitem",
    "table",
    "grid",
    "treegrid",
    "row",
    "cell",
    "gridcell",
    "columnheader",
    "rowheader",
    "dialog",
    "alertdialog",
    "tablist",
    "tabpanel",
    "group",
    "radiogroup",
    "menu",
    "menubar",
    "toolbar",
    "tree"
  ]);
  function containerKind(tag, role, names) {
    if (CONTAINER_ROLES.has(role)) return role === "group" && tag === "details" ? null : "role";
    if (names === null) return null;
    for (let i = 0; i < TEST_ID_ATTRIBUTES.length; i++) {
      if (names.includes(TEST_ID_ATTRIBUTES[i])) return "testid";
    }
    return null;
  }
  function isRefWorthy(el, tag, role, outermostPointer, plain, editable, html) {
    if (INTERACTIVE_ROLES.has(role) || outermostPointer) return true;
    if (plain !== true) {
      const tabindex = attr(el, "tabindex");
      if (tabindex !== null) return parseInt(tabindex, 10) >= 0;
    }
    if (!(html === void 0 ? isHTML(el) : html)) return false;
    switch (tag) {
      case "a":
      case "area":
        return hasAttr(el, "href");
      case "button":
      case "input":
      case "select":
      case "textarea":
        return true;
      // Only a details element's summary opens anything.
      case "summary":
        return isDetailsSummary2(el);
      case "audio":
      case "video":
        return hasAttr(el, "controls");
      default:
        return editable !== false && isContentEditable(el);
    }
  }
  function isDetailsSummary2(el) {
    const parent = parentNode(el);
    if (parent === null || !isHTML(parent) || localName(parent) !== "details") return false;
    for (let c = firstChild(parent); c !== null; c = nextSibling(c)) {
      if (nodeType(c) === ELEMENT_NODE && isHTML(c) && localName(c) === "summary") return c === el;
    }
    return false;
  }

  // src/still.js
  var MIN_CHUNK = 8;
  var MAX_SAMPLED = 2e3;
  function beginSeen() {
    return {
      rects: /* @__PURE__ */ new WeakMap(),
      refEls: [],
      walkMark: { framed: false },
      sampled: /* @__PURE__ */ new WeakMap(),
      live: true
    };
  }
  function noteRef(seen, el) {
    if (seen.refEls.length < MAX_SAMPLED) seen.refEls.push(el);
  }
  function endSeen(seen) {
    requestAnimationFrame(() => {
      seen.walkMark.framed = true;
    });
    const els = seen.refEls;
    seen.refEls = null;
    if (els.length === 0 || typeof requestIdleCallback !== "function") return;
    let i = 0;
    const chunk = (deadline) => {
      if (!seen.live) return;
      const mark2 = { framed: false };
      let n = 0;
      while (i < els.length && (n < MIN_CHUNK || deadline.timeRemaining() > 1)) {
        const el = els[i++];
        if (seen.rects.has(el)) continue;
        n++;
        try {
          seen.sampled.set(el, { rect: getBoundingClientRect(el), mark: mark2 });
        } catch (e) {
        }
      }
      requestAnimationFrame(() => {
        mark2.framed = true;
      });
      if (i < els.length) requestIdleCallback(chunk);
    };
    requestIdleCallback(chunk);
  }
  function dropSeen(seen) {
    if (seen !== null) seen.live = false;
  }
  function animatedAround(el) {
    let list;
    try {
      list = document.getAnimations();
    } catch (e) {
      return true;
    }
    if (list.length === 0) return false;
    const targets2 = /* @__PURE__ */ new Set();
    for (let i = 0; i < list.length; i++) {
      const effect = list[i].effect;
      if (effect && effect.target) targets2.add(effect.target);
    }
    for (let n = el; n !== null; n = flatParent(n)) {
      if (targets2.has(n)) return true;
    }
    return false;
  }
  function boxBeforeFrame(seen, el) {
    if (seen === null || animatedAround(el)) return void 0;
    if (seen.walkMark.framed) {
      const r = seen.rects.get(el);
      if (r !== void 0) return r;
    }
    const s = seen.sampled.get(el);
    return s !== void 0 && s.mark.framed ? s.rect : void 0;
  }

  // src/text.js
  var FRAME_MARK = String.fromCharCode(1) + "frame:";
  function render(top, env, maxDepth, keepNames) {
    const out = { lines: [], refLines: [], frames: [], openListbox: Infinity, env, maxDepth, keepNames };
    for (const child2 of top.children) renderNode(out, child2, "", 0);
    return out;
  }
  function renderNode(out, node, indent, depth) {
    if (depth > out.maxDepth) return;
    if (typeof node === "string") {
      out.lines.push(indent + "- text: " + yamlValue(node));
      return;
    }
    if (node.open === true && out.openListbox === Infinity) out.openListbox = out.lines.length;
    let key = nodeKey(out, node, !(node.nameByKids && !out.keepNames && depth + node.nameByKids <= out.maxDepth));
    const raw = key;
    key = indent + "- " + yamlKey(key);
    if (node.frame !== void 0) {
      out.lines.push(key + ":");
      out.lines.push(indent + "  " + FRAME_MARK + node.frame);
      out.frames.push(node.frame);
      return;
    }
    const kids = node.children;
    const hasValue = node.value != null && node.value !== "";
    const url = node.url != null;
    const placeholder = !!node.placeholder;
    const props = (url ? 1 : 0) + (placeholder ? 1 : 0);
    const valueLine = hasValue && (kids.length > 0 || props > 0);
    if (props === 0 && kids.length === 0) {
      out.lines.push(hasValue ? key + ": " + yamlValue(node.value) : key);
      return;
    }
    if (props === 0 && !valueLine && kids.length === 1 && typeof kids[0] === "string") {
      out.lines.push(key + ": " + yamlValue(kids[0]));
      return;
    }
    if (depth + 1 > out.maxDepth) {
      const hidden = kids.length + props + (valueLine ? 1 : 0);
      out.lines.push(indent + "- " + yamlKey(raw + " [+" + hidden + "]"));
      return;
    }
    out.lines.push(key + ":");
    const inner = indent + "  ";
    if (url) out.lines.push(inner + "- /url: " + yamlValue(node.url));
    if (placeholder) out.lines.push(inner + "- /placeholder: " + yamlValue(node.placeholder));
    if (valueLine) out.lines.push(inner + (kids.length > 0 ? "- /value: " : "- text: ") + yamlValue(node.value));
    for (const child2 of kids) renderNode(out, child2, inner, depth + 1);
  }
  function nodeKey(out, node, withName) {
    let key = node.role;
    if (node.name && withName) {
      const shown = displayName(node.name);
      key += " " + quoted(shown.text);
      if (shown.length > 0) key += " [name=" + shown.length + " chars]";
    }
    key += node.states;
    if (node.wantsRef) {
      const r = node.refTarget;
      const ref = r ? out.env.refs.assign(r.el, r.role, r.name, r.tag) : out.env.refs.assign(node.el, node.role, node.name, node.tag);
      if (out.env.building) noteRef(out.env.building, r ? r.el : node.el);
      key += " [ref=" + ref + "]";
      out.refLines.push(out.lines.length);
    }
    return key;
  }
  var UNSAFE_START = /^(?:[-&*\],?!>|@"'#%~\[]|\s)/;
  var UNSAFE_ANYWHERE = /[\n:](?:\s|$)|\s#|[{}`]|\s$/;
  var CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
  var TYPED = new RegExp("^(?:y|n|yes|no|true|false|on|off|null|=|<<|[-+]?\\.(?:inf|nan)|\\d{4}-\\d\\d?-\\d\\d?(?:[Tt ].*)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?|[-+]?(?:[0-9][0-9_]*)?\\.?[0-9_]+(?:e[-+]?[0-9]+)?)$", "i");
  function needsQuotes(s) {
    return plainScalar(s) ? false : s === "" || UNSAFE_START.test(s) || UNSAFE_ANYWHERE.test(s) || CONTROL.test(s) || /[\n\r\t]/.test(s) || !Number.isNaN(Number(s)) || TYPED.test(s);
  }
  var PLAIN_PUNCTUATION = `!"$%&'()*+,-./;<=>?@[\\]^_|~`;
  var PLAIN_CHAR = new Uint8Array(128);
  for (let c = 48; c < 58; c++) PLAIN_CHAR[c] = 1;
  for (let c = 65; c < 91; c++) PLAIN_CHAR[c] = PLAIN_CHAR[c + 32] = 1;
  for (let i = 0; i < PLAIN_PUNCTUATION.length; i++) PLAIN_CHAR[PLAIN_PUNCTUATION.charCodeAt(i)] = 1;
  function plainScalar(s) {
    const n = s.length;
    if (n <= 5) return false;
    const c0 = s.charCodeAt(0);
    if (!(c0 >= 65 && c0 <= 90) && !(c0 >= 97 && c0 <= 122)) return false;
    if (c0 === 73) return false;
    for (let i = 1; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === 32) {
        if (i === n - 1 || s.charCodeAt(i + 1) === 32) return false;
      } else if (c >= 128 || PLAIN_CHAR[c] === 0) {
        return false;
      }
    }
    return true;
  }
  function quoted(s) {
    if (printableAscii(s)) return '"' + s + '"';
    return JSON.stringify(s).replace(
      /[\u007f-\u009f\u2028\u2029\ufeff]/g,
      (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")
    );
  }
  function printableAscii(s) {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 32 || c > 126 || c === 34 || c === 92) return false;
    }
    return true;
  }
  var MAX_RUN = 4e3;
  function cutRun(s) {
    if (s.length <= MAX_RUN) return s;
    let end = MAX_RUN;
    const c = s.charCodeAt(end - 1);
    if (c >= 55296 && c <= 56319) end--;
    return s.slice(0, end) + "\u2026(" + (s.length - end) + " more characters)";
  }
  function yamlValue(s) {
    const str = cutRun(String(s));
    return needsQuotes(str) ? quoted(str) : str;
  }
  function yamlKey(key) {
    return needsQuotes(key) ? "'" + key.replace(/'/g, "''") + "'" : key;
  }

  // src/budget.js
  var TAIL = 3;
  function safeCut(out, budget) {
    const lines = out.lines;
    let used = 0;
    let last = -1;
    for (let i = budget.fromLine; i < lines.length; i++) {
      const n = lines[i].length + 1;
      if (used + n > budget.cutChars && used > 0) {
        last = i;
        break;
      }
      used += n;
    }
    if (last < 0 || last > lines.length - 1 - TAIL || out.openListbox <= last) return -1;
    return last;
  }
  function spend(walk3, lines, chars) {
    const b = walk3.budget;
    b.lines += lines;
    if (b.lines <= b.fromLine) return;
    b.chars += chars;
    if (b.chars > b.maxChars && b.lines > b.fromLine + TAIL + 1 && !b.stopped) {
      b.stopped = true;
      walk3.limit = walk3.count;
    }
  }
  function runSpend(target, n) {
    const before = target.runChars || 0;
    target.runChars = before + n;
    return Math.max(0, Math.min(MAX_RUN, before + n) - before);
  }

  // src/errors.js
  function bridgeError(kind, detail, fields, Ctor) {
    const e = new (Ctor || Error)(detail);
    e.vdxType = kind;
    e.vdxFields = fields || null;
    return e;
  }
  function badArgument(detail) {
    return bridgeError("InvalidArgument", detail, null, TypeError);
  }
  function checkKeys(opts, allowed, what) {
    if (typeof opts !== "object") throw badArgument(what + ": options must be an object");
    for (const key of Object.keys(opts)) {
      if (!allowed.includes(key)) throw badArgument(what + ": unexpected option " + JSON.stringify(key));
    }
  }

  // src/states.js
  var CHECKABLE = /* @__PURE__ */ new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"]);
  var VALUE_ROLES = /* @__PURE__ */ new Set(["slider", "spinbutton", "progressbar", "meter", "scrollbar"]);
  var TEXT_ROLES = /* @__PURE__ */ new Set(["textbox", "searchbox", "combobox"]);
  var FORM_TAGS = /* @__PURE__ */ new Set(["input", "select", "textarea", "button", "fieldset", "optgroup", "option"]);
  function statesOf(walk3, el, tag, html, role, ariaDisabled, plain) {
    const aria = plain !== true;
    const form = html && FORM_TAGS.has(tag);
    let s = "";
    if (CHECKABLE.has(role)) {
      let checked = aria ? ariaToken(el, "aria-checked") : "";
      if (html && tag === "input" && !(aria && hasAttr(el, "aria-checked"))) {
        checked = el.indeterminate && el.type === "checkbox" ? "mixed" : el.checked ? "true" : "";
      }
      if (checked === "true") s += " [checked]";
      else if (checked === "mixed") s += " [checked=mixed]";
    }
    if (ariaDisabled || form && el.matches(":disabled")) s += " [disabled]";
    if (aria && ariaToken(el, "aria-expanded") === "true") {
      s += " [expanded]";
    } else if (html && tag === "summary" && role === "button" && detailsOpen(el.parentNode)) {
      s += " [expanded]";
    }
    if (el === walk3.active && tag !== "body" && tag !== "html") s += " [active]";
    const level = headingLevel(el, role, plain);
    if (level) s += " [level=" + level + "]";
    if (aria) {
      const pressed = ariaToken(el, "aria-pressed");
      if (pressed === "true") s += " [pressed]";
      else if (pressed === "mixed") s += " [pressed=mixed]";
    }
    if (role === "option" || role === "tab" || role === "treeitem" || role === "gridcell" || role === "row" || role === "columnheader" || role === "rowheader") {
      const selected2 = html && tag === "option" ? el.selected : aria && ariaToken(el, "aria-selected") === "true";
      if (selected2) s += " [selected]";
    }
    const invalid = aria ? ariaToken(el, "aria-invalid") : "";
    if (invalid && invalid !== "false" || form && el.matches(":user-invalid")) {
      s += " [invalid]";
    }
    if (aria && ariaToken(el, "aria-required") === "true" || html && (tag === "input" || tag === "select" || tag === "textarea") && el.hasAttribute("required")) {
      s += " [required]";
    }
    if (aria && ariaToken(el, "aria-readonly") === "true" || html && (tag === "input" || tag === "textarea") && el.hasAttribute("readonly") && TEXT_ROLES.has(role)) {
      s += " [readonly]";
    }
    return s;
  }
  function fillControl(walk3, el, tag, role, node) {
    if (tag === "input") {
      const type = el.type;
      if (TEXT_ROLES.has(role) || VALUE_ROLES.has(role)) {
        const v = el.value;
        node.value = type === "password" && v ? "\u2022".repeat(8) : v;
      }
      return true;
    }
    if (tag === "textarea") {
      node.value = el.value;
      return true;
    }
    if (tag === "select") {
      const options2 = el.options;
      if (options2.length > walk3.maxOptions) {
        node.states += " [options=" + options2.length + "]";
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
    const sel = select.selectedOptions;
    const parts = [];
    for (let i = 0; i < sel.length; i++) parts.push(sel[i].text);
    return parts.join(", ");
  }
  function ariaValue(el) {
    const vt = attr(el, "aria-valuetext");
    if (vt && vt.trim()) return vt.trim();
    const vn = attr(el, "aria-valuenow");
    return vn ? vn.trim() : "";
  }
  function capOptions(walk3, node) {
    let count = 0;
    const selected2 = [];
    for (const c of node.children) {
      if (typeof c !== "string" && c.role === "option") {
        count++;
        if (c.states.includes("[selected]")) selected2.push(c.name);
      }
    }
    if (count <= walk3.maxOptions) return;
    node.children = node.children.filter((c) => typeof c === "string" || c.role !== "option");
    node.states += " [options=" + count + "]";
    node.value = selected2.join(", ");
  }

  // src/tidy.js
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
  var Sep = class {
    constructor(el, display) {
      this.el = el;
      this.display = display === void 0 ? null : display;
    }
  };
  function finish(ctx, node) {
    if (node.tag === "details" && node.role === "group" && !node.wantsRef) mergeSummary(node);
    const out = node.children;
    let kept = 0;
    let text = null;
    let pending = null;
    const n = out.length;
    for (let i = 0; i < n; i++) {
      const c = out[i];
      if (typeof c === "string") {
        if (text === null) {
          text = c;
        } else {
          if (pending !== null && !isSpace(c.charCodeAt(0)) && anyBlock(ctx, pending)) text += " ";
          text += c;
        }
        pending = null;
        continue;
      }
      if (c instanceof Sep) {
        if (text !== null && !isSpace(text.charCodeAt(text.length - 1))) {
          if (pending === null) pending = [c];
          else pending.push(c);
        }
        continue;
      }
      if (text !== null) {
        kept = keepText(out, kept, text);
        text = null;
        pending = null;
      }
      finish(ctx, c);
      if (c.role === "img" && !c.name && !c.wantsRef && c.children.length === 0) continue;
      out[kept++] = c;
    }
    if (text !== null) kept = keepText(out, kept, text);
    out.length = kept;
    if (node.container === "role" && (!hasNode(node) || loneWidget(node))) node.wantsRef = false;
    if (CHILDREN_PRESENTATIONAL.has(node.role) && !hasRef(node)) node.children = [];
    dropRepeatedName(node);
    if (out.length === 1 && typeof out[0] === "string" && node.name && NAME_FROM_CONTENT.has(node.role) && sameText(out[0], node.name)) {
      node.children = [];
    }
    markNameByKids(node);
  }
  var IDENTIFYING = /* @__PURE__ */ new Set(["columnheader", "rowheader"]);
  function markNameByKids(node) {
    if (!node.name || !NAME_FROM_CONTENT.has(node.role) || IDENTIFYING.has(node.role)) return;
    const kids = node.children;
    if (!kids.some((c) => typeof c !== "string")) return;
    if (hasAttr(node.el, "aria-label") || hasAttr(node.el, "aria-labelledby")) return;
    const parts = [];
    const levels = shownText(node, parts);
    if (levels >= 0 && squeeze(parts.join("")) === squeeze(node.name)) node.nameByKids = levels;
  }
  function squeeze(s) {
    return s.replace(/[\s\u200b\u00ad]+/g, "");
  }
  function shownText(node, parts) {
    let levels = 0;
    for (const c of node.children) {
      if (typeof c !== "string" && c.role === "generic" && !c.name && c.children.every((k) => typeof k === "string")) {
        return -1;
      }
      if (typeof c === "string") {
        parts.push(c);
        levels = Math.max(levels, 1);
      } else if (c.name && !c.nameByKids) {
        parts.push(c.name);
        levels = Math.max(levels, 1);
      } else {
        const below = shownText(c, parts);
        if (below < 0) return -1;
        levels = Math.max(levels, 1 + below);
      }
    }
    return levels;
  }
  function mergeSummary(node) {
    const kids = node.children;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (typeof c === "string" || c instanceof Sep || c.tag !== "summary" || parentNode(c.el) !== node.el) {
        continue;
      }
      kids.splice(i, 1, new Sep(c.el), ...c.children, new Sep(c.el));
      if (c.wantsRef) {
        node.wantsRef = true;
        node.refTarget = { el: c.el, role: c.role, name: c.name, tag: c.tag };
      }
      if (c.states.includes(" [active]")) node.states += " [active]";
      return;
    }
  }
  function anyBlock(ctx, seps) {
    for (let i = 0; i < seps.length; i++) {
      const d = seps[i].display !== null ? seps[i].display : ctx.display(seps[i].el);
      if (d !== "contents" && d !== "none" && !d.startsWith("inline")) return true;
    }
    return false;
  }
  function hasRef(node) {
    for (const c of node.children) {
      if (typeof c !== "string" && (c.wantsRef && !c.container || hasRef(c))) return true;
    }
    return false;
  }
  function loneWidget(node) {
    const c = node.children;
    return c.length === 1 && typeof c[0] !== "string" && c[0].wantsRef && !c[0].container;
  }
  function hasNode(node) {
    for (const c of node.children) {
      if (typeof c !== "string") return true;
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
    if (typeof first === "string" && sameText(first, node.name) || typeof first !== "string" && first.role === "caption" && !first.wantsRef && first.children.length === 1 && first.children[0] === node.name) {
      node.children.shift();
    }
  }
  function sameText(a, b) {
    return a === b || snapText(a) === snapText(b);
  }
  function snapText(s) {
    return s.replace(/[\u200b\u00ad]/g, "").trim().replace(/\s+/g, " ");
  }
  function keepText(out, kept, raw) {
    const t = normalize(raw);
    if (t) out[kept++] = t;
    return kept;
  }

  // src/compact.js
  var NAMED_HEADS = /* @__PURE__ */ new Set([
    "main",
    "navigation",
    "banner",
    "contentinfo",
    "complementary",
    "region",
    "search",
    "form",
    "group",
    "radiogroup",
    "tabpanel",
    "menu",
    "menubar",
    "toolbar",
    "tablist",
    "tree",
    "grid",
    "treegrid"
  ]);
  var HEADS = /* @__PURE__ */ new Set(["dialog", "alertdialog"]);
  function actionable(node) {
    return node.frame !== void 0 || node.wantsRef === true && node.container === null;
  }
  function label(node) {
    return node.role + "\0" + node.name;
  }
  function mark(node, seen) {
    let any = false;
    const kids = node.children;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (typeof c !== "string" && mark(c, seen)) any = true;
    }
    node.acts = any;
    const self = actionable(node);
    if (self || node.role === "heading") seen.set(label(node), (seen.get(label(node)) || 0) + 1);
    return any || self;
  }
  function renderCompact(top, env) {
    const out = { lines: [], refLines: [], frames: [], openListbox: Infinity, env, pending: null, seen: /* @__PURE__ */ new Map() };
    mark(top, out.seen);
    walkChildren(out, top, "");
    return out;
  }
  function walkChildren(out, node, indent) {
    const kids = node.children;
    for (let i = 0; i < kids.length; i++) {
      if (typeof kids[i] !== "string") walk2(out, kids[i], indent);
    }
  }
  function flush(out, node) {
    if (out.pending !== null && out.seen.get(label(node)) > 1) {
      out.lines.push(out.pending);
      out.pending = null;
    }
  }
  function walk2(out, node, indent) {
    if (actionable(node)) {
      flush(out, node);
      line(out, node, indent);
      return;
    }
    if (node.role === "heading") {
      if (node.acts) {
        out.pending = null;
        walkChildren(out, node, indent);
      } else {
        out.pending = node.name && out.seen.get(label(node)) === 1 ? indent + "- " + yamlKey(nodeKey(out, node, true)) : null;
      }
      return;
    }
    if (!node.acts) return;
    if (HEADS.has(node.role) || node.name && NAMED_HEADS.has(node.role)) {
      out.pending = null;
      out.lines.push(indent + "- " + yamlKey(nodeKey(out, node, true)) + ":");
      walkChildren(out, node, indent + "  ");
      out.pending = null;
      return;
    }
    walkChildren(out, node, indent);
  }
  function line(out, node, indent) {
    if (node.open === true && out.openListbox === Infinity) out.openListbox = out.lines.length;
    const key = indent + "- " + yamlKey(nodeKey(out, node, true));
    if (node.frame !== void 0) {
      out.lines.push(key + ":");
      out.lines.push(indent + "  " + FRAME_MARK + node.frame);
      out.frames.push(node.frame);
      return;
    }
    const select = node.tag === "select" && node.role === "combobox";
    const value = select && node.value == null ? selected(node) : node.value;
    const hasValue = value != null && value !== "";
    const inner = node.acts && !select;
    if (!inner) {
      out.lines.push(hasValue ? key + ": " + yamlValue(value) : key);
      return;
    }
    out.lines.push(key + ":");
    if (hasValue) out.lines.push(indent + "  - /value: " + yamlValue(value));
    walkChildren(out, node, indent + "  ");
    out.pending = null;
  }
  function selected(node) {
    const names = [];
    const kids = node.children;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (typeof c !== "string" && c.role === "option" && c.states.includes(" [selected]")) names.push(c.name);
    }
    return names.length > 0 ? names.join(", ") : null;
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
  var TABLE_PARTS = /* @__PURE__ */ new Set(["row", "cell", "gridcell", "columnheader", "rowheader"]);
  var LEAF_TAGS = /* @__PURE__ */ new Set(["img", "br", "wbr"]);
  var NO_PSEUDO_TAGS = /* @__PURE__ */ new Set([
    "img",
    "br",
    "wbr",
    "input",
    "select",
    "textarea",
    "video",
    "audio",
    "canvas",
    "embed",
    "object",
    "hr",
    "meter",
    "progress"
  ]);
  var SHADOW_HOSTS = /* @__PURE__ */ new Set([
    "article",
    "aside",
    "blockquote",
    "body",
    "div",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "main",
    "nav",
    "p",
    "section",
    "span"
  ]);
  var WALK_NAMES = new Set(WALK_ATTRIBUTES.slice(1, -1).split("],["));
  var SNAPSHOT_OPTIONS = [
    "root",
    "depth",
    "maxOptions",
    "maxElements",
    "maxChars",
    "fromLine",
    "keepNames",
    "interactive"
  ];
  var W_DISABLED = 16;
  var W_NO_TEXT = 32;
  var W_NAMED = 64;
  var W_BOXED = 128;
  var W_GEOMETRY = 256;
  var W_FLOW = 512;
  var NAMING_TAGS = /* @__PURE__ */ new Set(["label", "legend", "caption", "figcaption", "fieldset", "figure", "table"]);
  function snapshot(env, options2) {
    const opts = options2 || {};
    checkKeys(opts, SNAPSHOT_OPTIONS, "snapshot");
    const maxChars = opts.maxChars == null || !(opts.maxChars < 2 ** 31) ? Infinity : Math.max(1, opts.maxChars | 0);
    const fromLine = opts.fromLine == null ? 0 : Math.max(0, opts.fromLine | 0);
    let slack = opts.depth == null ? 1.5 : Infinity;
    const ctx = new Ctx();
    ctx.rects = env.building ? env.building.rects : null;
    for (; ; ) {
      const budget = maxChars === Infinity || slack > 10 ? null : { fromLine, cutChars: maxChars, maxChars: maxChars * slack + 512, lines: 0, chars: 0, stopped: false };
      const r = snapshotOnce(ctx, env, opts, budget);
      if (r !== null) return r;
      ctx.fresh = false;
      slack *= 4;
    }
  }
  function snapshotOnce(ctx, env, opts, budget) {
    const marked = docQuerySelectorAll(document, "[contenteditable],[aria-owns]");
    let editable = document.designMode === "on";
    const owners = [];
    for (let i = 0; i < marked.length; i++) {
      if (hasAttribute(marked[i], "aria-owns")) owners.push(marked[i]);
      if (hasAttribute(marked[i], "contenteditable")) editable = true;
    }
    const walk3 = {
      ctx,
      env,
      count: 0,
      maxOptions: opts.maxOptions == null ? 10 : Math.max(0, opts.maxOptions | 0),
      // Elements visited at most (the idle-time warm-up walks part of a page).
      limit: opts.maxElements == null ? Infinity : Math.max(1, opts.maxElements | 0),
      budget,
      // The interactive-only text (compact.js): the budget counts only what
      // it prints, elements to act on and headings.
      compact: opts.interactive === true,
      active: deepActiveElement(document),
      owned: /* @__PURE__ */ new Map(),
      ownedDone: /* @__PURE__ */ new Set(),
      // Whether any element can be editable, which makes it focusable.
      editable,
      // Whether an element's textContent is the text of its text nodes
      // (see leafText): in an XML document CDATA sections count too.
      textContent: docContentType(document) === "text/html",
      // Whether every child of an element of the document that holds no
      // element is a text node (see visitTextChildren): no comment or
      // processing instruction in the document.
      onlyText: false,
      // Whether every element visited so far is in the document: no shadow
      // tree entered.
      inDocument: true,
      // Whether no sheet of the document may add a ::before or ::after or
      // set text-transform (see plainContentName).
      plainDocument: false
    };
    walk3.onlyText = walk3.textContent && noComment(document);
    let rootEl = documentElement(document);
    if (opts.root != null) {
      rootEl = env.resolve(opts.root);
      const why = subtreeHiddenReason(ctx, rootEl);
      if (why !== null) throw hiddenRoot(opts.root, rootEl, why);
      if (ctx.hasBox(rootEl) === false && ctx.display(rootEl) !== "contents" && !boxBelow(ctx, rootEl)) {
        throw hiddenRoot(opts.root, rootEl, "zero size, and nothing in it has a box");
      }
    }
    collectOwned(walk3, owners, opts.root != null ? rootEl : null);
    ctx.enterTree(document);
    const docScan = ctx.tree(document);
    walk3.plainDocument = !docScan.pseudo && !docScan.transform;
    const top = { role: "fragment", children: [] };
    if (rootEl) {
      const shadowRoot2 = getRootNode(rootEl);
      if (shadowRoot2 !== document) {
        ctx.enterTree(shadowRoot2);
        walk3.inDocument = false;
      }
      visitElement(walk3, rootEl, elementTag(rootEl), top, opts.root == null && ctx.geometry ? W_GEOMETRY : 0, true);
    }
    finish(ctx, top);
    if (opts.root != null && top.children.length === 0 && isHiddenForAria(ctx, rootEl)) {
      throw hiddenRoot(opts.root, rootEl, "visibility:hidden, and nothing in it is shown");
    }
    const depth = opts.depth == null ? Infinity : Math.max(0, opts.depth | 0);
    const out = walk3.compact ? renderCompact(top, env) : render(top, env, depth, opts.keepNames === true);
    const elements = opts.root != null ? walk3.count : collectionLength(docGetElementsByTagName(document, "*"));
    const r = {
      text: "",
      element_count: elements,
      walked_count: walk3.count,
      ref_count: out.refLines.length,
      unmeasurable: ctx.unmeasurable,
      frames: out.frames,
      url: String(document.URL),
      title: String(document.title)
    };
    if (budget === null || !budget.stopped) {
      r.text = out.lines.join("\n");
      return r;
    }
    const last = safeCut(out, budget);
    if (last < 0) return null;
    const kept = out.lines.slice(0, last + 1);
    r.text = kept.join("\n");
    let refs = 0;
    while (refs < out.refLines.length && out.refLines[refs] <= last) refs++;
    r.ref_count = refs;
    const scale = Math.max(0, elements - walk3.count) / Math.max(1, walk3.count);
    r.more_lines = out.lines.length - kept.length + Math.round(out.lines.length * scale);
    let chars = 0;
    for (let i = 0; i < out.lines.length; i++) chars += out.lines[i].length + 1;
    r.more_chars = chars - r.text.length - 1 + Math.round(chars * scale);
    return r;
  }
  var BOX_PROBES = 2e3;
  function boxBelow(ctx, el) {
    const all = querySelectorAll(el, "*");
    for (let i = 0; i < all.length && i < BOX_PROBES; i++) {
      if (ctx.hasBox(all[i]) === true) return true;
    }
    return all.length > BOX_PROBES;
  }
  function hiddenRoot(ref, el, why) {
    return bridgeError(
      "ElementNotVisible",
      "snapshot root " + ref + " is hidden: " + why,
      { ref: String(ref), tag: elementTag(el), reason: why }
    );
  }
  function hasWalkAttribute(names) {
    for (let i = 0; i < names.length; i++) {
      if (WALK_NAMES.has(names[i])) return true;
    }
    return false;
  }
  function collectOwned(walk3, owners, scope) {
    for (let i = 0; i < owners.length; i++) {
      const owner = owners[i];
      if (scope !== null && !contains(scope, owner)) continue;
      if (isHiddenForAria(walk3.ctx, owner)) continue;
      for (const target of idRefs(owner, "aria-owns")) {
        if (target === owner || contains(target, owner) || walk3.owned.has(target)) continue;
        if (isHiddenFromAllUsers(walk3.ctx, target)) continue;
        walk3.owned.set(target, owner);
      }
    }
  }
  function visitElement(walk3, el, tag, parent, inherited, read) {
    const ctx = walk3.ctx;
    walk3.count++;
    const direct = tag !== "form";
    const ns = direct ? el.namespaceURI : namespaceURI(el);
    if (neverRendered(tag, ns)) return;
    const names = (direct ? el.hasAttributes() : hasAttributes(el)) ? direct ? el.getAttributeNames() : getAttributeNames(el) : null;
    const plain = names === null || !hasWalkAttribute(names);
    if (!plain && (ariaToken(el, "aria-hidden") === "true" || hasAttribute(el, "inert"))) return;
    const shadow = !SHADOW_HOSTS.has(tag) && tag.indexOf("-") < 0 ? null : direct ? el.shadowRoot : shadowRoot(el);
    if (shadow) {
      ctx.enterTree(shadow);
      walk3.inDocument = false;
    }
    const html = ns === HTML_NS;
    const role = html && tag === "frame" ? "iframe" : getRole(el, void 0, plain, tag, html);
    const named2 = (inherited & W_NAMED) !== 0 || keepsFlags(tag, role, names);
    const leaf = plain && html && !walk3.editable && LEAF_TAGS.has(tag) && FLATTENED.has(role);
    const flags = ctx.walkFlags(
      el,
      inherited,
      read,
      markupStyle(el, tag, names, direct, html, walk3.editable),
      direct,
      named2,
      html && boxByMarkup(tag, names),
      !read && (inherited & W_BOXED) !== 0,
      leaf
    );
    const boxed = ctx.childBoxed;
    if ((flags & F_NONE) !== 0) return;
    const visible = (flags & F_HIDDEN) === 0;
    const pointer = (flags & F_POINTER) !== 0;
    const disabled = (inherited & W_DISABLED) !== 0 || !plain && ariaToken(el, "aria-disabled") === "true";
    const labelling = html && tag === "label" && labelsRenderedControl(ctx, el);
    const childInherited = flags & F_INHERITED | (disabled ? W_DISABLED : 0) | ((inherited & W_NO_TEXT) !== 0 || labelling ? W_NO_TEXT : 0) | (named2 ? W_NAMED : 0) | (boxed ? W_BOXED : 0) | geometryBits(ctx, el, tag, html, names, shadow, inherited);
    if (shadow) collectOwned(walk3, fragQuerySelectorAll(shadow, "[aria-owns]"), null);
    const outermostPointer = pointer && (inherited & F_POINTER) === 0 && !labelling;
    const refWorthy = visible && isRefWorthy(el, tag, role, outermostPointer, plain, walk3.editable, html);
    if (refWorthy && boxed && (inherited & W_FLOW) !== 0 && !ctx.geomCandidates.has(el) && boxByGeometry(el, tag)) {
      ctx.knowBox(el);
    }
    const acts = refWorthy && isActionable(ctx, el, flags);
    const container2 = !acts && visible ? containerKind(tag, role, names) : null;
    const wantsRef = acts || container2 !== null;
    const node = visible && (wantsRef || !FLATTENED.has(role)) ? createNode(walk3, el, tag, html, role, wantsRef, disabled, plain) : null;
    if (container2 !== null) node.container = container2;
    const display = (named2 || node === null) && boxed && (inherited & W_FLOW) !== 0 && html && UA_DISPLAY.has(tag) && !ctx.geomCandidates.has(el) ? UA_DISPLAY.get(tag) : void 0;
    if (named2 && display !== void 0) ctx.knowDisplay(el, display);
    const printed = node !== null && (!walk3.compact || acts || role === "heading" || role === "iframe");
    if (printed && walk3.budget !== null) {
      spend(walk3, 1, role.length + node.states.length + (wantsRef ? 14 : 4));
    }
    if (html && (tag === "iframe" || tag === "frame")) {
      if (node) {
        nameNode(ctx, el, role, node, tag, html, plain);
        visitFrame(walk3, el, node, parent);
      }
      return;
    }
    const target = node || parent;
    const sep = node ? null : new Sep(el, display);
    if (sep) target.children.push(sep);
    const pseudo2 = visible && (childInherited & W_NO_TEXT) === 0 && ctx.mayHavePseudo(el) && !(html && NO_PSEUDO_TAGS.has(tag));
    if (pseudo2) addText(walk3, target, pseudoText(ctx, el, "::before"));
    let childText2;
    const plainTree = walk3.inDocument && walk3.plainDocument;
    if (node !== null && plain && html && direct && shadow === null && textNamed(tag, role)) {
      childText2 = visitTextChildren(walk3, el, target, childInherited);
    } else if (!(node && html && fillControl(walk3, el, tag, role, node))) {
      visitChildren(walk3, el, html ? tag : "", direct, shadow, target, childInherited);
    }
    if (!plain && hasAttribute(el, "aria-owns")) visitOwned(walk3, el, target, childInherited);
    if (pseudo2) addText(walk3, target, pseudoText(ctx, el, "::after"));
    if (sep) target.children.push(sep);
    if (node) {
      nameNode(ctx, el, role, node, tag, html, plain, childText2, plainTree);
      if (role === "link" && html && hasAttr(el, "href")) node.url = cutDataUrl(attr(el, "href"));
      if (role === "textbox" || role === "searchbox") placeholderOf2(el, node);
      if (role === "listbox" && !(html && tag === "select")) {
        capOptions(walk3, node);
        if (walk3.count >= walk3.limit) node.open = true;
      }
      if (printed && walk3.budget !== null) {
        spend(walk3, 0, node.name.length + (node.url === null || walk3.compact ? 0 : node.url.length));
      }
      parent.children.push(node);
    }
  }
  function geometryBits(ctx, el, tag, html, names, shadow, inherited) {
    if ((inherited & W_GEOMETRY) === 0 || !html || shadow !== null || !GEOMETRY_TAGS.has(tag) || names !== null && names.includes("style")) {
      return 0;
    }
    return ctx.boxAll || ctx.boxCandidates.has(el) ? W_GEOMETRY : W_GEOMETRY | W_FLOW;
  }
  function keepsFlags(tag, role, names) {
    return NAME_FROM_CONTENT.has(role) || NAMING_TAGS.has(tag) || names !== null && names.includes("id");
  }
  function visitChildren(walk3, el, htmlTag, direct, shadow, target, inherited) {
    if (htmlTag === "slot") {
      const assigned = assignedNodes(el);
      if (assigned.length > 0) {
        for (let i = 0; i < assigned.length && walk3.count < walk3.limit; i++) {
          visitChild(walk3, assigned[i], null, target, inherited);
        }
        return;
      }
    }
    const details = htmlTag === "details" ? el : null;
    if (shadow === null && details === null && direct && walk3.textContent && el.childElementCount === 0) {
      if (walk3.count >= walk3.limit || (inherited & (F_HIDDEN | W_NO_TEXT)) !== 0) return;
      if (leafText(walk3, el, target) !== null) return;
    }
    let c = shadow !== null ? shadow.firstChild : direct ? el.firstChild : firstChild(el);
    while (c !== null && walk3.count < walk3.limit) c = visitChild(walk3, c, details, target, inherited);
  }
  function leafText(walk3, el, target) {
    const text = el.textContent;
    const b = walk3.budget;
    if (b !== null && !walk3.compact && b.lines > b.fromLine && b.chars + Math.min(text.length, MAX_RUN) > b.maxChars) return null;
    addText(walk3, target, text);
    return text;
  }
  function visitTextChildren(walk3, el, target, inherited) {
    const shown = (inherited & (F_HIDDEN | W_NO_TEXT)) === 0;
    if (walk3.onlyText && walk3.inDocument && walk3.count < walk3.limit && el.childElementCount === 0) {
      const all = shown ? leafText(walk3, el, target) : el.textContent;
      if (all !== null) return all;
    }
    let text = "";
    let onlyText = true;
    let c = el.firstChild;
    while (c !== null && walk3.count < walk3.limit) {
      if (c.nodeType === TEXT_NODE) {
        const data = c.data;
        text += data;
        if (shown) addText(walk3, target, data);
        c = c.nextSibling;
      } else {
        onlyText = false;
        c = visitChild(walk3, c, null, target, inherited);
      }
    }
    return onlyText && c === null ? text : null;
  }
  function noComment(doc) {
    const SHOW_PROCESSING_INSTRUCTION = 64;
    const SHOW_COMMENT = 128;
    return treeWalkerNextNode(docCreateTreeWalker(doc, doc, SHOW_COMMENT | SHOW_PROCESSING_INSTRUCTION)) === null;
  }
  function addText(walk3, target, data) {
    if (data) {
      target.children.push(data);
      if (walk3.budget !== null && !walk3.compact) spend(walk3, 0, runSpend(target, data.length));
    }
  }
  function visitChild(walk3, node, details, target, inherited) {
    let type = node.nodeType;
    if (type === TEXT_NODE) {
      if ((inherited & (F_HIDDEN | W_NO_TEXT)) === 0 && (details === null || !isClosedDetailsContent(details, node))) {
        addText(walk3, target, node.data);
      }
      return node.nextSibling;
    }
    if (typeof type !== "number") type = nodeType(node);
    if (type !== ELEMENT_NODE) return node.nextSibling;
    const tag = elementTag(node);
    const next = tag !== "form" ? node.nextSibling : nextSibling(node);
    if (details !== null && isClosedDetailsContent(details, node)) return next;
    if (walk3.owned.size > 0 && walk3.owned.has(node)) return next;
    visitElement(walk3, node, tag, target, inherited, false);
    return next;
  }
  function createNode(walk3, el, tag, html, role, wantsRef, disabled, plain) {
    const states = statesOf(walk3, el, tag, html, role, disabled, plain);
    return {
      el,
      tag,
      role,
      name: "",
      states,
      value: null,
      url: null,
      placeholder: null,
      wantsRef,
      container: null,
      children: []
    };
  }
  function nameNode(ctx, el, role, node, tag, html, plain, childText2, plainTree) {
    if (NAME_PROHIBITED.has(role)) return;
    if (plain && html) {
      const name = plainContentName(ctx, el, tag, role, childText2, plainTree);
      if (name !== void 0) {
        setName(node, name);
        return;
      }
    }
    if (TABLE_PARTS.has(role) && role !== "gridcell" && !hasAttr(el, "aria-label") && !hasAttr(el, "aria-labelledby")) {
      const kids = node.children;
      for (let i = 0; i < kids.length; i++) {
        if (typeof kids[i] !== "string" && !(kids[i] instanceof Sep)) return;
      }
    }
    setName(node, accessibleName(ctx, el, role, true));
  }
  function setName(node, name) {
    node.name = name.indexOf("\xA0") < 0 && name.indexOf("\u200B") < 0 && name.indexOf("\xAD") < 0 ? name : snapText(name);
  }
  function cutDataUrl(url) {
    if (!url.startsWith("data:")) return url;
    const comma = url.indexOf(",");
    return comma < 0 ? url : url.slice(0, comma + 1) + "\u2026";
  }
  function placeholderOf2(el, node) {
    const ph = attr(el, "placeholder");
    if (ph && normalize(ph) !== node.name) node.placeholder = ph;
  }
  function visitFrame(walk3, el, node, parent) {
    if (walk3.ctx.hasBox(el) === false) return;
    const key = walk3.env.frameKeys.get(el);
    node.frame = key === void 0 ? "?" : key;
    parent.children.push(node);
  }
  function labelsRenderedControl(ctx, label2) {
    const control = labelControl(label2);
    return control !== null && !isHiddenForAria(ctx, control);
  }
  function visitOwned(walk3, el, target, inherited) {
    for (const owned of idRefs(el, "aria-owns")) {
      if (walk3.count >= walk3.limit) return;
      if (walk3.owned.get(owned) !== el || walk3.ownedDone.has(owned)) continue;
      walk3.ownedDone.add(owned);
      visitElement(walk3, owned, elementTag(owned), target, inherited & ~(W_GEOMETRY | W_FLOW), true);
    }
  }

  // src/actions.js
  var DEFAULT_TIMEOUT = 3e4;
  var TEXT_INPUTS = /* @__PURE__ */ new Set([
    "",
    "text",
    "search",
    "email",
    "url",
    "tel",
    "password",
    "number",
    "date",
    "datetime-local",
    "month",
    "time",
    "week"
  ]);
  function nextFrame() {
    return new Promise((resolve) => {
      let done = false;
      const fire = () => {
        if (!done) {
          done = true;
          resolve();
        }
      };
      requestAnimationFrame(fire);
      setTimeout(fire, 50);
    });
  }
  function clip(s, n) {
    const t = normalize(String(s || ""));
    return t.length > n ? t.slice(0, n) + "\u2026" : t;
  }
  function brief(el) {
    if (!isElement(el)) return null;
    return {
      tag: localName(el),
      id: getAttribute(el, "id") || "",
      class: getAttribute(el, "class") || "",
      text: clip(el.innerText !== void 0 ? el.innerText : textContent(el), 80)
    };
  }
  function layerOf(el) {
    for (let n = el; isElement(n); n = flatParent(n)) {
      if (getAttribute(n, "id")) return n;
      const role = getAttribute(n, "role");
      if (role === "dialog" || role === "alertdialog") return n;
      const pos = computedStyle(n).position;
      if (pos === "fixed" || pos === "sticky") return n;
    }
    return null;
  }
  function composedContains(el, node) {
    for (let n = node; n; n = nodeType(n) === DOCUMENT_FRAGMENT_NODE ? shadowHost(n) : parentNode(n)) {
      if (n === el) return true;
    }
    return false;
  }
  function hitAt(x, y) {
    let hit = document.elementFromPoint(x, y);
    while (hit && shadowRoot(hit)) {
      const inner = shadowRoot(hit).elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }
  function coverAt(el, x, y) {
    const hit = hitAt(x, y);
    if (hit && composedContains(el, hit)) return null;
    if (hit && localName(hit) === "label" && labelControl(hit) === el) return null;
    if (!hit) return { tag: "", id: "", class: "", text: "", outside: true };
    const info = brief(hit);
    const layer = layerOf(hit);
    if (layer && layer !== hit) info.layer = brief(layer);
    return info;
  }
  function isVisible(el) {
    if (!isConnected(el)) return false;
    try {
      if (!checkVisibility(el, { visibilityProperty: true })) return false;
    } catch (e) {
    }
    const r = getBoundingClientRect(el);
    return r.width > 0 && r.height > 0;
  }
  function isDisabled(el) {
    try {
      if (matches(el, ":disabled")) return true;
    } catch (e) {
    }
    for (let n = el; isElement(n); n = flatParent(n)) {
      if ((getAttribute(n, "aria-disabled") || "").trim().toLowerCase() === "true") return true;
    }
    return false;
  }
  function isEditable(el) {
    const tag = localName(el);
    if (tag === "textarea") return !hasAttribute(el, "readonly");
    if (tag === "input") return TEXT_INPUTS.has(inputType(el)) && !hasAttribute(el, "readonly");
    return isContentEditable(el) === true;
  }
  function inViewport(r) {
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  }
  function sameRect(a, b) {
    return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  }
  function deadlineOf(opts) {
    const t = opts && opts.timeout != null ? opts.timeout : DEFAULT_TIMEOUT;
    return { t, at: Date.now() + t };
  }
  var WAIT_ERRORS = { "is not visible": "ElementNotVisible", "is disabled": "ElementNotEnabled" };
  async function waitActionable(env, ref, opts) {
    const { t, at } = deadlineOf(opts);
    let last = null;
    let reason = "";
    for (; ; ) {
      const el = resolveEl(env, ref);
      if (!isVisible(el)) reason = "is not visible";
      else if (opts.enabled && isDisabled(el)) reason = "is disabled";
      else if (opts.editable && !isEditable(el)) reason = "is not editable";
      else reason = "";
      if (reason) {
        last = null;
      } else {
        let r = getBoundingClientRect(el);
        if (!inViewport(r)) {
          el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
          r = getBoundingClientRect(el);
        }
        if (opts.still === false) return { el, rect: r, stillBy: null };
        if (last !== null && sameRect(r, last)) return { el, rect: r, stillBy: "frame" };
        if (last === null) {
          const before = boxBeforeFrame(env.seen, el);
          if (before !== void 0 && sameRect(r, before)) return { el, rect: r, stillBy: "snapshot" };
        }
        last = r;
        reason = "is still moving";
      }
      if (Date.now() >= at) {
        throw bridgeError(
          WAIT_ERRORS[reason] || "Timeout",
          ref + " " + reason + " after " + t + " ms",
          { ref, reason, timeout_ms: t }
        );
      }
      await nextFrame();
    }
  }
  function resolveEl(env, ref) {
    try {
      return env.resolve(ref);
    } catch (e) {
      const f = e && e.vdxFields;
      if (e && e.vdxType === "StaleRef" && f) {
        throw bridgeError("StaleRef", ref + " was the " + f.role + " " + JSON.stringify(f.name || "") + " (<" + f.tag + ">), which has left the page", f);
      }
      throw e;
    }
  }
  function describeEl(el) {
    const role = getRole(el);
    return { role, name: accessibleName(new Ctx(), el, role, false), tag: localName(el) };
  }
  var ROLE_WORDS = [
    [/\bbuttons?\b/i, "button"],
    [/\blinks?\b/i, "link"],
    [/\bcheck ?box(es)?\b/i, "checkbox"],
    [/\bradio( button)?s?\b/i, "radio"],
    [/\b(text ?box|field|input)s?\b/i, "textbox"],
    [/\b(combo ?box|select|dropdown)s?\b/i, "combobox"],
    [/\btabs?\b/i, "tab"],
    [/\bmenu ?items?\b/i, "menuitem"],
    [/\bheadings?\b/i, "heading"],
    [/\bswitch(es)?\b/i, "switch"],
    [/\bsliders?\b/i, "slider"],
    [/\boptions?\b/i, "option"]
  ];
  var FILLER = /\b(click|press|tap|hover|on|over|the|a|an|type|into|in|fill|select|choose|check|uncheck|open)\b/gi;
  function phrasesOf(desc) {
    const quoted2 = [];
    const re = /["\u201c\u2018']([^"\u201d\u2019']+)["\u201d\u2019']/g;
    let m;
    while ((m = re.exec(desc)) !== null) quoted2.push(normalize(m[1]));
    let hint = null;
    for (const [re2, role] of ROLE_WORDS) {
      if (re2.test(desc)) {
        hint = role;
        break;
      }
    }
    if (quoted2.length) return { phrases: quoted2, hint };
    let rest = desc;
    for (const [re2] of ROLE_WORDS) rest = rest.replace(re2, " ");
    rest = normalize(rest.replace(FILLER, " "));
    return { phrases: rest ? [rest] : [normalize(desc)], hint };
  }
  function allElements() {
    const out = [];
    const walk3 = (root) => {
      const list = nodeType(root) === DOCUMENT_NODE ? docQuerySelectorAll(root, "*") : fragQuerySelectorAll(root, "*");
      for (let i = 0; i < list.length; i++) {
        out.push(list[i]);
        const sr = shadowRoot(list[i]);
        if (sr) walk3(sr);
      }
    };
    walk3(document);
    return out;
  }
  function eq(a, b) {
    return normalize(String(a || "")).toLowerCase() === b.toLowerCase();
  }
  function ownText(el) {
    const t = el.innerText;
    return normalize(String(t === void 0 ? textContent(el) : t));
  }
  function rungs(ctx, els, phrase, hint) {
    const out = { role: [], label: [], placeholder: [], text: [] };
    const lower = phrase.toLowerCase();
    for (const el of els) {
      const tag = localName(el);
      if (tag === "script" || tag === "style" || tag === "head" || tag === "html") continue;
      const role = hint ? getRole(el) : null;
      if (hint && role === hint && eq(accessibleName(ctx, el, role, false), phrase)) out.role.push(el);
      const labels = tag === "input" || tag === "textarea" || tag === "select" ? ctx.labelsOf(el) : [];
      if (labels.some((l) => eq(ownText(l), phrase)) || eq(getAttribute(el, "aria-label"), phrase)) {
        out.label.push(el);
      }
      if (eq(getAttribute(el, "placeholder"), phrase)) out.placeholder.push(el);
      const text = ownText(el);
      if (text && text.toLowerCase() === lower) out.text.push(el);
    }
    out.text = out.text.filter((el) => !out.text.some((o) => o !== el && contains(el, o)));
    return out;
  }
  function visibleFirst(ctx, list) {
    for (const el of list) if (isVisible(el) && !isHiddenForAria(ctx, el)) return el;
    return null;
  }
  function missReport(desc, tried) {
    const links = [];
    const anchors = docQuerySelectorAll(document, "a[href]");
    for (let i = 0; i < anchors.length && links.length < 10; i++) {
      const a = anchors[i];
      if (!isVisible(a)) continue;
      links.push({ text: clip(ownText(a) || getAttribute(a, "aria-label"), 60), href: a.href });
    }
    let href = null;
    for (const { phrase } of tried) {
      for (let i = 0; i < anchors.length && !href; i++) {
        if (eq(ownText(anchors[i]), phrase) || eq(getAttribute(anchors[i], "aria-label"), phrase)) {
          href = anchors[i].href;
        }
      }
    }
    const parts = tried.map((t) => JSON.stringify(t.phrase) + " (" + (t.role ? "role " + t.role + " " + t.by_role + ", " : "") + "label " + t.by_label + ", placeholder " + t.by_placeholder + ", text " + t.by_text + " matches, none visible)");
    let message = "nothing visible matches " + JSON.stringify(desc) + ": tried " + parts.join("; ") + " on " + String(document.URL) + ".";
    if (href) message += " A link with that text points to " + href + "; page:navigate() can go there directly.";
    if (links.length) {
      message += " Links on the page: " + links.map((l) => JSON.stringify(l.text) + " -> " + l.href).join(", ") + ".";
    }
    message += " Take a snapshot and use its refs: they are the reliable way to name an element.";
    return { message, description: desc, tried, links, href, url: String(document.URL) };
  }
  function actionMethods(env) {
    const { refs } = env;
    function refOf(el) {
      const d = describeEl(el);
      return refs.assign(el, d.role, d.name, d.tag);
    }
    return {
      // Finds the element a plain-words description means.  Quoted phrases
      // first; for each phrase role (+ name, when a role is hinted), label,
      // placeholder, text; the first visible match wins.  { ref, by, phrase }
      // or { miss: { description, tried, links, href, url } }.
      findByDescription(desc) {
        if (typeof desc !== "string" || !desc.trim()) throw badArgument("findByDescription: empty description");
        const ctx = new Ctx();
        const els = allElements();
        const { phrases, hint } = phrasesOf(desc);
        const tried = [];
        for (const phrase of phrases) {
          const r = rungs(ctx, els, phrase, hint);
          for (const by of ["role", "label", "placeholder", "text"]) {
            const el = visibleFirst(ctx, r[by]);
            if (el) return { ref: refOf(el), by, phrase };
          }
          tried.push({
            phrase,
            role: hint,
            by_role: r.role.length,
            by_label: r.label.length,
            by_placeholder: r.placeholder.length,
            by_text: r.text.length
          });
        }
        return { miss: missReport(desc, tried) };
      },
      // Waits until ref can take a press, then { x, y, role, name, tag,
      // covered, still_by } with the point in this frame's viewport: the
      // centre, or opts.position from the element's top-left corner.  covered
      // names what a press there would reach instead (opts.hit); still_by
      // says how the element was seen holding still ('snapshot' or 'frame',
      // see waitActionable).
      async actionPoint(ref, opts) {
        const o = opts || {};
        const { el, rect, stillBy } = await waitActionable(env, ref, { timeout: o.timeout, enabled: o.enabled !== false });
        let x;
        let y;
        if (o.position) {
          x = rect.left + Number(o.position.x || 0);
          y = rect.top + Number(o.position.y || 0);
        } else {
          const l = Math.max(rect.left, 0);
          const r = Math.min(rect.right, innerWidth);
          const t = Math.max(rect.top, 0);
          const b = Math.min(rect.bottom, innerHeight);
          x = (l + r) / 2;
          y = (t + b) / 2;
        }
        const out = Object.assign({ x, y, covered: null, still_by: stillBy }, describeEl(el));
        if (o.hit !== false) out.covered = coverAt(el, x, y);
        return out;
      },
      // With an iframe element: where its content box starts in this frame's
      // viewport, and what a press at (x, y) inside it would reach here.
      frameOrigin(frameEl, x, y) {
        let r = getBoundingClientRect(frameEl);
        const cs = computedStyle(frameEl);
        const ox = () => r.left + frameEl.clientLeft + parseFloat(cs.paddingLeft || "0");
        const oy = () => r.top + frameEl.clientTop + parseFloat(cs.paddingTop || "0");
        if (ox() + x < 0 || oy() + y < 0 || ox() + x > innerWidth || oy() + y > innerHeight) {
          frameEl.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "instant" });
          r = getBoundingClientRect(frameEl);
        }
        const px = ox() + x;
        const py = oy() + y;
        return { x: ox(), y: oy(), covered: coverAt(frameEl, px, py) };
      },
      // Scrolls ref into view and gives its rectangle in this viewport.
      async rect(ref, opts) {
        const { rect } = await waitActionable(env, ref, { timeout: (opts || {}).timeout });
        return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
      },
      // Makes ref ready for typed text: waits until it is visible, enabled and
      // editable, focuses it and selects its content (opts.clear) or puts the
      // caret at its end.  { had_text }.
      async prepareType(ref, opts) {
        const o = opts || {};
        const { el } = await waitActionable(env, ref, { timeout: o.timeout, enabled: true, editable: true, still: false });
        el.focus();
        const tag = localName(el);
        let hadText;
        if (tag === "input" || tag === "textarea") {
          hadText = el.value.length > 0;
          if (o.clear) el.select();
          else {
            try {
              el.setSelectionRange(el.value.length, el.value.length);
            } catch (e) {
            }
          }
        } else {
          hadText = textContent(el).length > 0;
          const range = document.createRange();
          range.selectNodeContents(el);
          if (!o.clear) range.collapse(false);
          const sel = getSelection();
          sel.removeAllRanges();
          sel.addRange(range);
        }
        return { had_text: hadText };
      },
      // Focuses ref (for keys pressed at it).
      async focus(ref, opts) {
        const { el } = await waitActionable(env, ref, { timeout: (opts || {}).timeout, still: false });
        el.focus();
        return true;
      },
      // What fill_form needs to know: { kind, checked, multiple }.
      fieldInfo(ref) {
        const el = resolveEl(env, ref);
        const tag = localName(el);
        const role = getRole(el);
        if (tag === "select") return { kind: "select", multiple: selectMultiple(el) };
        if (tag === "input") {
          const type = inputType(el);
          if (type === "checkbox" || type === "radio") return { kind: type, checked: inputChecked(el) };
          if (type === "range") return { kind: "slider" };
          if (type === "file") return { kind: "file" };
        }
        if (role === "checkbox" || role === "switch" || role === "radio") {
          return { kind: role === "radio" ? "radio" : "checkbox", checked: getAttribute(el, "aria-checked") === "true" };
        }
        if (role === "slider") return { kind: "slider" };
        return { kind: "text" };
      },
      // { checked: true | false | 'mixed', role }.
      checkState(ref) {
        const el = resolveEl(env, ref);
        const role = getRole(el);
        if (localName(el) === "input" && (inputType(el) === "checkbox" || inputType(el) === "radio")) {
          return { checked: inputIndeterminate(el) ? "mixed" : inputChecked(el), role };
        }
        const a = (getAttribute(el, "aria-checked") || getAttribute(el, "aria-pressed") || "").trim();
        if (a === "true" || a === "false" || a === "mixed") return { checked: a === "mixed" ? "mixed" : a === "true", role };
        throw bridgeError(
          "NotCheckable",
          ref + " (" + role + ") is not a checkbox, radio or switch",
          { ref, role }
        );
      },
      // Selects options of a <select> by value or label and fires input and
      // change.  { selected = {values} }, or NoOption with the options there
      // are.
      async selectOption(ref, values, opts) {
        const o = opts || {};
        const { el } = await waitActionable(env, ref, { timeout: o.timeout, enabled: true });
        if (localName(el) !== "select") {
          throw bridgeError("NotSelect", ref + " is a <" + localName(el) + ">, not a <select>; click it and then click the option", { ref, tag: localName(el) });
        }
        const options2 = Array.from(selectOptions(el));
        const picks = [];
        for (const v of values) {
          const s = String(v);
          const hit = options2.find((op) => op.value === s) || options2.find((op) => eq(optionLabel(op), s) || eq(optionText(op), s));
          if (!hit) {
            const available = options2.slice(0, 50).map((op) => ({ value: op.value, label: normalize(optionLabel(op)) }));
            throw bridgeError("NoOption", "no option of " + ref + " has the value or label " + JSON.stringify(s) + "; it has " + options2.length + " options: " + available.slice(0, 10).map((a) => JSON.stringify(a.label)).join(", ") + (options2.length > 10 ? ", \u2026" : ""), { ref, value: s, available, option_count: options2.length });
          }
          if (hit.disabled) throw bridgeError("NoOption", "option " + JSON.stringify(s) + " of " + ref + " is disabled", { ref, value: s });
          picks.push(hit);
        }
        if (picks.length > 1 && !selectMultiple(el)) throw badArgument("selectOption: " + ref + " takes one option");
        el.focus();
        for (const op of options2) op.selected = picks.includes(op);
        el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
        return { selected: picks.map((op) => op.value) };
      },
      // Sets a range input (slider) to value, firing input and change.
      async setSlider(ref, value, opts) {
        const { el } = await waitActionable(env, ref, { timeout: (opts || {}).timeout, enabled: true });
        if (localName(el) !== "input" || inputType(el) !== "range") {
          throw bridgeError("NotSlider", ref + " is not an <input type=range>", { ref });
        }
        el.focus();
        el.value = String(value);
        el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
        return { value: el.value };
      },
      // { multiple } of the file input ref names (or that its label controls).
      fileInputInfo(ref) {
        const input = fileInputOf(resolveEl(env, ref), ref);
        return { multiple: hasAttribute(input, "multiple") };
      },
      // The file input element itself, for the host to hold by object id.
      fileInput(ref) {
        return fileInputOf(resolveEl(env, ref), ref);
      },
      // Waits for text to appear (text) or go (textGone) in this document's
      // rendered text, or for ref to leave the document or be hidden
      // (refGone), re-checking on every DOM change.  Rejects with Timeout.
      waitFor(opts) {
        const o = opts || {};
        const { t, at } = deadlineOf(o);
        const test = () => {
          if (o.refGone != null) {
            const hit = refs.lookup(o.refGone);
            if (hit && !hit.stale && isVisible(hit.element)) return false;
          }
          const body = document.body || documentElement(document);
          const text = body ? String(body.innerText || textContent(body) || "") : "";
          if (o.text != null && !text.includes(String(o.text))) return false;
          if (o.textGone != null && text.includes(String(o.textGone))) return false;
          return true;
        };
        if (test()) return true;
        return new Promise((resolve, reject) => {
          let timer = 0;
          let scheduled = false;
          const mo = new MutationObserver(() => {
            if (scheduled) return;
            scheduled = true;
            nextFrame().then(check);
          });
          const done = (ok) => {
            mo.disconnect();
            clearTimeout(timer);
            if (ok) resolve(true);
            else {
              const what = o.text != null ? "text " + JSON.stringify(o.text) + " did not appear" : o.textGone != null ? "text " + JSON.stringify(o.textGone) + " did not go away" : "ref " + o.refGone + " did not go away";
              reject(bridgeError("Timeout", what + " within " + t + " ms", { timeout_ms: t }));
            }
          };
          const check = () => {
            scheduled = false;
            if (test()) done(true);
          };
          mo.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
          timer = setTimeout(() => done(test()), Math.max(0, at - Date.now()));
        });
      }
    };
  }
  function fileInputOf(el, ref) {
    let input = el;
    if (localName(el) === "label" && labelControl(el)) input = labelControl(el);
    if (localName(input) !== "input" || inputType(input) !== "file") {
      throw bridgeError(
        "NotFileInput",
        ref + " is a <" + localName(el) + ">, not a file input",
        { ref, tag: localName(el) }
      );
    }
    return input;
  }

  // src/extra-natives.js
  var uncurry2 = Function.prototype.bind.bind(Function.prototype.call);
  function getter2(proto, key) {
    return uncurry2(Object.getOwnPropertyDescriptor(proto, key).get);
  }
  function method2(proto, key) {
    return uncurry2(proto[key]);
  }
  var firstElementChild2 = getter2(Element.prototype, "firstElementChild");
  var nextElementSibling = getter2(Element.prototype, "nextElementSibling");
  var fragFirstElementChild = getter2(DocumentFragment.prototype, "firstElementChild");
  var childElementCount = getter2(Element.prototype, "childElementCount");
  var fragChildElementCount = getter2(DocumentFragment.prototype, "childElementCount");
  var outerHTML = getter2(Element.prototype, "outerHTML");
  var docEvaluate = method2(Document.prototype, "evaluate");
  var snapshotLength = getter2(XPathResult.prototype, "snapshotLength");
  var snapshotItem = method2(XPathResult.prototype, "snapshotItem");
  var docBody = getter2(Document.prototype, "body");
  var docHead = getter2(Document.prototype, "head");
  var inputValue2 = getter2(HTMLInputElement.prototype, "value");
  var selectValue = getter2(HTMLSelectElement.prototype, "value");
  var cssEscapeFn = CSS.escape;
  function cssEscape(s) {
    return Reflect.apply(cssEscapeFn, CSS, [s]);
  }
  var LABELS = /* @__PURE__ */ new Map();
  for (const [tag, Ctor] of [
    ["input", HTMLInputElement],
    ["button", HTMLButtonElement],
    ["select", HTMLSelectElement],
    ["textarea", HTMLTextAreaElement],
    ["meter", HTMLMeterElement],
    ["output", HTMLOutputElement],
    ["progress", HTMLProgressElement]
  ]) {
    LABELS.set(tag, getter2(Ctor.prototype, "labels"));
  }
  function labelsOf(el, tag) {
    const get = LABELS.get(tag);
    return get ? get(el) : null;
  }
  var compareDocumentPosition = method2(Node.prototype, "compareDocumentPosition");

  // src/facts.js
  var SHOWN_ATTRIBUTES = [
    "id",
    "class",
    "role",
    "aria-label",
    "name",
    "type",
    "href",
    "data-testid",
    "data-test",
    "data-test-id",
    "data-cy",
    "data-qa",
    "aria-sort",
    "aria-selected",
    "aria-expanded",
    "aria-pressed",
    "aria-current",
    "aria-checked",
    "aria-controls"
  ];
  var OWN_ATTRIBUTES_MAX = 20;
  function isStableId(id) {
    if (!id || id.length > 64 || /\s/.test(id)) return false;
    if (/[:«»]/.test(id)) return false;
    if (/\d{4,}/.test(id)) return false;
    if (/[0-9a-f]{8}-[0-9a-f]{4}-/i.test(id)) return false;
    if (/(?:^|[-_])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}(?:$|[-_])/i.test(id)) return false;
    if (/^(?:ember|mui|radix|headlessui|downshift|react-aria|react-select|rc|yui|ext-gen|gwt|j_id|jsx|css|sc|uid|id)[-_]?\d/i.test(id)) return false;
    const digits = id.replace(/\D/g, "").length;
    return !(id.length > 6 && digits * 3 > id.length);
  }
  function truncate(s, max) {
    if (s.length <= max) return s;
    return s.slice(0, max) + "\u2026[+" + (s.length - max) + " chars]";
  }
  function shownAttributes(el, max) {
    const out = {};
    for (let i = 0; i < SHOWN_ATTRIBUTES.length; i++) {
      const v = attr(el, SHOWN_ATTRIBUTES[i]);
      if (v !== null) out[SHOWN_ATTRIBUTES[i]] = truncate(normalize(v), max);
    }
    return out;
  }
  function ownAttributes(el, max) {
    const out = {};
    const names = getAttributeNames(el);
    const n = Math.min(names.length, OWN_ATTRIBUTES_MAX);
    for (let i = 0; i < n; i++) out[names[i]] = truncate(normalize(attr(el, names[i]) || ""), max);
    return names.length > n ? { attributes: out, more: names.length - n } : { attributes: out };
  }
  function parentOrHost(el) {
    const p = parentNode(el);
    if (p === null) return { parent: null, crossed: false };
    const type = nodeType(p);
    if (type === ELEMENT_NODE) return { parent: p, crossed: false };
    if (type === DOCUMENT_FRAGMENT_NODE) {
      const host = shadowHost(p);
      return { parent: host || null, crossed: !!host };
    }
    return { parent: null, crossed: false };
  }
  function isTopElement(el) {
    const t = localName(el);
    return (t === "body" || t === "html") && getRootNode(el) === document;
  }
  function ancestorsOf(el) {
    const out = [];
    let cur = el;
    for (; ; ) {
      const { parent, crossed } = parentOrHost(cur);
      if (parent === null || isTopElement(parent)) break;
      out.push({ el: parent, crossed });
      cur = parent;
    }
    return out;
  }
  function isSkipped(el) {
    return isNeverRendered(el);
  }
  function childElements(el) {
    const out = [];
    const root = shadowRoot(el);
    if (root) {
      for (let c = fragFirstElementChild(root); c !== null; c = nextElementSibling(c)) {
        if (!isSkipped(c)) out.push(c);
      }
    }
    const shadowCount = out.length;
    for (let c = firstElementChild2(el); c !== null; c = nextElementSibling(c)) {
      if (!isSkipped(c)) out.push(c);
    }
    out.shadowCount = shadowCount;
    return out;
  }
  function childrenOfNode(node) {
    if (nodeType(node) === ELEMENT_NODE) return childElements(node);
    const out = [];
    const first = nodeType(node) === DOCUMENT_NODE ? documentElement(node) : fragFirstElementChild(node);
    for (let c = first; c !== null; c = nextElementSibling(c)) {
      if (!isSkipped(c)) out.push(c);
    }
    return out;
  }
  function refFor(ctx, refs, el, quick) {
    const known = refs.peek(el);
    if (known !== null) return known;
    const t = localName(el);
    const role = getRole(el);
    let pointer = false;
    if (!quick) {
      const parent = flatParent(el);
      const parentPointer = isElement(parent) && (ctx.flags(parent) & F_POINTER) !== 0;
      pointer = (ctx.flags(el) & F_POINTER) !== 0 && !parentPointer;
      if (pointer && t === "label" && isHTML(el)) {
        const control = labelControl(el);
        if (control !== null && !isHiddenForAria(ctx, control)) pointer = false;
      }
    }
    if (!isRefWorthy(el, t, role, pointer)) return null;
    if (isHiddenForAria(ctx, el) || !isActionable(ctx, el)) return null;
    return refs.assign(el, role, accessibleName(ctx, el, role, false), t);
  }
  function styleOf2(ctx, el) {
    const f = ctx.flags(el);
    return { display: ctx.display(el), none: (f & F_NONE) !== 0, hidden: (f & F_HIDDEN) !== 0 };
  }
  var TextCache = class {
    constructor() {
      this.map = /* @__PURE__ */ new Map();
    }
    get(node) {
      let v = this.map.get(node);
      if (v === void 0) {
        v = computeText(this, node);
        this.map.set(node, v);
      }
      return v;
    }
  };
  var EMPTY_TEXT = Object.freeze({ full: "", normalized: "", immediate: [] });
  function skipsText(el) {
    if (nodeType(el) !== ELEMENT_NODE) return false;
    const t = localName(el);
    if (t === "script" || t === "noscript" || t === "style") return true;
    const head = docHead(document);
    return head !== null && contains(head, el);
  }
  function computeText(cache, node) {
    if (skipsText(node)) return EMPTY_TEXT;
    const isEl = nodeType(node) === ELEMENT_NODE;
    if (isEl && localName(node) === "input" && isHTML(node)) {
      const type = inputType(node);
      if (type === "submit" || type === "button") {
        const v = inputValue2(node);
        return { full: v, normalized: normalize(v), immediate: [v] };
      }
    }
    let full = "";
    let run = "";
    const immediate = [];
    for (let c = firstChild(node); c !== null; c = nextSibling(c)) {
      const type = nodeType(c);
      if (type === TEXT_NODE) {
        const d = nodeData(c);
        full += d;
        run += d;
      } else if (type === 8) {
        continue;
      } else {
        if (run) immediate.push(run);
        run = "";
        if (type === ELEMENT_NODE) full += cache.get(c).full;
      }
    }
    if (run) immediate.push(run);
    const shadow = isEl ? shadowRoot(node) : null;
    if (shadow) full += cache.get(shadow).full;
    return { full, normalized: full ? normalize(full) : "", immediate };
  }
  function directText(el) {
    let s = "";
    for (let c = firstChild(el); c !== null; c = nextSibling(c)) {
      if (nodeType(c) === TEXT_NODE) s += nodeData(c) + " ";
    }
    return normalize(s);
  }
  function intOption(opts, key, dflt, min, what) {
    const v = opts[key];
    if (v == null) return dflt;
    if (typeof v !== "number" || !Number.isInteger(v) || v < min) {
      throw badArgument(what + ": " + key + " must be an integer >= " + min);
    }
    return v;
  }

  // src/explore.js
  var ATTRIBUTE_MAX = 80;
  var SNIPPET_MAX = 40;
  var UNNAMED_ROLES = /* @__PURE__ */ new Set(["generic", "none", "presentation"]);
  function resolveContainer(env, ref, options2) {
    const opts = options2 || {};
    checkKeys(opts, ["max_refs", "max_text"], "resolveContainer");
    const maxRefs = intOption(opts, "max_refs", 10, 0, "resolveContainer");
    const maxText = intOption(opts, "max_text", 80, 1, "resolveContainer");
    const el = env.resolve(ref);
    const ctx = new Ctx();
    const texts = new TextCache();
    const role = getRole(el);
    const target = {
      ref,
      tag: localName(el),
      role,
      name: truncate(accessibleName(ctx, el, role, false), maxText),
      text: truncate(texts.get(el).normalized, maxText)
    };
    const own2 = ownAttributes(el, ATTRIBUTE_MAX);
    target.attributes = own2.attributes;
    if (own2.more) target.attributes_not_shown = own2.more;
    const chain = ancestorsOf(el);
    const counted = countRefs(ctx, env.refs, chain, maxRefs);
    const ancestors = chain.map((a, i) => {
      const out = {
        level: i + 1,
        tag: localName(a.el),
        attributes: shownAttributes(a.el, ATTRIBUTE_MAX),
        child_elements: childElements(a.el).length,
        contains_refs: counted[i]
      };
      if (a.crossed) out.crossed_shadow = true;
      return out;
    });
    return { target, ancestors, levels_total: chain.length };
  }
  function countRefs(ctx, refs, chain, max) {
    const out = chain.map(() => ({ refs: [], total: 0 }));
    if (chain.length === 0) return out;
    const index = /* @__PURE__ */ new Map();
    chain.forEach((a, i) => index.set(a.el, i));
    const open = [chain.length - 1];
    const visit = (node) => {
      const kids = childElements(node);
      for (let k = 0; k < kids.length; k++) {
        const el = kids[k];
        const r = refFor(ctx, refs, el, true);
        if (r !== null) {
          for (let j = 0; j < open.length; j++) {
            const c = out[open[j]];
            c.total++;
            if (c.refs.length < max) c.refs.push(r);
          }
        }
        const at = index.get(el);
        if (at !== void 0) open.push(at);
        visit(el);
        if (at !== void 0) open.pop();
      }
    };
    visit(chain[chain.length - 1].el);
    return out;
  }
  function elementAtLevel(el, level, what) {
    if (typeof level !== "number" || !Number.isInteger(level)) {
      throw badArgument(what + ": level must be an integer");
    }
    const chain = ancestorsOf(el);
    if (level < 0 || level > chain.length) {
      throw bridgeError(
        "InvalidArgument",
        what + ": level " + level + " is " + (level < 0 ? "negative" : "past body") + "; the largest valid level is " + chain.length,
        { level, max_level: chain.length }
      );
    }
    return level === 0 ? el : chain[level - 1].el;
  }
  function inspectPattern(env, ref, level, options2) {
    const opts = options2 || {};
    checkKeys(opts, ["max_siblings", "max_refs", "max_snippets", "max_outline"], "inspectPattern");
    const lim = {
      siblings: intOption(opts, "max_siblings", 20, 1, "inspectPattern"),
      refs: intOption(opts, "max_refs", 5, 0, "inspectPattern"),
      snippets: intOption(opts, "max_snippets", 3, 0, "inspectPattern"),
      outline: intOption(opts, "max_outline", 6, 0, "inspectPattern")
    };
    const el = env.resolve(ref);
    const container2 = elementAtLevel(el, level, "inspectPattern");
    const parent = parentNode(container2);
    const siblings = childrenOfNode(parentOrHost(container2).crossed ? shadowHost(parent) : parent);
    const at = siblings.indexOf(container2);
    const total = siblings.length;
    const start = Math.max(0, Math.min(at - (lim.siblings >> 1), total - lim.siblings));
    const end = Math.min(total, start + lim.siblings);
    const ctx = new Ctx();
    const list = [];
    for (let i = start; i < end; i++) {
      const s = siblings[i];
      const sum = summarize(ctx, env.refs, s, lim);
      list.push({
        index: i,
        tag: localName(s),
        attributes: shownAttributes(s, ATTRIBUTE_MAX),
        contains_refs: { refs: sum.refs, total: sum.total },
        contains_text: sum.texts,
        outline: sum.outline
      });
    }
    return {
      container_at: { level, tag: localName(container2), attributes: shownAttributes(container2, ATTRIBUTE_MAX) },
      target_sibling_index: at,
      siblings_total: total,
      shown: list.length,
      siblings: list
    };
  }
  function summarize(ctx, refs, root, lim) {
    const sum = { refs: [], total: 0, texts: [], outline: [] };
    const seen = /* @__PURE__ */ new Set();
    const visitNodes = (first) => {
      for (let c = first; c !== null; c = nextSibling(c)) {
        const type = nodeType(c);
        if (type === TEXT_NODE) {
          if (sum.texts.length < lim.snippets) {
            const t = normalize(nodeData(c));
            if (t && !seen.has(t)) {
              seen.add(t);
              sum.texts.push(truncate(t, SNIPPET_MAX));
            }
          }
        } else if (type === ELEMENT_NODE && !isSkipped(c) && !notRendered(ctx, c)) {
          visitElement2(c);
        }
      }
    };
    const visitElement2 = (el) => {
      const r = refFor(ctx, refs, el, true);
      if (r !== null) {
        sum.total++;
        if (sum.refs.length < lim.refs) sum.refs.push(r);
      }
      if (sum.outline.length < lim.outline) outlineItem(ctx, el, r, sum.outline);
      visitChildren2(el);
    };
    const visitChildren2 = (el) => {
      const shadow = shadowRoot(el);
      if (shadow) visitNodes(firstChild(shadow));
      visitNodes(firstChild(el));
    };
    visitChildren2(root);
    return sum;
  }
  function notRendered(ctx, el) {
    let rendered;
    try {
      rendered = checkVisibility(el);
    } catch (e) {
      rendered = false;
    }
    return !rendered && isDisplayNone(ctx, el);
  }
  function outlineItem(ctx, el, ref, out) {
    const role = getRole(el);
    if (role === "heading") {
      const name = truncate(accessibleName(ctx, el, role, false), SNIPPET_MAX);
      out.push("heading " + JSON.stringify(name) + " [level=" + headingLevel(el, role) + "]");
    } else if (ref !== null) {
      const name = truncate(accessibleName(ctx, el, role, false), SNIPPET_MAX);
      if (name) out.push(role + " " + JSON.stringify(name) + " [ref=" + ref + "]");
    }
    for (let i = 0; i < TEST_ID_ATTRIBUTES.length && out.length < 6; i++) {
      const v = getAttribute(el, TEST_ID_ATTRIBUTES[i]);
      if (v !== null) out.push("[" + TEST_ID_ATTRIBUTES[i] + "=" + JSON.stringify(truncate(v, SNIPPET_MAX)) + "]");
    }
  }
  function extractAnchors(env, ref, level, options2) {
    const opts = options2 || {};
    checkKeys(opts, ["max_depth", "max_children", "max_total", "max_text"], "extractAnchors");
    const lim = {
      max_depth: intOption(opts, "max_depth", 4, 1, "extractAnchors"),
      max_children: intOption(opts, "max_children", 15, 1, "extractAnchors"),
      max_total: intOption(opts, "max_total", 100, 1, "extractAnchors")
    };
    const maxText = intOption(opts, "max_text", 80, 1, "extractAnchors");
    const el = env.resolve(ref);
    const anc = elementAtLevel(el, level, "extractAnchors");
    const ctx = new Ctx();
    const texts = new TextCache();
    const list = [];
    let total = 0;
    const visit = (node, depth, shownParent) => {
      const kids = childElements(node);
      let unshown = 0;
      for (let i = 0; i < kids.length; i++) {
        const k = kids[i];
        total++;
        let entry = null;
        if (shownParent && i < lim.max_children && list.length < lim.max_total) {
          entry = anchorEntry(ctx, texts, env.refs, k, depth, i, maxText);
          if (i < kids.shadowCount) entry.in_shadow = true;
          list.push(entry);
        } else {
          unshown++;
        }
        if (depth < lim.max_depth) {
          const below = visit(k, depth + 1, entry !== null);
          if (entry !== null && below > 0) entry.children_not_shown = below;
        } else if (entry !== null) {
          const n = childElements(k).length;
          if (n > 0) entry.children_not_shown = n;
        }
      }
      return unshown;
    };
    const topUnshown = visit(anc, 1, true);
    const ancestorAt = { level, tag: localName(anc), attributes: shownAttributes(anc, ATTRIBUTE_MAX) };
    if (topUnshown > 0) ancestorAt.children_not_shown = topUnshown;
    return {
      ancestor_at: ancestorAt,
      descendants: list,
      total_descendants: total,
      shown: list.length,
      limits: lim
    };
  }
  function anchorEntry(ctx, texts, refs, el, depth, index, maxText) {
    const e = { depth, index, tag: localName(el), attributes: shownAttributes(el, ATTRIBUTE_MAX) };
    const ref = refFor(ctx, refs, el);
    if (ref !== null) e.ref = ref;
    const role = getRole(el);
    if (!UNNAMED_ROLES.has(role)) {
      e.role = role;
      if (!NAME_PROHIBITED.has(role)) {
        const name = accessibleName(ctx, el, role, false);
        if (name) e.name = truncate(name, maxText);
      }
    }
    if (isHiddenForAria(ctx, el)) e.hidden = true;
    e.direct_text = truncate(directText(el), maxText);
    e.full_text = truncate(texts.get(el).normalized, maxText);
    return e;
  }

  // src/locparse.js
  var TEXTUAL = { args: [["string", "regex"]], opts: { exact: ["bool"] } };
  var FILTER_OPTS = {
    hasText: ["string", "regex"],
    hasNotText: ["string", "regex"],
    has: ["locator"],
    hasNot: ["locator"]
  };
  var METHODS = {
    getByRole: {
      args: [["string"]],
      opts: {
        name: ["string", "regex"],
        exact: ["bool"],
        includeHidden: ["bool"],
        checked: ["bool"],
        disabled: ["bool"],
        expanded: ["bool"],
        pressed: ["bool"],
        selected: ["bool"],
        level: ["number"]
      }
    },
    getByText: TEXTUAL,
    getByLabel: TEXTUAL,
    getByPlaceholder: TEXTUAL,
    getByAltText: TEXTUAL,
    getByTitle: TEXTUAL,
    getByTestId: { args: [["string", "regex"]], opts: null },
    locator: { args: [["string", "locator"]], opts: FILTER_OPTS },
    filter: { args: [], opts: Object.assign({ visible: ["bool"] }, FILTER_OPTS), optsRequired: true },
    first: { args: [], opts: null },
    last: { args: [], opts: null },
    nth: { args: [["number"]], opts: null },
    and: { args: [["locator"]], opts: null },
    or: { args: [["locator"]], opts: null }
  };
  var Parser = class {
    constructor(src) {
      this.src = src;
      this.pos = 0;
    }
    fail(what, at) {
      const pos = at === void 0 ? this.pos : at;
      const col = pos + 1;
      throw bridgeError(
        "LocatorSyntax",
        what + " at column " + col + ":\n" + excerpt(this.src, pos),
        { column: col, expression: this.src }
      );
    }
    ws() {
      while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
    }
    peek() {
      this.ws();
      return this.pos < this.src.length ? this.src[this.pos] : "";
    }
    expect(ch, what) {
      if (this.peek() !== ch) this.fail("expected " + JSON.stringify(ch) + (what ? " " + what : "") + ", found " + this.found());
      this.pos++;
    }
    found() {
      return this.pos < this.src.length ? JSON.stringify(this.src[this.pos]) : "the end";
    }
    ident() {
      this.ws();
      const m = /^[A-Za-z_$][\w$]*/.exec(this.src.slice(this.pos));
      if (!m) return null;
      this.pos += m[0].length;
      return m[0];
    }
    // chain := ['page' '.'] call ('.' call)*
    chain() {
      this.ws();
      const start = this.pos;
      if (this.ident() === "page" && this.peek() === ".") this.pos++;
      else this.pos = start;
      const steps = [this.call()];
      while (this.peek() === ".") {
        this.pos++;
        steps.push(this.call());
      }
      return { steps };
    }
    call() {
      this.ws();
      const col = this.pos;
      const name = this.ident();
      if (name === null) this.fail("expected a locator method, found " + this.found());
      const spec = Object.prototype.hasOwnProperty.call(METHODS, name) ? METHODS[name] : null;
      if (spec === null) {
        this.fail("unknown method " + JSON.stringify(name) + " (expected one of " + Object.keys(METHODS).join(", ") + ")", col);
      }
      this.expect("(", "after " + name);
      const args = [];
      if (this.peek() !== ")") {
        args.push(this.value());
        while (this.peek() === ",") {
          this.pos++;
          if (this.peek() === ")") break;
          args.push(this.value());
        }
      }
      this.expect(")", "to close " + name + "(");
      checkArgs(this, name, spec, args, col);
      return { method: name, args, col };
    }
    value() {
      const c = this.peek();
      const col = this.pos;
      if (c === '"' || c === "'" || c === "`") return { kind: "string", value: this.string(), col };
      if (c === "/") return this.regex();
      if (c === "{") return this.object();
      if (c === "-" || c >= "0" && c <= "9") {
        const m = /^-?\d+(?:\.\d+)?/.exec(this.src.slice(this.pos));
        if (!m) this.fail("expected a number");
        this.pos += m[0].length;
        return { kind: "number", value: Number(m[0]), col };
      }
      const start = this.pos;
      const id = this.ident();
      if (id === "true" || id === "false") return { kind: "bool", value: id === "true", col };
      if (id === null) this.fail("expected a value, found " + this.found());
      this.pos = start;
      return { kind: "locator", chain: this.chain(), col };
    }
    string() {
      const q = this.src[this.pos];
      const start = this.pos;
      this.pos++;
      let out = "";
      while (this.pos < this.src.length) {
        const ch = this.src[this.pos];
        if (ch === q) {
          this.pos++;
          return out;
        }
        if (ch === "\\") {
          out += this.escape();
          continue;
        }
        if (q === "`" && ch === "$" && this.src[this.pos + 1] === "{") this.fail("template substitutions are not supported");
        if ((ch === "\n" || ch === "\r") && q !== "`") this.fail("unterminated string");
        out += ch;
        this.pos++;
      }
      return this.fail("unterminated string", start);
    }
    escape() {
      const n = this.src[this.pos + 1];
      this.pos += 2;
      switch (n) {
        case "n":
          return "\n";
        case "t":
          return "	";
        case "r":
          return "\r";
        case "b":
          return "\b";
        case "f":
          return "\f";
        case "v":
          return "\v";
        case "0":
          return "\0";
        case "u": {
          const m = /^(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))/.exec(this.src.slice(this.pos));
          if (!m) this.fail("bad \\u escape", this.pos - 2);
          this.pos += m[0].length;
          return String.fromCodePoint(parseInt(m[1] || m[2], 16));
        }
        case "x": {
          const m = /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.pos));
          if (!m) this.fail("bad \\x escape", this.pos - 2);
          this.pos += 2;
          return String.fromCharCode(parseInt(m[0], 16));
        }
        case void 0:
          return this.fail("unterminated string");
        default:
          return n;
      }
    }
    regex() {
      const start = this.pos;
      this.pos++;
      let inClass = false;
      let source = "";
      for (; ; ) {
        if (this.pos >= this.src.length) this.fail("unterminated regular expression", start);
        const ch = this.src[this.pos];
        if (ch === "\n") this.fail("unterminated regular expression", start);
        if (ch === "\\") {
          source += ch + (this.src[this.pos + 1] || "");
          this.pos += 2;
          continue;
        }
        if (ch === "[") inClass = true;
        else if (ch === "]") inClass = false;
        else if (ch === "/" && !inClass) break;
        source += ch;
        this.pos++;
      }
      this.pos++;
      const m = /^[dgimsuvy]*/.exec(this.src.slice(this.pos));
      this.pos += m[0].length;
      let re;
      try {
        re = new RegExp(source, m[0].replace("g", "").replace("y", ""));
      } catch (e) {
        this.fail("invalid regular expression (" + e.message + ")", start);
      }
      return { kind: "regex", value: re, col: start };
    }
    object() {
      const col = this.pos;
      this.pos++;
      const props = /* @__PURE__ */ new Map();
      while (this.peek() !== "}") {
        const kcol = this.pos;
        let key;
        const c = this.peek();
        if (c === '"' || c === "'") key = this.string();
        else key = this.ident();
        if (key === null) this.fail("expected an option name, found " + this.found());
        if (props.has(key)) this.fail("duplicate option " + JSON.stringify(key), kcol);
        this.expect(":", "after " + key);
        const v = this.value();
        v.keyCol = kcol;
        props.set(key, v);
        if (this.peek() === ",") this.pos++;
        else if (this.peek() !== "}") this.fail('expected "," or "}", found ' + this.found());
      }
      this.pos++;
      return { kind: "object", props, col };
    }
  };
  function checkArgs(p, name, spec, args, col) {
    const n = spec.args.length;
    const takesOpts = spec.opts !== null;
    if (args.length < n || spec.optsRequired && args.length === 0) {
      p.fail(name + "() takes " + (n || 1) + " argument" + ((n || 1) > 1 ? "s" : "") + ", got " + args.length, col);
    }
    if (args.length > n + (takesOpts ? 1 : 0)) {
      p.fail(name + "() takes at most " + (n + (takesOpts ? 1 : 0)) + " arguments", args[n + (takesOpts ? 1 : 0)].col);
    }
    for (let i = 0; i < n; i++) {
      if (!spec.args[i].includes(args[i].kind)) {
        p.fail(
          name + "() argument " + (i + 1) + " must be " + spec.args[i].join(" or ") + ", got " + args[i].kind,
          args[i].col
        );
      }
    }
    if (args.length > n) {
      const o = args[n];
      if (o.kind !== "object") p.fail(name + "() options must be an object, got " + o.kind, o.col);
      for (const [key, v] of o.props) {
        if (!Object.prototype.hasOwnProperty.call(spec.opts, key)) {
          p.fail("unknown option " + JSON.stringify(key) + " for " + name + "() (expected " + Object.keys(spec.opts).join(", ") + ")", v.keyCol);
        }
        if (!spec.opts[key].includes(v.kind)) {
          p.fail("option " + key + " must be " + spec.opts[key].join(" or ") + ", got " + v.kind, v.col);
        }
      }
    }
    if (name === "nth" && !Number.isInteger(args[0].value)) p.fail("nth() takes an integer", args[0].col);
  }
  function excerpt(src, pos) {
    const flat = src.replace(/[\r\n\t]/g, " ");
    const WIDTH = 60;
    let start = 0;
    let end = flat.length;
    if (end > WIDTH) {
      start = Math.max(0, Math.min(pos - (WIDTH >> 1), flat.length - WIDTH));
      end = Math.min(flat.length, start + WIDTH);
    }
    const pre = start > 0 ? "\u2026" : "";
    const post = end < flat.length ? "\u2026" : "";
    return "  " + pre + flat.slice(start, end) + post + "\n  " + " ".repeat(pre.length + pos - start) + "^";
  }
  function parseLocator(src) {
    if (typeof src !== "string") {
      throw bridgeError("InvalidArgument", "locatorCount: expression must be a string", null, TypeError);
    }
    const p = new Parser(src);
    if (p.peek() === "") p.fail("empty expression");
    const chain = p.chain();
    if (p.peek() === ";") p.pos++;
    if (p.peek() !== "") p.fail("unexpected " + p.found() + " after the locator");
    return chain;
  }
  var ESCAPES = {
    "\\": "\\\\",
    "'": "\\'",
    "\n": "\\n",
    "\r": "\\r",
    "	": "\\t",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029"
  };
  function jsString(s) {
    return "'" + String(s).replace(/[\\'\n\r\t\u2028\u2029]/g, (c) => ESCAPES[c]) + "'";
  }

  // src/locator.js
  function locatorCount(env, expr, options2) {
    const opts = options2 || {};
    checkKeys(opts, ["max_refs", "details"], "locatorCount");
    const max = intOption(opts, "max_refs", 50, 0, "locatorCount");
    const details = intOption(opts, "details", 0, 0, "locatorCount");
    const chain = parseLocator(expr);
    const ev = new Evaluator();
    const found = ev.chain(chain, document);
    const refs = [];
    for (let i = 0; i < found.length && i < Math.max(max, details); i++) {
      refs.push(refFor(ev.ctx, env.refs, found[i]));
    }
    const out = { count: found.length, refs: refs.slice(0, max) };
    if (details > 0) {
      out.matches = [];
      for (let i = 0; i < found.length && i < details; i++) out.matches.push(describeMatch(ev, found[i], refs[i]));
    }
    return out;
  }
  var MATCH_TEXT = 80;
  function describeMatch(ev, el, ref) {
    const role = getRole(el);
    const text = ev.texts.get(el).normalized;
    return {
      role: role ? ariaRoleName(el, role) : null,
      name: accessibleName(ev.ctx, el, role, false, true),
      tag: localName(el),
      text: text.length > MATCH_TEXT ? text.slice(0, MATCH_TEXT) + "\u2026" : text,
      visible: isVisible2(el),
      ref: ref === void 0 ? null : ref
    };
  }
  function evaluateChain(ev, chain) {
    return ev.chain(chain, document);
  }
  var Evaluator = class {
    constructor() {
      this.ctx = new Ctx();
      this.texts = new TextCache();
      this.all = /* @__PURE__ */ new Map();
      this.roles = /* @__PURE__ */ new Map();
      this.roleOf = /* @__PURE__ */ new Map();
      this.names = /* @__PURE__ */ new Map();
    }
    // The elements a chain matches, run from base (the document, or the
    // element a `has` locator is tested against).
    chain(chain, base) {
      let cur = [base];
      for (const step of chain.steps) cur = this.step(step, cur, base);
      return cur;
    }
    step(step, cur, base) {
      const a = step.args;
      switch (step.method) {
        case "first":
          return cur.slice(0, 1);
        case "last":
          return cur.slice(-1);
        case "nth": {
          const i = a[0].value < 0 ? cur.length + a[0].value : a[0].value;
          return i >= 0 && i < cur.length ? [cur[i]] : [];
        }
        case "filter":
          return this.filter(cur, a[0]);
        case "and": {
          const other = new Set(this.chain(a[0].chain, base));
          return cur.filter((e) => other.has(e));
        }
        case "or":
          return sortInDocumentOrder(unique(cur.concat(this.chain(a[0].chain, base))));
        default: {
          const out = [];
          const seen = /* @__PURE__ */ new Set();
          for (const scope of cur) {
            for (const e of this.query(step, scope)) {
              if (!seen.has(e)) {
                seen.add(e);
                out.push(e);
              }
            }
          }
          return step.method === "locator" && a[1] ? this.filter(out, a[1]) : out;
        }
      }
    }
    query(step, scope) {
      const a = step.args;
      const opts = a[1] && a[1].kind === "object" ? a[1].props : /* @__PURE__ */ new Map();
      const exact = opts.has("exact") && opts.get("exact").value;
      switch (step.method) {
        case "getByRole":
          return this.byRole(scope, a[0].value, opts);
        case "getByText":
          return this.byText(scope, textMatcher(a[0], exact));
        case "getByLabel":
          return this.byLabel(scope, textMatcher(a[0], exact));
        case "getByPlaceholder":
          return this.byAttribute(scope, "placeholder", textMatcher(a[0], exact));
        case "getByAltText":
          return this.byAttribute(scope, "alt", textMatcher(a[0], exact));
        case "getByTitle":
          return this.byAttribute(scope, "title", textMatcher(a[0], exact));
        case "getByTestId": {
          const v = a[0];
          const m = v.kind === "regex" ? (s) => v.value.test(s) : (s) => s === v.value;
          return this.elements(scope).filter((e) => {
            const t = getAttribute(e, "data-testid");
            return t !== null && m(t);
          });
        }
        case "locator":
          if (a[0].kind === "locator") return this.chain(a[0].chain, scope).filter((e) => e !== scope);
          return this.css(scope, a[0]);
        default:
          throw bridgeError("LocatorSyntax", "unsupported method " + step.method, null);
      }
    }
    // Every element under scope, open shadow roots included, in Playwright's
    // order (a root's own elements, then its shadow roots').  Cached.
    elements(scope) {
      let list = this.all.get(scope);
      if (list === void 0) {
        list = [];
        const visit = (root) => {
          const shadows = [];
          if (nodeType(root) === ELEMENT_NODE && shadowRoot(root)) shadows.push(shadowRoot(root));
          const found = queryIn(root, "*");
          for (let i = 0; i < found.length; i++) {
            list.push(found[i]);
            const s = shadowRoot(found[i]);
            if (s) shadows.push(s);
          }
          for (const s of shadows) visit(s);
        };
        visit(scope);
        this.all.set(scope, list);
      }
      return list;
    }
    byRole(scope, role, opts) {
      const want = role.trim().toLowerCase();
      const includeHidden = opts.has("includeHidden") && opts.get("includeHidden").value;
      const nameOpt = opts.get("name");
      const exact = opts.has("exact") && opts.get("exact").value;
      const nameMatch = nameOpt ? textMatcherOn(nameOpt, exact) : null;
      const out = [];
      for (const e of this.withRole(scope, want)) {
        if (!includeHidden && isHiddenForAria(this.ctx, e)) continue;
        if (!statesMatch(e, want, opts)) continue;
        if (nameMatch && !nameMatch(this.nameOf(e, want))) continue;
        out.push(e);
      }
      return out;
    }
    // The elements under scope whose role is role, in order.  The roles of
    // a scope's elements are found once, and each element's role once (a
    // locator search asks for many roles in many scopes).
    withRole(scope, role) {
      let lists = this.roles.get(scope);
      if (lists === void 0) {
        lists = /* @__PURE__ */ new Map();
        for (const e of this.elements(scope)) {
          let r = this.roleOf.get(e);
          if (r === void 0) {
            r = getRole(e);
            this.roleOf.set(e, r);
          }
          const l = lists.get(r);
          if (l === void 0) lists.set(r, [e]);
          else l.push(e);
        }
        this.roles.set(scope, lists);
      }
      return lists.get(role) || [];
    }
    // The accessible name of e with its role (cached).
    nameOf(e, role) {
      let n = this.names.get(e);
      if (n === void 0) {
        n = accessibleName(this.ctx, e, role, false);
        this.names.set(e, n);
      }
      return n;
    }
    // Playwright's text engine: elements whose text matches while none of
    // their children's does (the innermost), the scope element included.
    byText(scope, m) {
      const out = [];
      const cands = nodeType(scope) === ELEMENT_NODE ? [scope].concat(this.elements(scope)) : this.elements(scope);
      for (const e of cands) {
        if (skipsText(e) || !m(this.texts.get(e))) continue;
        let inner = false;
        for (let c = firstElementChild2(e); c !== null && !inner; c = nextElementSibling(c)) {
          inner = m(this.texts.get(c));
        }
        const shadow = shadowRoot(e);
        if (!inner && shadow) inner = m(this.texts.get(shadow));
        if (!inner) out.push(e);
      }
      return out;
    }
    byLabel(scope, m) {
      return this.elements(scope).filter((e) => this.labels(e).some(m));
    }
    // Playwright's getElementLabels: the text of the aria-labelledby
    // elements, else aria-label, else the <label> elements of a control.
    labels(e) {
      const by = idRefs(e, "aria-labelledby");
      if (by.length > 0) return by.map((l) => this.texts.get(l));
      const al = getAttribute(e, "aria-label");
      if (al !== null && al.trim()) return [{ full: al, normalized: normalize(al), immediate: [al] }];
      const tag = localName(e);
      if (tag === "input" && inputType(e) === "hidden") return [];
      const labels = labelsOf(e, tag);
      if (!labels) return [];
      const out = [];
      for (let i = 0; i < labels.length; i++) out.push(this.texts.get(labels[i]));
      return out;
    }
    byAttribute(scope, name, m) {
      const out = [];
      for (const e of this.elements(scope)) {
        const v = getAttribute(e, name);
        if (v !== null && m({ full: v, normalized: normalize(v) })) out.push(e);
      }
      return out;
    }
    css(scope, v) {
      let sel = v.value;
      if (/^css=/.test(sel)) sel = sel.slice(4);
      if (/^xpath=/.test(sel) || /^\.{0,2}\//.test(sel)) return this.xpath(scope, sel.replace(/^xpath=/, ""));
      if (/^[a-z_-]+=/i.test(sel) || /(^|[^\\])>>/.test(sel)) {
        throw bridgeError("InvalidSelector", "only CSS and XPath are supported in locator(): " + sel, { selector: sel });
      }
      const out = [];
      const visit = (root) => {
        let found;
        try {
          found = queryIn(root, sel);
        } catch (e) {
          throw bridgeError("InvalidSelector", sel + " (Playwright-only extensions such as :has-text(), :visible and >> are not supported)", { selector: sel });
        }
        for (let i = 0; i < found.length; i++) out.push(found[i]);
        if (nodeType(root) === ELEMENT_NODE && shadowRoot(root)) visit(shadowRoot(root));
        const all = queryIn(root, "*");
        for (let i = 0; i < all.length; i++) {
          const s = shadowRoot(all[i]);
          if (s) visit(s);
        }
      };
      visit(scope);
      return out;
    }
    xpath(scope, sel) {
      let r;
      try {
        r = docEvaluate(document, sel, scope, null, 7, null);
      } catch (e) {
        throw bridgeError("InvalidSelector", "xpath " + sel, { selector: sel });
      }
      const out = [];
      for (let i = 0; i < snapshotLength(r); i++) {
        const n = snapshotItem(r, i);
        if (nodeType(n) === ELEMENT_NODE && n !== scope) out.push(n);
      }
      return out;
    }
    filter(list, optsValue) {
      const o = optsValue.props;
      let out = list;
      if (o.has("hasText")) {
        const m = textMatcher(o.get("hasText"), false);
        out = out.filter((e) => !skipsText(e) && m(this.texts.get(e)));
      }
      if (o.has("hasNotText")) {
        const m = textMatcher(o.get("hasNotText"), false);
        out = out.filter((e) => skipsText(e) || !m(this.texts.get(e)));
      }
      if (o.has("has")) {
        const inner = o.get("has").chain;
        out = out.filter((e) => this.chain(inner, e).some((x) => x !== e));
      }
      if (o.has("hasNot")) {
        const inner = o.get("hasNot").chain;
        out = out.filter((e) => !this.chain(inner, e).some((x) => x !== e));
      }
      if (o.has("visible")) {
        const want = o.get("visible").value;
        out = out.filter((e) => isVisible2(e) === want);
      }
      return out;
    }
  };
  function queryIn(root, sel) {
    const type = nodeType(root);
    if (type === DOCUMENT_NODE) return docQuerySelectorAll(root, sel);
    if (type === DOCUMENT_FRAGMENT_NODE) return fragQuerySelectorAll(root, sel);
    return querySelectorAll(root, sel);
  }
  function textMatcher(v, exact) {
    if (v.kind === "regex") {
      const re = v.value;
      return (t) => {
        re.lastIndex = 0;
        return re.test(t.full);
      };
    }
    const want = normalize(v.value);
    if (exact) return (t) => t.normalized === want;
    const lower = want.toLowerCase();
    return (t) => t.normalized.toLowerCase().includes(lower);
  }
  function textMatcherOn(v, exact) {
    const m = textMatcher(v, exact);
    return (s) => m({ full: s, normalized: s });
  }
  function statesMatch(e, role, opts) {
    for (const [key, v] of opts) {
      switch (key) {
        case "checked":
          if (isChecked(e) !== v.value) return false;
          break;
        case "disabled":
          if (isDisabled2(e) !== v.value) return false;
          break;
        case "expanded":
          if ((getAttribute(e, "aria-expanded") === "true" || detailsOpenSummary(e)) !== v.value) return false;
          break;
        case "pressed":
          if (getAttribute(e, "aria-pressed") === "true" !== v.value) return false;
          break;
        case "selected":
          if (isSelected(e) !== v.value) return false;
          break;
        case "level": {
          const lv = role === "heading" ? headingLevel(e, role) : parseInt(getAttribute(e, "aria-level") || "0", 10);
          if (lv !== v.value) return false;
          break;
        }
        default:
          break;
      }
    }
    return true;
  }
  function isChecked(e) {
    const aria = getAttribute(e, "aria-checked");
    if (localName(e) === "input" && aria === null) {
      const t = inputType(e);
      return (t === "checkbox" || t === "radio") && inputChecked(e);
    }
    return aria === "true";
  }
  function isDisabled2(e) {
    const tag = localName(e);
    if (["button", "input", "select", "textarea", "option", "optgroup", "fieldset"].includes(tag) && matches(e, ":disabled")) return true;
    for (let n = e; n !== null && nodeType(n) === ELEMENT_NODE; n = parentNode(n)) {
      if (getAttribute(n, "aria-disabled") === "true") return true;
    }
    return false;
  }
  function isSelected(e) {
    if (localName(e) === "option") return optionSelected(e);
    return getAttribute(e, "aria-selected") === "true";
  }
  function detailsOpenSummary(e) {
    const p = parentNode(e);
    return localName(e) === "summary" && p !== null && nodeType(p) === ELEMENT_NODE && localName(p) === "details" && detailsOpen(p);
  }
  function isVisible2(e) {
    try {
      if (!checkVisibility(e, { visibilityProperty: true })) return false;
      const r = getBoundingClientRect(e);
      return r.width > 0 && r.height > 0;
    } catch (err) {
      return false;
    }
  }
  function unique(list) {
    return Array.from(new Set(list));
  }
  function sortInDocumentOrder(list) {
    return list.sort((a, b) => {
      const pos = compareDocumentPosition(a, b);
      if (pos & 4) return -1;
      if (pos & 2) return 1;
      return 0;
    });
  }

  // src/rolepath.js
  var ROW_ROLES = /* @__PURE__ */ new Set(["listitem", "row", "treeitem", "article"]);
  var NAMED_ROLES = /* @__PURE__ */ new Set([
    "dialog",
    "alertdialog",
    "region",
    "tabpanel",
    "form",
    "group",
    "navigation",
    "complementary",
    "search",
    "main",
    "banner",
    "contentinfo",
    "radiogroup",
    "toolbar",
    "menu",
    "menubar",
    "tablist",
    "listbox",
    "grid",
    "treegrid",
    "table",
    "tree",
    "list"
  ]);
  var ALONE_ROLES = /* @__PURE__ */ new Set(["dialog", "alertdialog", "main", "banner", "contentinfo"]);
  var MAX_ANCESTORS = 15;
  var MAX_TEXT = 80;
  var MAX_TEXTS = 5;
  var MAX_NODES = 400;
  var MAX_NAME = 200;
  function roleExpr(role, name, exact) {
    if (!name) return "getByRole(" + jsString(role) + ")";
    return "getByRole(" + jsString(role) + ", { name: " + jsString(name) + (exact ? ", exact: true" : "") + " })";
  }
  function filtered(expr, text) {
    return expr + ".filter({ hasText: " + jsString(text) + " })";
  }
  function containersOf(ev, el) {
    const out = [];
    let n = 0;
    for (let a = parentOrHost(el).parent; a !== null && !isTopElement(a) && n < MAX_ANCESTORS; a = parentOrHost(a).parent, n++) {
      const c = container(ev, a, el);
      if (c !== null) out.push(c);
    }
    return out;
  }
  function container(ev, a, target) {
    const tid = getAttribute(a, "data-testid");
    const testId = tid && isStableId(tid) ? tid : null;
    const role = getRole(a);
    const row = ROW_ROLES.has(role);
    const named2 = NAMED_ROLES.has(role);
    if (testId === null && !row && !named2) return null;
    return { el: a, exprs: () => containerExprs(ev, a, target, testId, role, row, named2) };
  }
  function* containerExprs(ev, a, target, testId, role, row, named2) {
    let texts = null;
    const textsOf = () => {
      if (texts === null) texts = filterTexts(ev, a, target);
      return texts;
    };
    if (testId !== null) {
      const c = "getByTestId(" + jsString(testId) + ")";
      yield c;
      for (const t of textsOf()) yield filtered(c, t);
    }
    if (named2) {
      const name = accessibleName(ev.ctx, a, role, false);
      if (name && name.length <= MAX_NAME) {
        yield roleExpr(role, name, false);
        yield roleExpr(role, name, true);
      } else if (!name && ALONE_ROLES.has(role)) {
        yield roleExpr(role);
      }
    }
    if (row) {
      for (const t of textsOf()) yield filtered(roleExpr(role), t);
    }
  }
  function filterTexts(ev, a, target) {
    const out = [];
    const add = (t) => {
      if (out.length < MAX_TEXTS && t.length >= 2 && t.length <= MAX_TEXT && !out.includes(t)) out.push(t);
    };
    const heading = firstHeading(ev, a, target);
    if (heading) add(heading);
    const runs = [];
    visibleRuns(ev, a, target, runs, { left: MAX_NODES });
    if (runs.length > 0) add(runs[0]);
    for (const t of runs.slice(1).sort((x, y) => x.length - y.length)) add(t);
    return out;
  }
  function* composedChildren(node) {
    const shadow = nodeType(node) === ELEMENT_NODE ? shadowRoot(node) : null;
    if (shadow) for (let c = firstChild(shadow); c !== null; c = nextSibling(c)) yield c;
    for (let c = firstChild(node); c !== null; c = nextSibling(c)) yield c;
  }
  function firstHeading(ev, a, target) {
    const walk3 = (node, budget) => {
      for (const c of composedChildren(node)) {
        if (budget.left-- <= 0) return "";
        if (nodeType(c) !== ELEMENT_NODE || c === target || skipsText(c)) continue;
        if (getRole(c) === "heading" && !isHiddenFromAllUsers(ev.ctx, c)) {
          const name = accessibleName(ev.ctx, c, "heading", false);
          if (name) return name;
        }
        const t = walk3(c, budget);
        if (t) return t;
      }
      return "";
    };
    return walk3(a, { left: MAX_NODES });
  }
  function visibleRuns(ev, node, target, out, budget) {
    for (const c of composedChildren(node)) {
      if (out.length >= MAX_TEXTS * 2 || budget.left-- <= 0) return;
      const type = nodeType(c);
      if (type === TEXT_NODE) {
        const t = normalize(nodeData(c));
        if (t && !isHiddenFromAllUsers(ev.ctx, node)) out.push(t);
      } else if (type === ELEMENT_NODE && c !== target && !skipsText(c) && !isHiddenFromAllUsers(ev.ctx, c)) {
        visibleRuns(ev, c, target, out, budget);
      }
    }
  }

  // src/locgen.js
  var UNLOCATABLE = /* @__PURE__ */ new Set(["generic", "none", "presentation", "iframe"]);
  var FIELD_ROLES = /* @__PURE__ */ new Set([
    "textbox",
    "searchbox",
    "combobox",
    "checkbox",
    "radio",
    "switch",
    "slider",
    "spinbutton",
    "listbox"
  ]);
  var FIELD_TAGS = /* @__PURE__ */ new Set(["input", "select", "textarea"]);
  var ALT_TAGS = /* @__PURE__ */ new Set(["img", "area", "input"]);
  var MAX_TEXT2 = 120;
  var LEAD = 60;
  var SIMPLE_VALUE = /^[^"'\\\n\r]{1,120}$/;
  var LocatorGen = class {
    constructor() {
      this.ev = null;
      this.counts = /* @__PURE__ */ new Map();
    }
    engine() {
      if (this.ev === null) this.ev = new Evaluator();
      return this.ev;
    }
    // The elements expr matches in the document (cached per expression).
    matches(expr) {
      let m = this.counts.get(expr);
      if (m === void 0) {
        m = this.engine().chain(parseLocator(expr), document);
        this.counts.set(expr, m);
      }
      return m;
    }
    // The first verified locator of el that is not positional, or null.
    best(el) {
      for (const c of this.verified(el, [])) return c.locator;
      return null;
    }
    // { locator, positional, note, alternatives }: see the module comment.
    generate(el, alternatives) {
      const near = [];
      const found = [];
      for (const c of this.verified(el, near)) {
        found.push(c);
        if (found.length > alternatives) break;
      }
      if (found.length > 0) {
        return { locator: found[0].locator, positional: false, note: null, alternatives: found.slice(1) };
      }
      return this.positional(el, near);
    }
    // The candidate that matched el among the fewest others, with .nth().
    positional(el, near) {
      let base = null;
      for (const c of near) {
        if (base === null || c.count < base.count) base = c;
      }
      if (base === null) {
        const expr = "locator(" + jsString(localName(el)) + ")";
        const m = this.matches(expr);
        base = { locator: expr, count: m.length, index: m.indexOf(el) };
      }
      if (base.index < 0) {
        return { locator: null, positional: true, note: "no locator reaches this element", alternatives: [] };
      }
      return {
        locator: base.locator + ".nth(" + base.index + ")",
        positional: true,
        note: "positional: " + base.count + " elements match " + base.locator + " and no test id, role and name, label, text or container tells this one apart",
        alternatives: []
      };
    }
    // Yields { locator, kind, count: 1 } for each verified candidate of el,
    // best first.  Candidates that match el among others go to near, as
    // { locator, count, index }, for a positional locator.
    *verified(el, near) {
      const seen = /* @__PURE__ */ new Set();
      const inner = [];
      const late = [];
      for (const c of ownCandidates(this.engine(), el)) {
        for (const expr of c.exprs) {
          const m = this.matches(expr);
          const index = m.indexOf(el);
          if (index < 0) break;
          if (m.length === 1) {
            if (!seen.has(expr)) {
              seen.add(expr);
              const hit = { locator: expr, kind: c.kind, count: 1 };
              if (c.late) late.push(hit);
              else yield hit;
            }
            break;
          }
          near.push({ locator: expr, count: m.length, index });
          inner.push(expr);
        }
      }
      yield* this.self(el, seen);
      yield* this.scoped(el, inner, seen);
      yield* late;
      const id = getAttribute(el, "id");
      if (id && isStableId(id) && /^[A-Za-z][\w-]*$/.test(id)) {
        const expr = "locator(" + jsString("#" + id) + ")";
        const m = this.matches(expr);
        if (m.length === 1 && m[0] === el) yield { locator: expr, kind: "css", count: 1 };
      }
    }
    // el as a container of its own (a card, a row): its test id or row
    // role filtered by its own texts.
    *self(el, seen) {
      const c = container(this.engine(), el, null);
      if (c === null) return;
      for (const expr of c.exprs()) {
        const m = this.matches(expr);
        if (m.length !== 1 || m[0] !== el) continue;
        if (seen.has(expr)) return;
        seen.add(expr);
        yield { locator: expr, kind: "container", count: 1 };
      }
    }
    // The inner candidates under the containers of el, nearest first, each
    // container's locator with the best inner one that serves under it.  A
    // container whose plain locator serves is not also offered filtered.
    *scoped(el, inner, seen) {
      if (inner.length === 0) return;
      const ev = this.engine();
      const parsed = inner.map((e) => ({ expr: e, chain: parseLocator(e) }));
      let left = Infinity;
      for (const c of containersOf(ev, el)) {
        if (left-- <= 0) return;
        const within = parsed.filter((p) => {
          const m = ev.chain(p.chain, c.el);
          return m.length === 1 && m[0] === el;
        });
        if (within.length === 0) continue;
        let first = true;
        for (const outer of c.exprs()) {
          const p = within.find((q) => {
            const m = this.matches(outer + "." + q.expr);
            return m.length === 1 && m[0] === el;
          });
          if (p !== void 0 && !seen.has(outer + "." + p.expr)) {
            seen.add(outer + "." + p.expr);
            if (left > 2) left = 2;
            yield { locator: outer + "." + p.expr, kind: "container", count: 1 };
            if (first) break;
          }
          first = false;
        }
      }
    }
  };
  function ownCandidates(ev, el) {
    const out = [];
    const tag = localName(el);
    const role = getRole(el);
    const locatable = role && !UNLOCATABLE.has(role);
    const tid = getAttribute(el, "data-testid");
    if (tid && isStableId(tid)) out.push({ kind: "test-id", exprs: ["getByTestId(" + jsString(tid) + ")"] });
    for (const a of TEST_ID_ATTRIBUTES) {
      const v = getAttribute(el, a);
      if (a !== "data-testid" && v && isStableId(v) && SIMPLE_VALUE.test(v)) {
        out.push({ kind: "test-id", exprs: ["locator(" + jsString("[" + a + '="' + v + '"]') + ")"] });
      }
    }
    const name = locatable ? accessibleName(ev.ctx, el, role, false) : "";
    if (name && name.length <= MAX_NAME) {
      out.push({ kind: "role", exprs: [roleExpr(role, name, false), roleExpr(role, name, true)] });
    }
    if (FIELD_TAGS.has(tag) || FIELD_ROLES.has(role)) {
      const labels = ev.labels(el).map((l) => l.normalized);
      for (const t of name && labels.length > 0 ? [name] : labels) {
        if (t && t.length <= MAX_NAME) out.push({ kind: "label", exprs: textual("getByLabel", t) });
      }
    }
    attributeCandidate(out, el, "placeholder", "getByPlaceholder", "placeholder");
    if (ALT_TAGS.has(tag)) attributeCandidate(out, el, "alt", "getByAltText", "alt-text");
    attributeCandidate(out, el, "title", "getByTitle", "title");
    if (!FIELD_TAGS.has(tag) && container(ev, el, null) === null) {
      const text = ev.texts.get(el).normalized;
      if (text && text.length <= MAX_TEXT2) {
        out.push({ kind: "text", exprs: textual("getByText", text), late: !!name && text !== name });
      } else if (text) {
        out.push({ kind: "text", exprs: ["getByText(" + jsString(leadingWords(text)) + ")"], late: !!name });
      }
    }
    if (locatable) out.push({ kind: "role", exprs: [roleExpr(role)] });
    return out;
  }
  function leadingWords(text) {
    const cut = text.slice(0, LEAD + 1);
    const space = cut.lastIndexOf(" ");
    return (space > LEAD / 2 ? cut.slice(0, space) : cut.slice(0, LEAD)).trim();
  }
  function textual(method3, text) {
    return [method3 + "(" + jsString(text) + ")", method3 + "(" + jsString(text) + ", { exact: true })"];
  }
  function attributeCandidate(out, el, attribute, method3, kind) {
    const v = getAttribute(el, attribute);
    const t = v === null ? "" : normalize(v);
    if (t && t.length <= MAX_NAME) out.push({ kind, exprs: textual(method3, t) });
  }
  function locatorFor(env, ref, options2) {
    const opts = options2 || {};
    checkKeys(opts, ["alternatives"], "locatorFor");
    const n = intOption(opts, "alternatives", 4, 0, "locatorFor");
    return new LocatorGen().generate(env.resolve(ref), n);
  }
  function frameOwnerLocator(env, key) {
    const gen = new LocatorGen();
    for (const el of gen.engine().elements(document)) {
      const tag = localName(el);
      if ((tag === "iframe" || tag === "frame") && env.frameKeys.get(el) === key) return gen.generate(el, 0);
    }
    return null;
  }

  // src/selector.js
  var FIELD_TAGS2 = /* @__PURE__ */ new Set([
    "input",
    "select",
    "textarea",
    "button",
    "output",
    "fieldset",
    "form",
    "iframe",
    "object"
  ]);
  var LANDMARK_TAGS = [
    "form",
    "nav",
    "header",
    "footer",
    "main",
    "aside",
    "dialog",
    "table",
    "fieldset",
    "menu"
  ];
  var MAX_VALUE = 120;
  var MAX_ANCESTORS2 = 12;
  var MAX_CONTAINERS = 3;
  function cssString(v) {
    return "'" + v.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\a ") + "'";
  }
  function queryRoot(root, sel) {
    try {
      return nodeType(root) === DOCUMENT_NODE ? docQuerySelectorAll(root, sel) : fragQuerySelectorAll(root, sel);
    } catch (e) {
      return null;
    }
  }
  var Finder = class {
    constructor() {
      this.trees = null;
      this.locators = new LocatorGen();
    }
    // The document and every open shadow root in it, nested ones included.
    allTrees() {
      if (this.trees === null) {
        const trees = [document];
        for (let i = 0; i < trees.length; i++) {
          const all = queryRoot(trees[i], "*");
          for (let k = 0; k < all.length; k++) {
            const s = shadowRoot(all[k]);
            if (s) trees.push(s);
          }
        }
        this.trees = trees;
      }
      return this.trees;
    }
    // True when sel matches el and nothing else in any tree.  root (el's
    // own tree) is asked first: it answers most candidates at once.
    isUnique(root, sel, el) {
      const own2 = queryRoot(root, sel);
      if (own2 === null || own2.length !== 1 || own2[0] !== el) return false;
      const trees = this.allTrees();
      for (let i = 0; i < trees.length; i++) {
        if (trees[i] === root) continue;
        const list = queryRoot(trees[i], sel);
        if (list === null || list.length > 0) return false;
      }
      return true;
    }
  };
  function stableClasses(el) {
    const cls = getAttribute(el, "class");
    if (!cls) return [];
    const out = [];
    for (const c of cls.trim().split(/\s+/)) {
      if (c && c.length <= 40 && /^[A-Za-z_][\w-]*$/.test(c) && isStableId(c)) out.push(c);
      if (out.length === 3) break;
    }
    return out;
  }
  function ownParts(el, loose) {
    const tag = localName(el);
    const parts = [];
    const id = getAttribute(el, "id");
    if (id && isStableId(id)) parts.push("#" + cssEscape(id));
    for (const a of TEST_ID_ATTRIBUTES) {
      const v = getAttribute(el, a);
      if (v && v.length <= MAX_VALUE) parts.push("[" + a + "=" + cssString(v) + "]");
    }
    const label2 = getAttribute(el, "aria-label");
    if (label2 && label2.trim() && label2.length <= MAX_VALUE) {
      parts.push("[aria-label=" + cssString(label2) + "]");
      parts.push(cssEscape(tag) + "[aria-label=" + cssString(label2) + "]");
    }
    const href = getAttribute(el, "href");
    if (tag === "a" && href !== null && href.length <= 2 * MAX_VALUE) parts.push("a[href=" + cssString(href) + "]");
    const name = getAttribute(el, "name");
    if (name && FIELD_TAGS2.has(tag) && name.length <= MAX_VALUE) {
      const byName = tag + "[name=" + cssString(name) + "]";
      parts.push(byName);
      const value = getAttribute(el, "value");
      const type = (getAttribute(el, "type") || "").toLowerCase();
      if (value !== null && (type === "radio" || type === "checkbox") && value.length <= MAX_VALUE) {
        parts.push(byName + "[value=" + cssString(value) + "]");
      }
    }
    for (const a of ["placeholder", "title", "alt"]) {
      const v = getAttribute(el, a);
      if (v && v.trim() && v.length <= MAX_VALUE) parts.push(cssEscape(tag) + "[" + a + "=" + cssString(v) + "]");
    }
    for (const c of stableClasses(el)) parts.push(cssEscape(tag) + "." + cssEscape(c));
    if (loose) {
      const type = getAttribute(el, "type");
      if (type && /^[a-z-]+$/i.test(type)) parts.push(cssEscape(tag) + "[type=" + cssString(type) + "]");
      parts.push(cssEscape(tag));
    }
    return parts;
  }
  function containerParts(el) {
    const tag = localName(el);
    const strong = [];
    const id = getAttribute(el, "id");
    if (id && isStableId(id)) strong.push("#" + cssEscape(id));
    for (const a of TEST_ID_ATTRIBUTES) {
      const v = getAttribute(el, a);
      if (v && v.length <= MAX_VALUE) strong.push("[" + a + "=" + cssString(v) + "]");
    }
    const label2 = getAttribute(el, "aria-label");
    if (label2 && label2.trim() && label2.length <= MAX_VALUE) {
      strong.push(cssEscape(tag) + "[aria-label=" + cssString(label2) + "]");
    }
    const name = getAttribute(el, "name");
    if (name && FIELD_TAGS2.has(tag) && name.length <= MAX_VALUE) strong.push(tag + "[name=" + cssString(name) + "]");
    const root = getRootNode(el);
    for (const c of stableClasses(el)) {
      const sel = cssEscape(tag) + "." + cssEscape(c);
      const list = queryRoot(root, sel);
      if (list !== null && list.length === 1) strong.push(sel);
    }
    const weak = LANDMARK_TAGS.includes(tag) ? [tag] : [];
    return { strong, weak };
  }
  function selectorFor(el) {
    return describeTarget(new Finder(), el);
  }
  function describeTarget(finder, el) {
    const root = getRootNode(el);
    const shadow = nodeType(root) !== DOCUMENT_NODE;
    const out = {};
    const css = findSelector(finder, root, el);
    if (css !== null) {
      out.selector = css;
    } else {
      const loc = finder.locators.best(el);
      if (loc !== null) {
        out.locator = loc;
      } else {
        try {
          const r = getBoundingClientRect(el);
          out.at = { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) };
        } catch (e) {
          out.at = null;
        }
      }
    }
    if (shadow) out.in_shadow = true;
    return out;
  }
  function findSelector(finder, root, el) {
    const own2 = ownParts(el, false);
    for (const p of own2) {
      if (finder.isUnique(root, p, el)) return p;
    }
    const loose = ownParts(el, true);
    const strong = [];
    const weak = [];
    let n = 0;
    for (let a = parentNode(el); a !== null && nodeType(a) === ELEMENT_NODE && n < MAX_ANCESTORS2; a = parentNode(a), n++) {
      const t = localName(a);
      if (t === "body" || t === "html") break;
      const c = containerParts(a);
      for (const p of c.strong) strong.push({ el: a, part: p });
      for (const p of c.weak) weak.push({ el: a, part: p });
    }
    for (const list of [strong, weak]) {
      for (const c of list) {
        for (const d of loose) {
          let inner;
          try {
            inner = querySelectorAll(c.el, d);
          } catch (e) {
            continue;
          }
          if (inner.length !== 1 || inner[0] !== el) continue;
          const sel = c.part + " " + d;
          if (finder.isUnique(root, sel, el)) return sel;
        }
      }
    }
    return positional(finder, root, el, loose, strong.concat(weak));
  }
  function nthOfType(el) {
    const p = parentNode(el);
    if (p === null) return "";
    const tag = localName(el);
    let k = 0;
    let index = 0;
    let c = nodeType(p) === ELEMENT_NODE ? firstElementChild2(p) : fragFirstElementChild(p);
    for (; c !== null; c = nextElementSibling(c)) {
      if (localName(c) !== tag) continue;
      k++;
      if (c === el) index = k;
    }
    return k > 1 ? ":nth-of-type(" + index + ")" : "";
  }
  function positional(finder, root, el, loose, containers) {
    const stops = [];
    for (const c of containers) {
      if (!stops.includes(c.el)) stops.push(c.el);
      if (stops.length === MAX_CONTAINERS) break;
    }
    stops.push(null);
    const nth = nthOfType(el);
    for (const stop of stops) {
      const steps = [];
      let n = 0;
      for (let a = parentNode(el); a !== null && a !== stop && nodeType(a) === ELEMENT_NODE && n < MAX_ANCESTORS2; a = parentNode(a), n++) {
        const t = localName(a);
        if (t === "body" || t === "html") break;
        steps.unshift({ tag: cssEscape(t), nth: nthOfType(a) });
      }
      const prefixes = stop !== null ? containers.filter((c) => c.el === stop).map((c) => c.part + " ") : [""];
      const short = steps.filter((s) => s.nth !== "").map((s) => s.tag + s.nth + " ").join("");
      const full = steps.map((s) => s.tag + s.nth + " > ").join("");
      for (const prefix of prefixes) {
        for (const d of loose) {
          const end = d + nth;
          if (finder.isUnique(root, prefix + short + end, el)) return prefix + short + end;
          const chain = prefix + (prefix !== "" ? "> " : "") + full + end;
          if (finder.isUnique(root, chain, el)) return chain;
        }
      }
    }
    return null;
  }
  function selectorCoverage(env) {
    const finder = new Finder();
    let total = 0;
    let css = 0;
    let loc = 0;
    const without = [];
    for (const ref of env.refs.byRef.keys()) {
      const hit = env.refs.lookup(ref);
      if (!hit || hit.stale) continue;
      total++;
      const d = describeTarget(finder, hit.element);
      if (d.selector !== void 0) css++;
      else if (d.locator !== void 0) loc++;
      else if (without.length < 20) without.push(ref);
    }
    const good = css + loc;
    return {
      refs: total,
      with_selector: good,
      with_css: css,
      with_locator: loc,
      ratio: total ? Math.round(good / total * 1e3) / 1e3 : 1,
      without
    };
  }

  // src/verify.js
  var CHECKABLE_ROLES = /* @__PURE__ */ new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio", "treeitem"]);
  function locatorFacts(env, expr, options2) {
    const opts = options2 || {};
    checkKeys(opts, ["limit", "text_max"], "locatorFacts");
    const limit = intOption(opts, "limit", 20, 0, "locatorFacts");
    const textMax = intOption(opts, "text_max", 500, 1, "locatorFacts");
    const ev = new Evaluator();
    const found = ev.chain(parseLocator(expr), document);
    const matches2 = [];
    for (let i = 0; i < found.length && i < limit; i++) matches2.push(factsOf(env, ev, found[i], textMax));
    return { count: found.length, matches: matches2 };
  }
  function factsOf(env, ev, el, textMax) {
    const role = getRole(el);
    const text = ev.texts.get(el).normalized;
    const field = retarget(el);
    const out = {
      ref: refFor(ev.ctx, env.refs, el),
      role: role ? ariaRoleName(el, role) : null,
      name: accessibleName(ev.ctx, el, role, false, true),
      tag: localName(el),
      text: text.length > textMax ? text.slice(0, textMax) + "\u2026" : text,
      visible: isVisible2(el),
      value: null,
      label: null,
      checked: null
    };
    const tag = localName(field);
    if (tag === "input") out.value = inputValue(field);
    else if (tag === "textarea") out.value = textareaValue(field);
    else if (tag === "select") {
      out.value = selectValue(field);
      const sel = selectSelectedOptions(field);
      if (sel.length > 0) out.label = optionText(sel[0]);
    }
    out.checked = checkedState(field);
    return out;
  }
  function retarget(el) {
    if (localName(el) !== "label") return el;
    const c = labelControl(el);
    return c === null ? el : c;
  }
  function checkedState(el) {
    if (localName(el) === "input" && getAttribute(el, "aria-checked") === null) {
      const t = inputType(el);
      if (t !== "checkbox" && t !== "radio") return null;
      if (t === "checkbox" && inputIndeterminate(el)) return "mixed";
      return inputChecked(el);
    }
    if (!CHECKABLE_ROLES.has(getRole(el))) return null;
    if (getAttribute(el, "aria-checked") === "mixed") return "mixed";
    return isChecked(el);
  }

  // src/readhtml.js
  var VOID = /* @__PURE__ */ new Set([
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr"
  ]);
  var PROSE = /* @__PURE__ */ new Set([
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "caption",
    "blockquote",
    "pre",
    "code",
    "a",
    "em",
    "strong",
    "b",
    "i",
    "br",
    "hr",
    "figure",
    "figcaption",
    "q",
    "cite",
    "abbr",
    "sub",
    "sup"
  ]);
  var FORM_TAGS2 = /* @__PURE__ */ new Set([
    "form",
    "fieldset",
    "legend",
    "label",
    "input",
    "select",
    "option",
    "optgroup",
    "textarea",
    "button",
    "output",
    "datalist",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6"
  ]);
  var FORM_TEXT = /* @__PURE__ */ new Set([
    "form",
    "fieldset",
    "legend",
    "label",
    "option",
    "optgroup",
    "button",
    "output",
    "a",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6"
  ]);
  var FULL_ATTRIBUTES = /* @__PURE__ */ new Set([
    "id",
    "role",
    "name",
    "type",
    "href",
    "src",
    "alt",
    "title",
    "placeholder",
    "for",
    "action",
    "method",
    "disabled",
    "required",
    "readonly",
    "multiple",
    "min",
    "max",
    "step",
    "pattern",
    "maxlength",
    "minlength",
    "colspan",
    "rowspan",
    "scope",
    "headers",
    "tabindex",
    "contenteditable",
    "label",
    "open",
    "datetime",
    "lang",
    "dir",
    "autocomplete",
    "accept",
    "download",
    "target",
    "list"
  ]);
  var FORM_ATTRIBUTES = /* @__PURE__ */ new Set([
    "id",
    "role",
    "name",
    "type",
    "href",
    "title",
    "placeholder",
    "for",
    "action",
    "method",
    "disabled",
    "required",
    "readonly",
    "multiple",
    "min",
    "max",
    "step",
    "pattern",
    "maxlength",
    "minlength",
    "label",
    "autocomplete",
    "accept",
    "aria-label",
    "aria-describedby",
    "aria-invalid",
    "aria-required",
    "aria-expanded",
    "aria-checked",
    "aria-errormessage",
    "list"
  ]);
  var TEXT_ATTRIBUTES = /* @__PURE__ */ new Set(["href", "alt", "colspan", "rowspan", "scope"]);
  var VALUE_MAX = 120;
  var MAX_OPTIONS = 20;
  var CLASS_KEEP = 3;
  function readHtml(env, options2) {
    const opts = options2 || {};
    checkKeys(opts, ["mode", "root", "level", "max_chars"], "readHtml");
    const mode = opts.mode == null ? "full" : opts.mode;
    if (mode !== "full" && mode !== "form" && mode !== "text") {
      throw badArgument('readHtml: mode must be "full", "form" or "text"');
    }
    const maxChars = intOption(opts, "max_chars", 5e4, 1, "readHtml");
    const level = intOption(opts, "level", 0, 0, "readHtml");
    if (level > 0 && opts.root == null) throw badArgument("readHtml: level needs root");
    const root = opts.root != null ? elementAtLevel(env.resolve(opts.root), level, "readHtml") : docBody(document) || documentElement(document);
    const w = { ctx: new Ctx(), refs: env.refs, mode, out: [], kept: 0, help: /* @__PURE__ */ new Set() };
    if (mode === "form") collectHelp(root, w.help);
    if (root) element(w, root, false);
    let html = w.out.join("").replace(/\s+/g, " ").replace(/>\s+</g, "><").replace(/(<[a-z][^>]*>) /g, "$1").replace(/ (<\/)/g, "$1").trim();
    const sizeAfter = html.length;
    const result = {
      html: "",
      size_before: root ? outerHTML(root).length : 0,
      size_after: sizeAfter,
      interactive_kept: w.kept
    };
    if (html.length > maxChars) {
      html = truncate(html, maxChars);
      result.truncated = true;
    }
    result.html = html;
    return result;
  }
  function collectHelp(root, help) {
    const tree = getRootNode(root);
    const q = nodeType(tree) === DOCUMENT_NODE ? docQuerySelectorAll : fragQuerySelectorAll;
    const list = q(tree, "[aria-describedby],[aria-errormessage]");
    for (let i = 0; i < list.length; i++) {
      for (const t of idRefs(list[i], "aria-describedby")) help.add(t);
      for (const t of idRefs(list[i], "aria-errormessage")) help.add(t);
    }
  }
  function element(w, el, inText) {
    if (isSkipped(el)) return;
    const st = styleOf2(w.ctx, el);
    if (st.none) return;
    const display = st.display;
    const textVisible = !st.hidden;
    const tag = localName(el);
    const ref = refFor(w.ctx, w.refs, el);
    if (namespaceURI(el) === SVG_NS) {
      if (tag === "svg" && (w.mode === "full" || ref !== null)) openTag(w, el, tag, ref, "></svg>");
      return;
    }
    const keep = keeps(w, el, tag, ref);
    const textOn = textVisible && (w.mode !== "form" || inText || FORM_TEXT.has(tag) || w.help.has(el));
    const block = !display.startsWith("inline") && display !== "contents";
    if (keep) openTag(w, el, tag, ref, ">");
    else if (block) w.out.push(" ");
    if (!VOID.has(tag)) {
      if (tag === "textarea") {
        if (textVisible) w.out.push(escapeText(truncate(textareaValue(el), VALUE_MAX)));
      } else {
        if (tag === "select" && isHTML(el)) options(w, el, textOn);
        else children(w, el, tag, textOn);
      }
      if (keep) w.out.push("</" + tag + ">");
      else if (block) w.out.push(" ");
    }
  }
  function keeps(w, el, tag, ref) {
    if (ref !== null) return true;
    if (w.mode === "full") return true;
    if (w.mode === "text") return PROSE.has(tag) || tag === "img" && !!getAttribute(el, "alt");
    return FORM_TAGS2.has(tag) || w.help.has(el);
  }
  function options(w, select, textOn) {
    if (w.mode === "text") {
      if (!textOn) return;
      const sel = selectSelectedOptions(select);
      const parts = [];
      for (let i = 0; i < sel.length; i++) parts.push(optionText(sel[i]));
      w.out.push(escapeText(parts.join(", ")));
      return;
    }
    const all = selectOptions(select);
    if (all.length <= MAX_OPTIONS) {
      children(w, select, "select", textOn);
      return;
    }
    let left = 0;
    for (let i = 0; i < all.length; i++) {
      if (i < MAX_OPTIONS || optionSelected(all[i])) element(w, all[i], textOn);
      else left++;
    }
    w.out.push("\u2026[+" + left + " options]");
  }
  function children(w, el, tag, textOn) {
    if (tag === "slot") {
      const assigned = assignedNodes(el);
      if (assigned.length > 0) {
        for (let i = 0; i < assigned.length; i++) child(w, assigned[i], null, textOn);
        return;
      }
    }
    const details = tag === "details" ? el : null;
    const shadow = shadowRoot(el);
    for (let c = firstChild(shadow || el); c !== null; c = nextSibling(c)) child(w, c, details, textOn);
  }
  function child(w, node, details, textOn) {
    if (details !== null && isClosedDetailsContent(details, node)) return;
    const type = nodeType(node);
    if (type === TEXT_NODE) {
      if (textOn) w.out.push(escapeText(nodeData(node)));
    } else if (type === ELEMENT_NODE) {
      element(w, node, textOn);
    }
  }
  function openTag(w, el, tag, ref, end) {
    let s = "<" + tag;
    const names = getAttributeNames(el);
    const allowed = w.mode === "full" ? FULL_ATTRIBUTES : w.mode === "form" ? FORM_ATTRIBUTES : TEXT_ATTRIBUTES;
    for (let i = 0; i < names.length; i++) {
      const n = names[i];
      if (n === "value" || n === "checked" || n === "selected" || n === "data-ref") continue;
      let keepIt = allowed.has(n);
      if (n === "aria-label" && ref !== null) keepIt = true;
      if (!keepIt && w.mode !== "text") keepIt = TEST_ID_ATTRIBUTES.includes(n) || w.mode === "full" && n.startsWith("aria-");
      if (n === "class" && w.mode === "full") {
        const c = shortenClasses(getAttribute(el, n));
        if (c) s += ' class="' + escapeAttr(c) + '"';
        continue;
      }
      if (!keepIt) continue;
      s += " " + n + attrValue(n, getAttribute(el, n));
    }
    if (w.mode !== "text") s += liveState(el, tag);
    if (ref !== null) {
      s += ' data-ref="' + ref + '"';
      w.kept++;
    }
    w.out.push(s + end);
  }
  function attrValue(name, v) {
    if (v === "") return "";
    let value = v;
    if ((name === "href" || name === "src") && /^data:/i.test(v)) value = truncate(v, 16);
    else value = truncate(v, VALUE_MAX);
    return '="' + escapeAttr(value) + '"';
  }
  function liveState(el, tag) {
    if (tag === "input") {
      const type = inputType(el);
      if (type === "checkbox" || type === "radio") {
        const v = getAttribute(el, "value");
        return (v !== null ? ' value="' + escapeAttr(truncate(v, VALUE_MAX)) + '"' : "") + (inputChecked(el) ? " checked" : "");
      }
      const value = inputValue(el);
      if (!value) return "";
      return ' value="' + escapeAttr(type === "password" ? "\u2022".repeat(8) : truncate(value, VALUE_MAX)) + '"';
    }
    if (tag === "option") {
      const v = getAttribute(el, "value");
      return (v !== null ? ' value="' + escapeAttr(truncate(v, VALUE_MAX)) + '"' : "") + (optionSelected(el) ? " selected" : "");
    }
    if (tag === "button" || tag === "output" || tag === "param") {
      const v = getAttribute(el, "value");
      return v ? ' value="' + escapeAttr(truncate(v, VALUE_MAX)) + '"' : "";
    }
    return "";
  }
  function isGeneratedClass(c) {
    if (/^(?:css|sc|jsx|emotion|styled|jss|svelte|makeStyles|astro|tw)-/.test(c)) return true;
    if (/__[A-Za-z0-9_-]{5,}$/.test(c)) return true;
    return /(?:^|[-_])(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{5,}$/.test(c);
  }
  function shortenClasses(value) {
    if (!value) return "";
    const all = value.trim().split(/\s+/).filter(Boolean);
    const kept = [];
    for (const c of all) {
      if (kept.length < CLASS_KEEP && !isGeneratedClass(c) && c.length <= 40) kept.push(c);
    }
    const dropped = all.length - kept.length;
    return kept.join(" ") + (dropped > 0 ? (kept.length ? " " : "") + "\u2026+" + dropped : "");
  }
  function escapeText(s) {
    return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  function escapeAttr(s) {
    return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  }

  // src/target.js
  var SHOWN_MATCHES = 5;
  function targetRef(env, opts) {
    checkKeys(opts || {}, ["locator", "text"], "targetRef");
    const { locator, text } = opts || {};
    if (locator == null === (text == null)) throw badArgument("targetRef: give one of locator or text");
    const ev = new Evaluator();
    let found;
    let what;
    if (locator != null) {
      if (typeof locator !== "string") throw badArgument("targetRef: locator must be a string");
      found = ev.chain(parseLocator(locator), document);
      what = "locator " + locator;
    } else {
      if (typeof text !== "string" || normalize(text) === "") throw badArgument("targetRef: text must be a non-empty string");
      found = smallestWithText(ev, normalize(text).toLowerCase());
      what = "text " + JSON.stringify(text);
    }
    if (found.length !== 1) {
      const matches2 = found.slice(0, SHOWN_MATCHES).map((el2) => describeMatch(ev, el2, env.refs.peek(el2)));
      const listed = matches2.map((m) => (m.role || "(no role)") + (m.name ? " " + JSON.stringify(m.name) : "") + " <" + m.tag + ">" + (m.ref ? " [ref=" + m.ref + "]" : "")).join("; ");
      throw bridgeError(
        "NotUnique",
        what + " matches " + found.length + " elements; it must match exactly one" + (listed ? " (" + (found.length > SHOWN_MATCHES ? "the first " + SHOWN_MATCHES + ": " : "") + listed + ")" : ""),
        { count: found.length, matches: matches2, [locator != null ? "locator" : "text"]: locator != null ? locator : text }
      );
    }
    const el = found[0];
    const role = getRole(el);
    const name = accessibleName(ev.ctx, el, role, false);
    const tag = localName(el);
    return { ref: env.refs.assign(el, role, name, tag), role, name, tag };
  }
  function smallestWithText(ev, needle) {
    const out = [];
    const visit = (el) => {
      const kids = childElements(el);
      let inChild = false;
      for (let i = 0; i < kids.length; i++) {
        const k = kids[i];
        if (isSkipped(k) || !ev.texts.get(k).normalized.toLowerCase().includes(needle)) continue;
        inChild = true;
        visit(k);
      }
      if (!inChild && el !== document.body && isVisible2(el)) out.push(el);
    };
    if (document.body && ev.texts.get(document.body).normalized.toLowerCase().includes(needle)) visit(document.body);
    return out;
  }

  // src/find.js
  var MAX_PATTERN = 1e3;
  function matchTexts(source, flags, texts) {
    if (typeof source !== "string" || source.length > MAX_PATTERN) {
      throw badArgument("matchTexts: source must be a string of at most " + MAX_PATTERN + " characters");
    }
    if (typeof flags !== "string" || !/^[dimsuv]*$/.test(flags)) {
      throw bridgeError("InvalidArgument", "regex flags " + JSON.stringify(String(flags)) + " are not allowed (use d, i, m, s, u or v)", { field: "regex" });
    }
    if (!Array.isArray(texts)) throw badArgument("matchTexts: texts must be a list of strings");
    let re;
    try {
      re = new RegExp(source, flags);
    } catch (e) {
      throw bridgeError("InvalidArgument", "regex /" + source + "/" + flags + " is not a valid JavaScript regular expression: " + String(e && e.message), { field: "regex" });
    }
    const out = [];
    for (let i = 0; i < texts.length; i++) {
      if (typeof texts[i] === "string" && re.test(texts[i])) out.push(i);
    }
    return out;
  }

  // src/structure.js
  function structureMethods(env, describe2) {
    return {
      resolveContainer(ref, opts) {
        return resolveContainer(env, ref, opts);
      },
      inspectPattern(ref, level, opts) {
        return inspectPattern(env, ref, level, opts);
      },
      extractAnchors(ref, level, opts) {
        return extractAnchors(env, ref, level, opts);
      },
      // { selector }, { locator } or { at: { x, y } }; in_shadow when the
      // element lives in a shadow root.
      selector(ref) {
        return selectorFor(env.resolve(ref));
      },
      selectorCoverage() {
        return selectorCoverage(env);
      },
      locatorCount(expr, opts) {
        return locatorCount(env, expr, opts);
      },
      locatorFacts(expr, opts) {
        return locatorFacts(env, expr, opts);
      },
      readHtml(opts) {
        return readHtml(env, opts);
      },
      targetRef(opts) {
        return targetRef(env, opts);
      },
      matchTexts(source, flags, texts) {
        return matchTexts(source, flags, texts);
      },
      describe(ref) {
        const d = describe2(ref);
        if (d && !d.error) Object.assign(d, selectorFor(env.resolve(ref)));
        return d;
      }
    };
  }

  // src/successor.js
  var NO_SUCCESSOR = /* @__PURE__ */ new Set(["generic", "none", "presentation", ""]);
  function successorMethods(env) {
    return {
      // { ref } when ref is live; { ref: new, from: ref } for the one
      // element that succeeded a stale ref; StaleRef when none or several
      // could (count says how many), UnknownRef for a ref never given out.
      successor(ref) {
        const hit = env.refs.lookup(ref);
        if (!hit) throw bridgeError("UnknownRef", "ref " + ref + " is not known in this document", { ref: String(ref) });
        if (!hit.stale) return { ref };
        const e = hit.entry;
        const stale = () => bridgeError("StaleRef", ref, { ref, role: e.role, name: e.name, tag: e.tag });
        if (NO_SUCCESSOR.has(e.role || "") || !e.name) throw stale();
        const found = evaluateChain(new Evaluator(), parseLocator(roleExpr(e.role, e.name, true))).filter((el) => localName(el) === e.tag);
        if (found.length !== 1) throw stale();
        return { ref: env.refs.assign(found[0], e.role, e.name, e.tag), from: ref };
      }
    };
  }

  // src/waits.js
  var STATES = ["visible", "hidden", "attached", "detached"];
  function watch(onChange) {
    let scheduled = false;
    const poke = () => {
      if (scheduled) return;
      scheduled = true;
      nextFrame().then(() => {
        scheduled = false;
        onChange();
      });
    };
    const mo = new MutationObserver(poke);
    mo.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    const events = ["transitionend", "animationend", "transitioncancel", "animationcancel"];
    for (const e of events) document.addEventListener(e, poke, true);
    window.addEventListener("resize", poke);
    return () => {
      mo.disconnect();
      for (const e of events) document.removeEventListener(e, poke, true);
      window.removeEventListener("resize", poke);
    };
  }
  function targets(env, o) {
    if (o.ref != null) {
      const hit = env.refs.lookup(String(o.ref));
      if (hit === null) throw bridgeError("UnknownRef", "ref " + o.ref + " was never given out in this frame", { ref: o.ref });
      return hit.stale ? [] : [hit.element];
    }
    return new Evaluator().chain(parseLocator(String(o.locator)), document);
  }
  function inState(els, state) {
    if (state === "attached") return els.length > 0;
    if (state === "detached") return els.length === 0;
    const visible = els.length > 0 && isVisible2(els[0]);
    return state === "visible" ? visible : !visible;
  }
  function describe(o) {
    return o.ref != null ? "ref " + o.ref : "locator " + o.locator;
  }
  function waitMethods(env) {
    let changes = null;
    const doc = Math.random().toString(36).slice(2);
    return {
      // Waits until the ref's element or the locator's one match is in
      // state (default visible).  Like Playwright's locator.waitFor it is
      // strict: a locator that matches more than one element raises
      // NotUnique.  Resolves { count } (the matches at the end); rejects
      // with Timeout naming the state still false.
      waitState(opts) {
        const o = opts || {};
        checkKeys(o, ["ref", "locator", "state", "timeout"], "waitState");
        if (o.ref == null === (o.locator == null)) throw badArgument("waitState: give ref or locator");
        const state = o.state == null ? "visible" : String(o.state);
        if (!STATES.includes(state)) throw badArgument("waitState: state is one of " + STATES.join(", "));
        const t = o.timeout == null ? 3e4 : Number(o.timeout);
        const at = Date.now() + t;
        const test = () => {
          const els = targets(env, o);
          if (els.length > 1) {
            throw bridgeError("NotUnique", describe(o) + " matches " + els.length + " elements, and wait_for waits for one (Playwright's strict mode); narrow it or add .first()", { count: els.length });
          }
          return inState(els, state) ? { count: els.length } : null;
        };
        const now = test();
        if (now) return now;
        return new Promise((resolve, reject) => {
          let stop = null;
          let timer = 0;
          const finish2 = (err, value) => {
            stop();
            clearTimeout(timer);
            if (err) reject(err);
            else resolve(value);
          };
          stop = watch(() => {
            try {
              const r = test();
              if (r) finish2(null, r);
            } catch (e) {
              finish2(e);
            }
          });
          timer = setTimeout(() => {
            let r = null;
            try {
              r = test();
            } catch (e) {
              finish2(e);
              return;
            }
            if (r) return finish2(null, r);
            const n = targets(env, o).length;
            const now2 = n === 0 ? "it matches nothing" : isVisible2(targets(env, o)[0]) ? "it is visible" : "it is attached but hidden";
            finish2(bridgeError(
              "Timeout",
              describe(o) + " was not " + state + " within " + t + " ms (" + now2 + ")",
              { timeout_ms: t, state }
            ));
          }, Math.max(0, at - Date.now()));
        });
      },
      // The document's change counter: resolves { seq, doc, changed = true }
      // as soon as a change (see watch) came after seq, or with changed =
      // false at the timeout.  seq -1 only reads the counter (and starts it:
      // the first call in a document arms the watch).  doc names this
      // document: a call whose doc is another one's (the page navigated
      // since) is a change at once.
      changeSince(seq, opts) {
        const o = opts || {};
        checkKeys(o, ["timeout", "doc"], "changeSince");
        if (changes === null) {
          const armed = { seq: 0, waiters: /* @__PURE__ */ new Set() };
          changes = armed;
          watch(() => {
            armed.seq += 1;
            for (const w of armed.waiters) w();
          });
        }
        const c = changes;
        const since = Number(seq);
        if (o.doc != null && o.doc !== doc) return { seq: c.seq, doc, changed: true };
        if (since < 0 || c.seq > since) return { seq: c.seq, doc, changed: since >= 0 };
        const t = o.timeout == null ? 3e4 : Number(o.timeout);
        return new Promise((resolve) => {
          let timer = 0;
          const wake = () => {
            c.waiters.delete(wake);
            clearTimeout(timer);
            resolve({ seq: c.seq, doc, changed: true });
          };
          c.waiters.add(wake);
          timer = setTimeout(() => {
            c.waiters.delete(wake);
            resolve({ seq: c.seq, doc, changed: false });
          }, t);
        });
      }
    };
  }

  // src/loaded.js
  var LOADED_BINDING = "__vdxLoaded";
  function pageInfo() {
    const nav = performance.getEntriesByType("navigation")[0];
    return { url: location.href, title: document.title, status: nav ? nav.responseStatus : void 0 };
  }
  function reportLoaded() {
    let top = false;
    try {
      top = window.top === window;
    } catch (e) {
      top = false;
    }
    if (!top || document.readyState === "complete") return;
    addEventListener("pageshow", () => {
      const send = globalThis[LOADED_BINDING];
      if (typeof send !== "function") return;
      try {
        send(JSON.stringify(pageInfo()));
      } catch (e) {
      }
    }, { once: true });
  }

  // src/warm.js
  var WARM_ELEMENTS = 300;
  var WARM_CHARS = 48e3;
  var FULL = { maxOptions: 10, maxChars: WARM_CHARS, fromLine: 0 };
  var PIECES = [{ maxElements: WARM_ELEMENTS }, FULL, FULL, FULL];
  var LATE_DELAY_MS = 250;
  var EARLY_PIECES = 2;
  var stopped = false;
  function warmUpDone() {
    stopped = true;
  }
  function scheduleWarmUp(makeWalk) {
    if (typeof requestIdleCallback !== "function") return;
    let top = false;
    try {
      top = window.top === window;
    } catch (e) {
      top = false;
    }
    if (!top) return;
    let walk3 = null;
    let pieces = 0;
    const piece = () => {
      if (stopped) return;
      try {
        if (walk3 === null) walk3 = makeWalk();
        walk3(PIECES[pieces]);
      } catch (e) {
        return;
      }
      if (++pieces >= PIECES.length) return;
      if (pieces === EARLY_PIECES) setTimeout(() => requestIdleCallback(piece), LATE_DELAY_MS);
      else requestIdleCallback(piece);
    };
    const start = () => requestIdleCallback(piece, { timeout: 2e3 });
    if (document.readyState !== "loading") start();
    else document.addEventListener("DOMContentLoaded", start, { once: true });
  }

  // src/call.js
  var own = Object.prototype.hasOwnProperty;
  function failure(e) {
    return {
      err: {
        type: e && e.vdxType || "BridgeError",
        message: String(e && e.message || e),
        fields: e && e.vdxFields || null
      }
    };
  }
  function callMethod(get, method3, args, byRef) {
    const answer = (v) => byRef ? "ok" in v ? v.ok : JSON.stringify(v) : v;
    try {
      const inst = get();
      const name = String(method3);
      if (!own.call(inst, name) || typeof inst[name] !== "function") {
        throw bridgeError(
          "UnknownMethod",
          "the bridge has no method " + JSON.stringify(name),
          { method: name }
        );
      }
      const r = inst[name](...Array.isArray(args) ? args : []);
      if (r instanceof Promise) {
        return r.then((v) => answer({ ok: v }), (e) => answer(failure(e)));
      }
      return answer({ ok: r });
    } catch (e) {
      return answer(failure(e));
    }
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
  function create(options2) {
    if (options2 != null) checkKeys(options2, ["prefix"], "create");
    const prefix = options2 && options2.prefix != null ? String(options2.prefix) : "";
    if (!PREFIX_PATTERN.test(prefix)) throw badArgument("create: bad prefix " + JSON.stringify(prefix));
    const refs = new Refs(prefix);
    const frameKeys = /* @__PURE__ */ new WeakMap();
    function resolve(ref) {
      const hit = refs.lookup(ref);
      if (!hit) {
        throw bridgeError(
          "UnknownRef",
          "ref " + ref + " is not known in this document",
          { ref: String(ref) }
        );
      }
      if (hit.stale) {
        const e = hit.entry;
        throw bridgeError("StaleRef", ref, { ref, role: e.role, name: e.name, tag: e.tag });
      }
      return hit.element;
    }
    const env = { refs, frameKeys, resolve, seen: null, building: null };
    const instance2 = {
      version: VERSION,
      prefix,
      // { text, element_count, ref_count, unmeasurable, frames }.
      snapshot(opts) {
        env.building = beginSeen();
        let r;
        try {
          r = snapshot(env, opts);
        } finally {
          dropSeen(env.seen);
          env.seen = env.building;
          env.building = null;
          endSeen(env.seen);
        }
        warmUpDone();
        return r;
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
      // { url, title, status } of this document (page:navigate's answer).
      pageInfo() {
        return pageInfo();
      },
      // Resolves once the tasks the page had queued have run (two turns of
      // its event loop): a hashchange or popstate handler that re-renders
      // has run before the host reads the page again.
      afterTasks() {
        return new Promise((resolve2) => setTimeout(() => setTimeout(() => resolve2(true), 0), 0));
      },
      // How many elements the document holds (a host deciding whether a
      // page is small enough to show whole asks this first: it costs no walk
      // of the accessibility tree).
      elementCount() {
        return docQuerySelectorAll(document, "*").length;
      },
      // The text the body shows (its innerText), '' without a body.
      bodyText() {
        return document.body ? String(document.body.innerText) : "";
      },
      // Sets the items [[key, value], ...] in the localStorage of this
      // document's origin (a role's saved sign-in); the number set.
      setLocalStorage(items) {
        if (!Array.isArray(items)) throw badArgument("setLocalStorage: items must be a list of [key, value]");
        for (const [k, v] of items) localStorage.setItem(String(k), String(v));
        return items.length;
      },
      // The value of the function `source` called with the element of ref and
      // then args (a list of JSON values): the agent-facing evaluate on an
      // element.  It runs in this isolated world, so it sees the DOM but not
      // the page's own script variables.  What it throws (or rejects with)
      // comes back as a JavaScriptError.
      evaluateOn(ref, source, args) {
        if (typeof source !== "string") throw badArgument("evaluateOn: source must be a string");
        const el = resolve(ref);
        const failed = (e) => bridgeError(
          "JavaScriptError",
          String(e && e.name || "Error") + ": " + String(e && e.message || e),
          { ref }
        );
        let fn;
        try {
          fn = (0, eval)("(" + source + "\n)");
        } catch (e) {
          throw failed(e);
        }
        if (typeof fn !== "function") {
          throw badArgument("evaluateOn: give a function of the element, such as (element) => element.textContent");
        }
        let r;
        try {
          r = fn(el, ...Array.isArray(args) ? args : []);
        } catch (e) {
          throw failed(e);
        }
        return r instanceof Promise ? r.catch((e) => {
          throw failed(e);
        }) : r;
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
      },
      // { locator, positional, note, alternatives: [{ locator, kind, count }] }:
      // a Playwright locator verified to match ref's element alone (locgen.js).
      locatorFor(ref, opts) {
        return locatorFor(env, ref, opts);
      },
      // The same for the element that holds the child frame named key, or
      // null.
      frameOwnerLocator(key) {
        return frameOwnerLocator(env, String(key));
      }
    };
    Object.assign(instance2, actionMethods(env));
    Object.assign(instance2, structureMethods(env, instance2.describe));
    Object.assign(instance2, successorMethods(env));
    Object.assign(instance2, waitMethods(env));
    return Object.freeze(instance2);
  }
  function accessibleItem(ctx, refs, el) {
    const role = getRole(el);
    const hidden = isHiddenForAria(ctx, el);
    const name = accessibleName(ctx, el, role, false, true);
    const description = accessibleDescription(ctx, el, name);
    let ref = refs.peek(el);
    if (ref === null && !hidden) {
      const parent = flatParent(el);
      const parentPointer = isElement(parent) && (ctx.flags(parent) & F_POINTER) !== 0;
      const pointer = (ctx.flags(el) & F_POINTER) !== 0 && !parentPointer;
      if (isRefWorthy(el, localName(el), role, pointer) && isActionable(ctx, el)) {
        ref = refs.assign(el, role, name, localName(el));
      }
    }
    return { role: ariaRoleName(el, role), name, description, ref };
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
  function call(prefix, method3, args, byRef) {
    return callMethod(() => instance(prefix), method3, args, byRef);
  }
  if (!Object.getOwnPropertyDescriptor(globalThis, "__vdxBridge")) {
    Object.defineProperty(globalThis, "__vdxBridge", {
      value: Object.freeze({ version: VERSION, create, instance, call }),
      enumerable: false,
      writable: false,
      configurable: false
    });
    reportLoaded();
    scheduleWarmUp(() => {
      const env = {
        refs: new Refs(""),
        frameKeys: /* @__PURE__ */ new WeakMap(),
        resolve(ref) {
          throw bridgeError("UnknownRef", String(ref), { ref: String(ref) });
        }
      };
      return (opts) => snapshot(env, opts);
    });
  }
})();
