// effects-watch.js -- the page-side half of vdx.effects (lua/vdx/effects.lua),
// a template run in the page's main world by Runtime.evaluate, not part of
// the isolated-world bundle.  The build embeds it beside that bundle and
// vdx.page_script("effects-watch") returns it.
//
// The script (put in place of __VDX_SOURCE__) runs while every way of
// acting that a prototype carries is replaced by a recorder that blocks the
// call, a navigation listener cancels, a MutationObserver's records are
// undone afterwards and a copy of both storages is put back.  The script is
// an argument written outside the watcher's function, so it cannot reach the
// watcher's variables; the answer carries the nonce (in place of
// __VDX_NONCE__), so a script that breaks out of its parentheses cannot
// forge it.  Result: { k: nonce, v: value } or { k: nonce, e: [effect, ...] }
// (the value withheld), or the script's exception.
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
  // Arms window W: its prototypes' acting calls, its requests that write.
  const xhrMethod = new WeakMap();
  const arm = (W) => {
    const methods = [
      [W.HTMLElement && W.HTMLElement.prototype, 'click', 'click()'],
      [W.SVGElement && W.SVGElement.prototype, 'click', 'click()'],
      [W.EventTarget.prototype, 'dispatchEvent', 'dispatchEvent()'],
      [W.HTMLFormElement && W.HTMLFormElement.prototype, 'submit', 'submitting a form'],
      [W.HTMLFormElement && W.HTMLFormElement.prototype, 'requestSubmit', 'submitting a form'],
      [W.HTMLFormElement && W.HTMLFormElement.prototype, 'reset', 'a form reset()'],
      [W.HTMLElement && W.HTMLElement.prototype, 'focus', 'moving focus or selection'],
      [W.HTMLElement && W.HTMLElement.prototype, 'blur', 'moving focus or selection'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'select', 'moving focus or selection'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'setRangeText', 'moving focus or selection'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'setSelectionRange', 'moving focus or selection'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'showPicker', 'moving focus or selection'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'stepUp', 'a form value assignment'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'stepDown', 'a form value assignment'],
      [W.HTMLTextAreaElement && W.HTMLTextAreaElement.prototype, 'select', 'moving focus or selection'],
      [W.HTMLTextAreaElement && W.HTMLTextAreaElement.prototype, 'setRangeText', 'moving focus or selection'],
      [W.HTMLDialogElement && W.HTMLDialogElement.prototype, 'showModal', 'opening a dialog'],
      [W.Element && W.Element.prototype, 'requestFullscreen', 'requestFullscreen()'],
      [W.Element && W.Element.prototype, 'scrollIntoView', 'scrolling the page'],
      [W, 'scrollTo', 'scrolling the page'], [W, 'scrollBy', 'scrolling the page'], [W, 'scroll', 'scrolling the page'],
      [W, 'open', 'window.open()'], [W, 'close', 'window.close()'],
      [W, 'alert', 'opening a dialog'], [W, 'confirm', 'opening a dialog'], [W, 'prompt', 'opening a dialog'],
      [W, 'print', 'opening a dialog'],
      [W.Document.prototype, 'write', 'document.write()'], [W.Document.prototype, 'writeln', 'document.write()'],
      [W.Document.prototype, 'open', 'document.write()'], [W.Document.prototype, 'execCommand', 'execCommand()'],
      [W.History.prototype, 'pushState', 'a history change'], [W.History.prototype, 'replaceState', 'a history change'],
      [W.History.prototype, 'back', 'navigation (history)'], [W.History.prototype, 'forward', 'navigation (history)'],
      [W.History.prototype, 'go', 'navigation (history)'],
      [W.Navigation && W.Navigation.prototype, 'navigate', 'navigation'],
      [W.Navigation && W.Navigation.prototype, 'reload', 'navigation'],
      [W.Navigation && W.Navigation.prototype, 'back', 'navigation (history)'],
      [W.Navigation && W.Navigation.prototype, 'forward', 'navigation (history)'],
      [W.Navigation && W.Navigation.prototype, 'traverseTo', 'navigation (history)'],
      [W.Storage.prototype, 'setItem', 'writing storage'], [W.Storage.prototype, 'removeItem', 'writing storage'],
      [W.Storage.prototype, 'clear', 'writing storage'],
      [W.CookieStore && W.CookieStore.prototype, 'set', 'writing cookies'],
      [W.CookieStore && W.CookieStore.prototype, 'delete', 'writing cookies'],
      [W.Navigator.prototype, 'sendBeacon', 'a request that writes (sendBeacon)'],
      [W, 'setInterval', 'scheduling a repeating timer (setInterval)'],
      [W, 'postMessage', 'posting a message to the page'],
    ];
    const setters = [
      [W.Document.prototype, 'cookie', 'writing cookies'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'value', 'a form value assignment'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'valueAsNumber', 'a form value assignment'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'valueAsDate', 'a form value assignment'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'checked', 'a form value assignment'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'indeterminate', 'a form value assignment'],
      [W.HTMLInputElement && W.HTMLInputElement.prototype, 'files', 'a form value assignment'],
      [W.HTMLTextAreaElement && W.HTMLTextAreaElement.prototype, 'value', 'a form value assignment'],
      [W.HTMLSelectElement && W.HTMLSelectElement.prototype, 'value', 'a form value assignment'],
      [W.HTMLSelectElement && W.HTMLSelectElement.prototype, 'selectedIndex', 'a form value assignment'],
      [W.HTMLOptionElement && W.HTMLOptionElement.prototype, 'selected', 'a form value assignment'],
      [W.Document.prototype, 'title', 'changing the DOM'],
      [W.Element && W.Element.prototype, 'scrollTop', 'scrolling the page'],
      [W.Element && W.Element.prototype, 'scrollLeft', 'scrolling the page'],
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
    const oOpen = W.XMLHttpRequest.prototype.open, oSend = W.XMLHttpRequest.prototype.send;
    hook(W.XMLHttpRequest.prototype, 'open', '', 'value', function (m) { xhrMethod.set(this, m); return apply(oOpen, this, arguments); });
    hook(W.XMLHttpRequest.prototype, 'send', '', 'value', function () {
      const m = writes(xhrMethod.get(this));
      if (m) { note('a network request that writes (' + m + ')'); return; }
      return apply(oSend, this, arguments);
    });
  };
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
  // Navigations the page starts (location, links, forms) are cancelled, in
  // every same-origin frame too, whose prototypes are armed as well (a
  // frame's pristine click() would otherwise reach the page).
  const onNav = (e) => { note('navigation'); if (e.cancelable) e.preventDefault(); };
  const wins = [];
  const walk = (w) => {
    wins[wins.length] = w;
    for (let i = 0; i < w.frames.length; i++) {
      try { const f = w.frames[i]; if (f.document) walk(f); } catch (_) { /* cross-origin */ }
    }
  };
  walk(W);
  for (const w of wins) {
    arm(w);
    if (w.navigation) apply(addListener, w.navigation, ['navigate', onNav]);
  }
  // Storage: a copy of both, compared and put back afterwards.
  const copy = (s) => { const o = {}; const n = apply(slen, s, []); for (let i = 0; i < n; i++) { const k = apply(sk, s, [i]); o[k] = apply(sg, s, [k]); } return o; };
  const cookieGet = gopd(Document.prototype, 'cookie').get;
  // An opaque document (about:blank, sandboxed) has no cookies to read.
  const readCookies = () => { try { return apply(cookieGet, document, []); } catch (_) { return null; } };
  const cookies = readCookies();
  const stores = [];
  for (const name of ['localStorage', 'sessionStorage']) {
    try { const s = W[name]; if (s) stores[stores.length] = [s, copy(s)]; } catch (_) { /* opaque origin */ }
  }
  // Records are delivered to the callback at each microtask checkpoint
  // (the awaits below): both those and the rest are kept.
  const recs = [];
  const keep = (list) => { for (let i = 0; i < list.length; i++) recs[recs.length] = list[i]; };
  const mo = new MutationObserver(keep);
  for (const w of wins) {
    mo.observe(w.document, { subtree: true, childList: true, attributes: true, characterData: true,
      attributeOldValue: true, characterDataOldValue: true });
  }
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
  for (const w of wins) if (w.navigation) apply(removeListener, w.navigation, ['navigate', onNav]);
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
  if (readCookies() !== cookies) note('writing cookies');
  if (E.length) return { k: '__VDX_NONCE__', e: E };
  if ('thrown' in out) throw out.thrown;
  return { k: '__VDX_NONCE__', v: out.v === undefined ? null : out.v };
})())(() => (__VDX_SOURCE__
))
