// refs.js -- the ref registry of one bridge instance (one document).
//
// A ref names an element for the host: "<prefix>e<N>".  The same element
// keeps its ref for the life of the document, and a number is never given
// out twice.  The registry holds elements weakly; for each ref it also keeps
// the role, name and tag last seen, so a ref to an element that has left the
// document can still be described.

import * as N from './natives.js';

export class Refs {
  constructor(prefix) {
    this.prefix = prefix;
    this.byElement = new WeakMap();
    this.byRef = new Map();
    this.next = 1;
  }

  // The ref of el, creating one if needed; records what el was.
  assign(el, role, name, tag) {
    let ref = this.byElement.get(el);
    if (ref === undefined) {
      ref = this.prefix + 'e' + this.next++;
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
    return ref === undefined ? null : ref;
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
    if (!el || !N.isConnected(el) || N.ownerDocument(el) !== document) {
      return { stale: true, entry };
    }
    return { element: el, entry };
  }
}
