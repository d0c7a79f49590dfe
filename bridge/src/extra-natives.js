// extra-natives.js -- DOM functions the structure queries (explore.js,
// selector.js, locator.js, readhtml.js) need beyond natives.js, captured
// once when the bundle is evaluated, for the same reason as there.

const uncurry = Function.prototype.bind.bind(Function.prototype.call);

function getter(proto, key) {
  return uncurry(Object.getOwnPropertyDescriptor(proto, key).get);
}

function method(proto, key) {
  return uncurry(proto[key]);
}

export const firstElementChild = getter(Element.prototype, 'firstElementChild');
export const nextElementSibling = getter(Element.prototype, 'nextElementSibling');
export const fragFirstElementChild = getter(DocumentFragment.prototype, 'firstElementChild');
export const childElementCount = getter(Element.prototype, 'childElementCount');
export const fragChildElementCount = getter(DocumentFragment.prototype, 'childElementCount');
export const outerHTML = getter(Element.prototype, 'outerHTML');
export const docEvaluate = method(Document.prototype, 'evaluate');
export const snapshotLength = getter(XPathResult.prototype, 'snapshotLength');
export const snapshotItem = method(XPathResult.prototype, 'snapshotItem');
export const docBody = getter(Document.prototype, 'body');
export const docHead = getter(Document.prototype, 'head');
export const inputValue = getter(HTMLInputElement.prototype, 'value');
export const selectValue = getter(HTMLSelectElement.prototype, 'value');

// CSS.escape, for identifiers in generated selectors.
const cssEscapeFn = CSS.escape;
export function cssEscape(s) {
  return Reflect.apply(cssEscapeFn, CSS, [s]);
}

// The <label> elements of a labelable element (null for other elements).
const LABELS = new Map();
for (const [tag, Ctor] of [['input', HTMLInputElement], ['button', HTMLButtonElement],
  ['select', HTMLSelectElement], ['textarea', HTMLTextAreaElement], ['meter', HTMLMeterElement],
  ['output', HTMLOutputElement], ['progress', HTMLProgressElement]]) {
  LABELS.set(tag, getter(Ctor.prototype, 'labels'));
}
export function labelsOf(el, tag) {
  const get = LABELS.get(tag);
  return get ? get(el) : null;
}
export const compareDocumentPosition = method(Node.prototype, 'compareDocumentPosition');
