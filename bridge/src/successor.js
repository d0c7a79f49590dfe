// successor.js -- the element that took the place of a re-rendered one.
//
// Frameworks replace elements wholesale (a React list re-keyed, a
// component re-mounted): the ref the agent read points at an element
// that left the document, while an element with the same role, name and
// tag stands where it stood.  The host asks here, for a ref that went
// stale, which live element has the same ARIA role, the same accessible
// name (exactly, as Playwright's getByRole with exact: true matches it)
// and the same tag; when exactly one does, that element is the ref's
// successor and gets a ref of its own.  Whether to act on it is the
// host's policy (an MCP action does, and says so).

import { Evaluator, evaluateChain } from './locator.js';
import { parseLocator } from './locparse.js';
import { roleExpr } from './rolepath.js';
import * as N from './natives.js';
import { bridgeError } from './errors.js';

const NO_SUCCESSOR = new Set(['generic', 'none', 'presentation', '']);

// The methods merged into a bridge instance; env as in index.js.
export function successorMethods(env) {
  return {
    // { ref } when ref is live; { ref: new, from: ref } for the one
    // element that succeeded a stale ref; StaleRef when none or several
    // could (count says how many), UnknownRef for a ref never given out.
    successor(ref) {
      const hit = env.refs.lookup(ref);
      if (!hit) throw bridgeError('UnknownRef', 'ref ' + ref + ' is not known in this document', { ref: String(ref) });
      if (!hit.stale) return { ref };
      const e = hit.entry;
      const stale = () => bridgeError('StaleRef', ref, { ref, role: e.role, name: e.name, tag: e.tag });
      if (NO_SUCCESSOR.has(e.role || '') || !e.name) throw stale();
      const found = evaluateChain(new Evaluator(), parseLocator(roleExpr(e.role, e.name, true)))
        .filter((el) => N.localName(el) === e.tag);
      if (found.length !== 1) throw stale();
      return { ref: env.refs.assign(found[0], e.role, e.name, e.tag), from: ref };
    },
  };
}
