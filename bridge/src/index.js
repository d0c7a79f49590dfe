// index.js -- the bridge entry point.  Defines globalThis.__vdxBridge, a
// frozen { version, create(options), instance(prefix), call(prefix, method,
// args, byRef) }, and nothing else; call is the host's envelope (call.js).
// Evaluating the bundle again leaves the first definition in place.
//
// create({ prefix }) returns a frozen instance for this frame's document.
// Every method returns plain JSON-able values except element(), which
// returns the DOM element for the host to hold by object id.

import * as N from './natives.js';
import { attr, flatParent, isElement } from './dom.js';
import { accessibleRole, ariaRoleName, getRole } from './roles.js';
import { accessibleDescription, accessibleName } from './name.js';
import { Refs } from './refs.js';
import { isRefWorthy } from './refworthy.js';
import { snapshot } from './snapshot.js';
import { badArgument, bridgeError, checkKeys } from './errors.js';
import { Ctx, F_POINTER, isActionable, isHiddenForAria } from './visibility.js';
import { actionMethods } from './actions.js';
import { arrivalMethods } from './arrival.js';
import { structureMethods } from './structure.js';
import { alikeNow, successorMethods, staleMessage } from './successor.js';
import { waitMethods } from './waits.js';
import { pageInfo, reportLoaded } from './loaded.js';
import { beginSeen, dropSeen, endSeen } from './still.js';
import { keepReading } from './batch.js';
import { scheduleWarmUp, warmUpDone } from './warm.js';
import { callMethod } from './call.js';
import { locatorFor } from './locgen.js';
import { anchoredLocator, frameOwnerLocator } from './locanchor.js';

/* global __VDX_VERSION__ */
const VERSION = typeof __VDX_VERSION__ === 'string' ? __VDX_VERSION__ : '0.0.0';
const MAX_ATTRIBUTES = 40;
const MAX_ATTRIBUTE_LENGTH = 200;
const PREFIX_PATTERN = /^(?:f[1-9][0-9]*)?$/;

// True when v is a DOM element of this world (anything else, including
// objects that throw on inspection, is not).
function isElementValue(v) {
  if (v == null || typeof v !== 'object') return false;
  try {
    return isElement(v);
  } catch (e) {
    return false;
  }
}

function checkElement(v, what) {
  if (!isElementValue(v)) throw badArgument(what + ': expected an element');
  return v;
}

function boundedAttributes(el) {
  const out = {};
  const names = N.getAttributeNames(el);
  const n = Math.min(names.length, MAX_ATTRIBUTES);
  for (let i = 0; i < n; i++) {
    let v = attr(el, names[i]) || '';
    if (v.length > MAX_ATTRIBUTE_LENGTH) v = v.slice(0, MAX_ATTRIBUTE_LENGTH) + '\u2026';
    out[names[i]] = v;
  }
  return out;
}

// Creates the bridge instance of one frame.  options.prefix is the ref
// prefix: "" in the main frame, "f1", "f2", ... in child frames.
function create(options) {
  if (options != null) checkKeys(options, ['prefix'], 'create');
  const prefix = options && options.prefix != null ? String(options.prefix) : '';
  if (!PREFIX_PATTERN.test(prefix)) throw badArgument('create: bad prefix ' + JSON.stringify(prefix));
  const refs = new Refs(prefix);
  const frameKeys = new WeakMap();

  // The element of a live ref; throws UnknownRef/StaleRef otherwise.
  function resolve(ref) {
    const hit = refs.lookup(ref);
    if (!hit) {
      throw bridgeError('UnknownRef', 'ref ' + ref + ' is not known in this document',
        { ref: String(ref) });
    }
    if (hit.stale) {
      const e = hit.entry;
      // How many alike are there now: with one, the host may act on it
      // (its successor); with several, the message says why none is taken.
      let alike = 0;
      try {
        alike = alikeNow(e).length;
      } catch (err) {
        alike = 0;
      }
      throw bridgeError('StaleRef', staleMessage(ref, e, alike),
        { ref, role: e.role, name: e.name, tag: e.tag, count: alike });
    }
    return hit.element;
  }

  // seen: the boxes of the latest snapshot (see still.js); building: the
  // record the running snapshot fills.
  const env = { refs, frameKeys, resolve, seen: null, building: null, reading: null, arrival: arrivalMethods() };

  const instance = {
    version: VERSION,
    prefix,

    // { text, element_count, ref_count, unmeasurable, frames }.
    snapshot(opts) {
      env.building = beginSeen();
      env.reading = null;
      let r;
      try {
        r = snapshot(env, opts);
      } finally {
        dropSeen(env.seen);
        env.seen = env.building;
        env.building = null;
        endSeen(env.seen);
      }
      // The walks are done: later box reads are no snapshot's (still.js),
      // and later style reads are no walk's.
      env.reading.rects = null;
      env.reading.fresh = false;
      keepReading(env.reading);
      warmUpDone();
      return r;
    },

    // Remembers the host's key for a frame owner.  Takes (element, key), or
    // the element as `this` and (key).
    tagFrame(a, b) {
      let el;
      let key;
      if (isElementValue(a)) { el = a; key = b; } else { el = checkElement(this, 'tagFrame'); key = a; }
      const tag = N.localName(el);
      if (tag !== 'iframe' && tag !== 'frame') throw badArgument('tagFrame: expected an iframe element');
      frameKeys.set(el, String(key));
      return true;
    },

    // { ref, role, name, tag, attributes, validation } for a live ref, else
    // an error object with what was last known.  validation: the message
    // the browser shows for a form control whose constraints fail ("Please
    // fill out this field."), absent for a valid one.
    describe(ref) {
      const hit = refs.lookup(ref);
      if (!hit) return { error: 'UnknownRef', ref: String(ref) };
      const e = hit.entry;
      if (hit.stale) return { error: 'StaleRef', ref, role: e.role, name: e.name, tag: e.tag };
      const el = hit.element;
      const role = getRole(el);
      const name = accessibleName(new Ctx(), el, role, false);
      const out = { ref, role, name, tag: N.localName(el), attributes: boundedAttributes(el) };
      // (A form's named controls shadow its properties: only controls are
      // asked, and only for a string.)
      if (N.localName(el) !== 'form' && el.willValidate === true) {
        const msg = el.validationMessage;
        if (typeof msg === 'string' && msg !== '') out.validation = msg;
      }
      return out;
    },

    element(ref) {
      return resolve(ref);
    },

    // The first match of the regular expression source in text, or null
    // (a value browser_remember keeps, read as the test's RegExp reads it).
    firstMatch(text, source) {
      let re;
      try {
        re = new RegExp(String(source));
      } catch (e) {
        throw badArgument('firstMatch: ' + String(e && e.message));
      }
      const m = re.exec(String(text));
      return m ? m[0] : null;
    },

    // { url, title, status } of this document (page:navigate's answer).
    pageInfo() {
      return pageInfo();
    },

    // This document's readyState: "loading", "interactive" or "complete"
    // (its load event has fired; the flake gate waits for a frame's).
    readyState() {
      return document.readyState;
    },

    // True when this document is hidden: its window is minimized or its
    // tab is in the background (Action:input names it).
    isHidden() {
      return document.visibilityState === 'hidden';
    },

    // Resolves once the tasks the page had queued have run (two turns of
    // its event loop): a hashchange or popstate handler that re-renders
    // has run before the host reads the page again.
    afterTasks() {
      return new Promise((resolve) => setTimeout(() => setTimeout(() => resolve(true), 0), 0));
    },

    // Resolves once the page shows a new view (want: { width, height,
    // media: [queries] }, each optional: the viewport's size, media queries
    // that now match) and has rendered it, so the media query listeners and
    // resize handlers the change fired have run: { holds, width, height,
    // viewport_meta }, holds false after a second without it, width and
    // height the layout's (a phone lays a page with no viewport meta tag
    // out 980 pixels wide, its screen's size then), viewport_meta whether
    // the document has such a tag.  The browser applies an emulation a frame
    // or two after it answered.
    afterView(want) {
      const w = want || {};
      const size = (n, inner, screen) => !n || inner === n || screen === n;
      const holds = () => size(w.width, window.innerWidth, window.screen.width) &&
        size(w.height, window.innerHeight, window.screen.height) &&
        (w.media || []).every((q) => window.matchMedia(q).matches);
      const t0 = Date.now();
      return new Promise((resolve) => {
        const rendered = () => {
          let done = false;
          const end = () => {
            if (done) return;
            done = true;
            setTimeout(() => resolve({ holds: holds(), width: window.innerWidth, height: window.innerHeight,
              viewport_meta: N.docQuerySelectorAll(document, 'meta[name="viewport" i]').length > 0 }), 0);
          };
          // Two frames: Chromium reports a media query's change in the
          // update after the one that first matches it.
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(end, 0)));
          setTimeout(end, 150);
        };
        const poll = () => (holds() || Date.now() - t0 > 1000 ? rendered() : setTimeout(poll, 10));
        poll();
      });
    },

    // How many elements the document holds (a host deciding whether a
    // page is small enough to show whole asks this first: it costs no walk
    // of the accessibility tree).
    elementCount() {
      return N.docQuerySelectorAll(document, '*').length;
    },

    // The text the body shows (its innerText), '' without a body.
    bodyText() {
      return document.body ? String(document.body.innerText) : '';
    },

    // Sets the items [[key, value], ...] in the localStorage of this
    // document's origin (a role's saved sign-in); the number set.
    setLocalStorage(items) {
      if (!Array.isArray(items)) throw badArgument('setLocalStorage: items must be a list of [key, value]');
      for (const [k, v] of items) localStorage.setItem(String(k), String(v));
      return items.length;
    },

    // The value of the function `source` called with the element of ref and
    // then args (a list of JSON values): the agent-facing evaluate on an
    // element.  It runs in this isolated world, so it sees the DOM but not
    // the page's own script variables.  What it throws (or rejects with)
    // comes back as a JavaScriptError.
    evaluateOn(ref, source, args) {
      if (typeof source !== 'string') throw badArgument('evaluateOn: source must be a string');
      const el = resolve(ref);
      const failed = (e) => bridgeError('JavaScriptError',
        String((e && e.name) || 'Error') + ': ' + String((e && e.message) || e), { ref });
      let fn;
      try {
        fn = (0, eval)('(' + source + '\n)');
      } catch (e) {
        throw failed(e);
      }
      if (typeof fn !== 'function') {
        throw badArgument('evaluateOn: give a function of the element, such as (element) => element.textContent');
      }
      let r;
      try {
        r = fn(el, ...(Array.isArray(args) ? args : []));
      } catch (e) {
        throw failed(e);
      }
      return r instanceof Promise ? r.catch((e) => { throw failed(e); }) : r;
    },

    // The role, name, description and ref of up to `limit` elements
    // matching css: { items, total }.
    accessible(css, limit) {
      if (typeof css !== 'string') throw badArgument('accessible: selector must be a string');
      const max = limit == null ? 200 : Math.max(0, limit | 0);
      let list;
      try {
        list = N.docQuerySelectorAll(document, css);
      } catch (e) {
        throw bridgeError('InvalidSelector', css, { selector: css });
      }
      const ctx = new Ctx();
      const items = [];
      const n = Math.min(list.length, max);
      for (let i = 0; i < n; i++) items.push(accessibleItem(ctx, refs, list[i]));
      return { items, total: list.length };
    },

    role(el) {
      return accessibleRole(checkElement(el, 'role'));
    },

    name(el) {
      checkElement(el, 'name');
      return accessibleName(new Ctx(), el, accessibleRole(el), false);
    },

    // { locator, positional, note, alternatives: [{ locator, kind, count }] }:
    // a Playwright locator verified to match ref's element alone (locgen.js).
    locatorFor(ref, opts) {
      return locatorFor(env, ref, opts);
    },

    // expr (a locator of one element) scoped to the card or row around it
    // that shows opts.anchor (the test's run token), or null (locgen.js).
    anchoredLocator(expr, opts) {
      return anchoredLocator(String(expr), opts);
    },

    // The same for the element that holds the child frame named key, or
    // null.
    frameOwnerLocator(key) {
      return frameOwnerLocator(env, String(key));
    },

    // The host's name ("f3") of the child frame the iframe (or frame)
    // element of ref holds; null for another element, or a frame the host
    // has not told this document of yet.  The way down a locator chain's
    // contentFrame().
    frameKeyOf(ref) {
      const el = resolve(ref);
      const key = frameKeys.get(el);
      return key === undefined ? null : key;
    },
  };
  // The actions' helpers and the structure queries around a ref.
  Object.assign(instance, actionMethods(env));
  Object.assign(instance, env.arrival);
  Object.assign(instance, structureMethods(env, instance.describe));
  Object.assign(instance, successorMethods(env));
  Object.assign(instance, waitMethods(env));
  return Object.freeze(instance);
}

// What assistive technology is told of el.  A hidden element keeps the
// name its labels, aria-label or title give it (the public HTML-AAM tests
// expect it of hidden inputs and <rp>), but its hidden content names
// nothing (accname 2A).
function accessibleItem(ctx, refs, el) {
  const role = accessibleRole(el);
  const hidden = isHiddenForAria(ctx, el);
  const name = accessibleName(ctx, el, role, false, true);
  const description = accessibleDescription(ctx, el, name);
  let ref = refs.peek(el);
  if (ref === null && !hidden) {
    const parent = flatParent(el);
    const parentPointer = isElement(parent) && (ctx.flags(parent) & F_POINTER) !== 0;
    const pointer = (ctx.flags(el) & F_POINTER) !== 0 && !parentPointer;
    if (isRefWorthy(el, N.localName(el), role, pointer) && isActionable(ctx, el)) {
      ref = refs.assign(el, role, name, N.localName(el));
    }
  }
  return { role: ariaRoleName(el, role), name, description, ref };
}

// The instance of this document for a prefix, created on first use, so a
// host that calls by prefix keeps one ref registry per frame.
const instances = new Map();

function instance(prefix) {
  const key = prefix == null ? '' : String(prefix);
  let inst = instances.get(key);
  if (inst === undefined) {
    inst = create({ prefix: key });
    instances.set(key, inst);
  }
  return inst;
}

// The host's one road in (host/call.js): method of the instance of prefix
// with args, as { ok } or { err } (see call.js).
function call(prefix, method, args, byRef) {
  return callMethod(() => instance(prefix), method, args, byRef);
}

if (!Object.getOwnPropertyDescriptor(globalThis, '__vdxBridge')) {
  Object.defineProperty(globalThis, '__vdxBridge', {
    value: Object.freeze({ version: VERSION, create, instance, call }),
    enumerable: false,
    writable: false,
    configurable: false,
  });
  reportLoaded();
  // The warm-up's walks: a registry and frame keys of their own, so they
  // take no ref and leave the real instances alone.
  scheduleWarmUp(() => {
    const env = {
      refs: new Refs(''),
      frameKeys: new WeakMap(),
      resolve(ref) { throw bridgeError('UnknownRef', String(ref), { ref: String(ref) }); },
    };
    return (opts) => snapshot(env, opts);
  });
}
