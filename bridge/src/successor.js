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

// What a stale ref was, for its StaleRef: 'e45 was the button "Remove"
// (<button>), which has left the page', and when alike is given, how many
// elements have that role and name now (none of them is taken for it).
export function staleMessage(ref, e, alike) {
  let m = ref + ' was the ' + (e.role || 'element') + (e.name ? ' ' + JSON.stringify(e.name) : '') +
    (e.tag ? ' (<' + e.tag + '>)' : '') + ', which has left the page';
  if (alike > 1) {
    m += '; ' + alike + ' elements have its role and name now, so none is taken for it: ' +
      'take a snapshot (or find it by its row or card) and use its new ref';
  }
  return m;
}

// The elements that could succeed a stale ref's entry e: those of its
// tag with its role and exact name (none for a role without a name).
export function alikeNow(e) {
  if (NO_SUCCESSOR.has(e.role || '') || !e.name) return [];
  return evaluateChain(new Evaluator(), parseLocator(roleExpr(e.role, e.name, true)))
    .filter((el) => N.localName(el) === e.tag);
}

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
      const found = alikeNow(e);
      if (found.length !== 1) {
        throw bridgeError('StaleRef', staleMessage(ref, e, found.length),
          { ref, role: e.role, name: e.name, tag: e.tag, count: found.length });
      }
      return { ref: env.refs.assign(found[0], e.role, e.name, e.tag), from: ref };
    },
  };
}
