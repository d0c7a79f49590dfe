// natives.js -- the DOM functions the bridge relies on, captured once when
// the bundle is evaluated.
//
// The bridge runs in an isolated world, so page scripts cannot reach these
// prototypes.  Markup still can: a <form> exposes its controls and images
// as properties named after their name or id, over the built-in ones
// ([LegacyOverrideBuiltIns]), and that reaches every world.  With
// <input name="nextSibling"> inside it, form.nextSibling is that input.  A
// captured getter or method reads the real value whatever the receiver, so
// code that may meet a form goes through these.  The hot loops (the
// snapshot walk, name from content) read other nodes directly, which is
// cheaper, and check for a form first (elementTag in dom.js).  Every export
// is a plain function taking the receiver first.

const uncurry = Function.prototype.bind.bind(Function.prototype.call);

function getter(proto, key) {
  const d = Object.getOwnPropertyDescriptor(proto, key);
  return uncurry(d.get);
}

function method(proto, key) {
  return uncurry(proto[key]);
}

// Node.
export const nodeType = getter(Node.prototype, 'nodeType');
export const parentNode = getter(Node.prototype, 'parentNode');
export const firstChild = getter(Node.prototype, 'firstChild');
export const nextSibling = getter(Node.prototype, 'nextSibling');
export const isConnected = getter(Node.prototype, 'isConnected');
export const ownerDocument = getter(Node.prototype, 'ownerDocument');
export const nodeData = getter(CharacterData.prototype, 'data');
export const textContent = getter(Node.prototype, 'textContent');
export const getRootNode = method(Node.prototype, 'getRootNode');
export const contains = method(Node.prototype, 'contains');

// Element.
export const localName = getter(Element.prototype, 'localName');
export const namespaceURI = getter(Element.prototype, 'namespaceURI');
export const getAttribute = method(Element.prototype, 'getAttribute');
export const hasAttribute = method(Element.prototype, 'hasAttribute');
export const getAttributeNames = method(Element.prototype, 'getAttributeNames');
export const hasAttributes = method(Element.prototype, 'hasAttributes');
export const querySelectorAll = method(Element.prototype, 'querySelectorAll');
export const docQuerySelectorAll = method(Document.prototype, 'querySelectorAll');
export const docGetElementsByTagName = method(Document.prototype, 'getElementsByTagName');
export const docCreateTreeWalker = method(Document.prototype, 'createTreeWalker');
export const treeWalkerNextNode = method(TreeWalker.prototype, 'nextNode');
export const collectionLength = getter(HTMLCollection.prototype, 'length');
export const fragQuerySelectorAll = method(DocumentFragment.prototype, 'querySelectorAll');
export const matches = method(Element.prototype, 'matches');
export const shadowRoot = getter(Element.prototype, 'shadowRoot');
export const assignedSlot = getter(Element.prototype, 'assignedSlot');
export const textAssignedSlot = getter(Text.prototype, 'assignedSlot');
export const getBoundingClientRect = method(Element.prototype, 'getBoundingClientRect');
export const checkVisibility = method(Element.prototype, 'checkVisibility');
export const shadowHost = getter(ShadowRoot.prototype, 'host');
export const assignedNodes = method(HTMLSlotElement.prototype, 'assignedNodes');

// Documents and shadow roots.
export const docGetElementById = method(Document.prototype, 'getElementById');
export const fragGetElementById = method(DocumentFragment.prototype, 'getElementById');
export const docActiveElement = getter(Document.prototype, 'activeElement');
export const shadowActiveElement = getter(ShadowRoot.prototype, 'activeElement');
export const documentElement = getter(Document.prototype, 'documentElement');
export const docContentType = getter(Document.prototype, 'contentType');
export const docFonts = getter(Document.prototype, 'fonts');
export const firstElementChild = getter(DocumentFragment.prototype, 'firstElementChild');
export const docFullscreenElement = getter(Document.prototype, 'fullscreenElement');
export const fontSetSize = getter(FontFaceSet.prototype, 'size');

// Style.
const winGetComputedStyle = uncurry(window.getComputedStyle);
export function computedStyle(el, pseudo) {
  return pseudo === undefined
    ? winGetComputedStyle(window, el)
    : winGetComputedStyle(window, el, pseudo);
}
export const styleValue = method(CSSStyleDeclaration.prototype, 'getPropertyValue');

// Form controls.
export const inputValue = getter(HTMLInputElement.prototype, 'value');
export const inputType = getter(HTMLInputElement.prototype, 'type');
export const inputChecked = getter(HTMLInputElement.prototype, 'checked');
export const inputIndeterminate = getter(HTMLInputElement.prototype, 'indeterminate');
export const inputList = getter(HTMLInputElement.prototype, 'list');
export const textareaValue = getter(HTMLTextAreaElement.prototype, 'value');
export const selectOptions = getter(HTMLSelectElement.prototype, 'options');
export const selectSelectedOptions = getter(HTMLSelectElement.prototype, 'selectedOptions');
export const selectMultiple = getter(HTMLSelectElement.prototype, 'multiple');
export const selectSize = getter(HTMLSelectElement.prototype, 'size');
export const optionSelected = getter(HTMLOptionElement.prototype, 'selected');
export const optionText = getter(HTMLOptionElement.prototype, 'text');
export const optionLabel = getter(HTMLOptionElement.prototype, 'label');
export const detailsOpen = getter(HTMLDetailsElement.prototype, 'open');
export const elementTabIndex = getter(HTMLElement.prototype, 'tabIndex');
export const labelControl = getter(HTMLLabelElement.prototype, 'control');
export const isContentEditable = getter(HTMLElement.prototype, 'isContentEditable');

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const DOCUMENT_NODE = 9;
export const DOCUMENT_FRAGMENT_NODE = 11;
export const HTML_NS = 'http://www.w3.org/1999/xhtml';
export const SVG_NS = 'http://www.w3.org/2000/svg';
