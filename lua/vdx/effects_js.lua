--- vdx.effects_js: the page-side half of vdx.effects, as a template.  The
-- script (the text at SOURCE) runs while every way of acting that a
-- prototype carries is replaced by a recorder that blocks the call, a
-- navigation listener cancels, a MutationObserver's records are undone
-- afterwards and a copy of both storages is put back.  The script is an
-- argument written outside the watcher's function, so it cannot reach the
-- watcher's variables; the answer carries NONCE, so a script that breaks
-- out of its parentheses cannot forge it.  Result: { k = NONCE, v = value }
-- or { k = NONCE, e = { effect, … } } (the value withheld), or the
-- script's exception.
return [==[
((F) => (async () => {
  const E = [], U = [], P = { n: 0, ids: {} };
  const apply = Reflect.apply, gopd = Object.getOwnPropertyDescriptor, dp = Object.defineProperty;
  const oTimeout = window.setTimeout, oClear = window.clearTimeout, oRaf = window.requestAnimationFrame;
  const oCancelRaf = window.cancelAnimationFrame;
  const sk = Storage.prototype.key, sg = Storage.prototype.getItem, ss = Storage.prototype.setItem,
    sc = Storage.prototype.clear, slen = gopd(Storage.prototype, 'length').get;
  const take = MutationObserver.prototype.takeRecords, disconnect = MutationObserver.prototype.disconnect;
  const insertBefore = Node.prototype.insertBefore, removeChild = Node.prototype.removeChild,
    setAttrNS = Element.prototype.setAttributeNS, removeAttrNS = Element.prototype.removeAttributeNS,
    dataSet = gopd(CharacterData.prototype, 'data').set, parentOf = gopd(Node.prototype, 'parentNode').get;
  const addListener = EventTarget.prototype.addEventListener, removeListener = EventTarget.prototype.removeEventListener;
  const note = (w) => { for (let i = 0; i < E.length; i++) if (E[i] === w) return; E[E.length] = w; };
  const hook = (obj, name, what, kind, fn) => {
    if (!obj) return;
    const d = gopd(obj, name);
    if (!d || !d.configurable) return;
    const nd = { configurable: true, enumerable: d.enumerable };
    if (kind === 'set') { nd.get = d.get; nd.set = function () { note(what); }; }
    else { nd.writable = true; nd.value = fn || function () { note(what); }; }
    dp(obj, name, nd);
    U[U.length] = () => dp(obj, name, d);
  };
  const W = window;
  const methods = [
    [W.HTMLElement && HTMLElement.prototype, 'click', 'click()'],
    [W.SVGElement && SVGElement.prototype, 'click', 'click()'],
    [EventTarget.prototype, 'dispatchEvent', 'dispatchEvent()'],
    [W.HTMLFormElement && HTMLFormElement.prototype, 'submit', 'submitting a form'],
    [W.HTMLFormElement && HTMLFormElement.prototype, 'requestSubmit', 'submitting a form'],
    [W.HTMLFormElement && HTMLFormElement.prototype, 'reset', 'a form reset()'],
    [W.HTMLElement && HTMLElement.prototype, 'focus', 'moving focus or selection'],
    [W.HTMLElement && HTMLElement.prototype, 'blur', 'moving focus or selection'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'select', 'moving focus or selection'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'setRangeText', 'moving focus or selection'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'setSelectionRange', 'moving focus or selection'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'showPicker', 'moving focus or selection'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'stepUp', 'a form value assignment'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'stepDown', 'a form value assignment'],
    [W.HTMLTextAreaElement && HTMLTextAreaElement.prototype, 'select', 'moving focus or selection'],
    [W.HTMLTextAreaElement && HTMLTextAreaElement.prototype, 'setRangeText', 'moving focus or selection'],
    [W.HTMLDialogElement && HTMLDialogElement.prototype, 'showModal', 'opening a dialog'],
    [W.Element && Element.prototype, 'requestFullscreen', 'requestFullscreen()'],
    [W.Element && Element.prototype, 'scrollIntoView', 'scrolling the page'],
    [W, 'scrollTo', 'scrolling the page'], [W, 'scrollBy', 'scrolling the page'], [W, 'scroll', 'scrolling the page'],
    [W, 'open', 'window.open()'], [W, 'close', 'window.close()'],
    [W, 'alert', 'opening a dialog'], [W, 'confirm', 'opening a dialog'], [W, 'prompt', 'opening a dialog'],
    [W, 'print', 'opening a dialog'],
    [Document.prototype, 'write', 'document.write()'], [Document.prototype, 'writeln', 'document.write()'],
    [Document.prototype, 'open', 'document.write()'], [Document.prototype, 'execCommand', 'execCommand()'],
    [History.prototype, 'pushState', 'a history change'], [History.prototype, 'replaceState', 'a history change'],
    [History.prototype, 'back', 'navigation (history)'], [History.prototype, 'forward', 'navigation (history)'],
    [History.prototype, 'go', 'navigation (history)'],
    [W.Navigation && Navigation.prototype, 'navigate', 'navigation'],
    [W.Navigation && Navigation.prototype, 'reload', 'navigation'],
    [W.Navigation && Navigation.prototype, 'back', 'navigation (history)'],
    [W.Navigation && Navigation.prototype, 'forward', 'navigation (history)'],
    [W.Navigation && Navigation.prototype, 'traverseTo', 'navigation (history)'],
    [Storage.prototype, 'setItem', 'writing storage'], [Storage.prototype, 'removeItem', 'writing storage'],
    [Storage.prototype, 'clear', 'writing storage'],
    [W.CookieStore && CookieStore.prototype, 'set', 'writing cookies'],
    [W.CookieStore && CookieStore.prototype, 'delete', 'writing cookies'],
    [Navigator.prototype, 'sendBeacon', 'a request that writes (sendBeacon)'],
    [W, 'setInterval', 'scheduling a repeating timer (setInterval)'],
    [W, 'postMessage', 'posting a message to the page'],
  ];
  const setters = [
    [Document.prototype, 'cookie', 'writing cookies'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'value', 'a form value assignment'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'valueAsNumber', 'a form value assignment'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'valueAsDate', 'a form value assignment'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'checked', 'a form value assignment'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'indeterminate', 'a form value assignment'],
    [W.HTMLInputElement && HTMLInputElement.prototype, 'files', 'a form value assignment'],
    [W.HTMLTextAreaElement && HTMLTextAreaElement.prototype, 'value', 'a form value assignment'],
    [W.HTMLSelectElement && HTMLSelectElement.prototype, 'value', 'a form value assignment'],
    [W.HTMLSelectElement && HTMLSelectElement.prototype, 'selectedIndex', 'a form value assignment'],
    [W.HTMLOptionElement && HTMLOptionElement.prototype, 'selected', 'a form value assignment'],
    [Document.prototype, 'title', 'changing the DOM'],
    [W.Element && Element.prototype, 'scrollTop', 'scrolling the page'],
    [W.Element && Element.prototype, 'scrollLeft', 'scrolling the page'],
  ];
  for (const m of methods) hook(m[0], m[1], m[2]);
  for (const s of setters) hook(s[0], s[1], s[2], 'set');
  // Requests that write are blocked; reads (GET, HEAD) go through.
  const writes = (m) => { m = String(m || 'GET').toUpperCase(); return m !== 'GET' && m !== 'HEAD' ? m : null; };
  const oFetch = W.fetch;
  hook(W, 'fetch', '', 'value', function (input, init) {
    const m = writes((init && init.method) || (input && input.method));
    if (m) { note('a network request that writes (' + m + ')'); return Promise.reject(new TypeError('blocked')); }
    return apply(oFetch, this, arguments);
  });
  const xhrMethod = new WeakMap(), oOpen = XMLHttpRequest.prototype.open, oSend = XMLHttpRequest.prototype.send;
  hook(XMLHttpRequest.prototype, 'open', '', 'value', function (m) { xhrMethod.set(this, m); return apply(oOpen, this, arguments); });
  hook(XMLHttpRequest.prototype, 'send', '', 'value', function () {
    const m = writes(xhrMethod.get(this));
    if (m) { note('a network request that writes (' + m + ')'); return; }
    return apply(oSend, this, arguments);
  });
  // Timers: code strings are refused; callbacks run while the watch is on.
  const later = (orig, kind) => function (fn, ...rest) {
    if (typeof fn !== 'function') { note('a timer that runs a string of code'); return 0; }
    P.n++;
    const id = apply(orig, W, [function () { if (P.ids[id]) { delete P.ids[id]; P.n--; } return apply(fn, this, arguments); }, ...rest]);
    P.ids[id] = kind;
    return id;
  };
  hook(W, 'setTimeout', '', 'value', later(oTimeout, 't'));
  if (oRaf) hook(W, 'requestAnimationFrame', '', 'value', later(oRaf, 'r'));
  const forget = (orig) => function (id) { if (P.ids[id]) { delete P.ids[id]; P.n--; } return apply(orig, W, arguments); };
  hook(W, 'clearTimeout', '', 'value', forget(oClear));
  if (oCancelRaf) hook(W, 'cancelAnimationFrame', '', 'value', forget(oCancelRaf));
  // Navigations the page starts (location, links, forms) are cancelled.
  const onNav = (e) => { note('navigation'); if (e.cancelable) e.preventDefault(); };
  if (W.navigation) apply(addListener, W.navigation, ['navigate', onNav]);
  // Storage: a copy of both, compared and put back afterwards.
  const copy = (s) => { const o = {}; const n = apply(slen, s, []); for (let i = 0; i < n; i++) { const k = apply(sk, s, [i]); o[k] = apply(sg, s, [k]); } return o; };
  const stores = [];
  for (const name of ['localStorage', 'sessionStorage']) {
    try { const s = W[name]; if (s) stores[stores.length] = [s, copy(s)]; } catch (_) { /* opaque origin */ }
  }
  // Records are delivered to the callback at each microtask checkpoint
  // (the awaits below): both those and the rest are kept.
  const recs = [];
  const keep = (list) => { for (let i = 0; i < list.length; i++) recs[recs.length] = list[i]; };
  const mo = new MutationObserver(keep);
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true,
    attributeOldValue: true, characterDataOldValue: true });
  let out;
  try {
    const f = F();
    out = { v: await (typeof f === 'function' ? f() : f) };
    for (let i = 0; i < 20; i++) await null;
    for (let i = 0; i < 500 && P.n > 0; i++) await new Promise((r) => apply(oTimeout, W, [r, 10]));
  } catch (e) {
    out = { thrown: e };
  }
  keep(apply(take, mo, []));
  apply(disconnect, mo, []);
  if (W.navigation) apply(removeListener, W.navigation, ['navigate', onNav]);
  for (let i = U.length - 1; i >= 0; i--) U[i]();
  for (const id in P.ids) { note('scheduling a timer that did not finish'); apply(P.ids[id] === 'r' ? oCancelRaf : oClear, W, [Number(id)]); }
  if (recs.length) note('changing the DOM');
  for (let i = recs.length - 1; i >= 0; i--) {
    const r = recs[i];
    try {
      if (r.type === 'attributes') {
        if (r.oldValue === null) apply(removeAttrNS, r.target, [r.attributeNamespace, r.attributeName]);
        else apply(setAttrNS, r.target, [r.attributeNamespace, r.attributeName, r.oldValue]);
      } else if (r.type === 'characterData') {
        apply(dataSet, r.target, [r.oldValue]);
      } else {
        for (let j = r.addedNodes.length - 1; j >= 0; j--) {
          const n = r.addedNodes[j];
          if (apply(parentOf, n, []) === r.target) apply(removeChild, r.target, [n]);
        }
        const next = r.nextSibling && apply(parentOf, r.nextSibling, []) === r.target ? r.nextSibling : null;
        for (let j = 0; j < r.removedNodes.length; j++) apply(insertBefore, r.target, [r.removedNodes[j], next]);
      }
    } catch (_) { /* a node moved on: undo what can be undone */ }
  }
  for (const [s, before] of stores) {
    const now = copy(s);
    let same = true;
    for (const k in before) if (now[k] !== before[k]) same = false;
    for (const k in now) if (!(k in before)) same = false;
    if (!same) { note('writing storage'); apply(sc, s, []); for (const k in before) apply(ss, s, [k, before[k]]); }
  }
  if (E.length) return { k: 'NONCE', e: E };
  if ('thrown' in out) throw out.thrown;
  return { k: 'NONCE', v: out.v === undefined ? null : out.v };
})())(() => (SOURCE
))
]==]
