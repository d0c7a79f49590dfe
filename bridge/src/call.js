// call.js -- the envelope of a host call (the host's half is
// host/call.js, which the C core sends with Runtime.callFunctionOn).
//
// callMethod(get, method, args, byRef) runs one method of the bridge
// instance get() returns and answers { ok: value } or { err: { type,
// message, fields } }; an asynchronous method answers a promise of the same.  A name that is not
// one of the instance's methods is the error UnknownMethod naming it.  With
// byRef the host keeps the result as a remote object: the value itself is
// returned, and an answer that is not a success comes as its JSON text.

import { bridgeError } from './errors.js';

const own = Object.prototype.hasOwnProperty;

function failure(e) {
  return {
    err: {
      type: (e && e.vdxType) || 'BridgeError',
      message: String((e && e.message) || e),
      fields: (e && e.vdxFields) || null,
    },
  };
}

export function callMethod(get, method, args, byRef) {
  const answer = (v) => (byRef ? ('ok' in v ? v.ok : JSON.stringify(v)) : v);
  try {
    const inst = get();
    const name = String(method);
    if (!own.call(inst, name) || typeof inst[name] !== 'function') {
      throw bridgeError('UnknownMethod', 'the bridge has no method ' + JSON.stringify(name),
        { method: name });
    }
    const r = inst[name](...(Array.isArray(args) ? args : []));
    if (r instanceof Promise) {
      return r.then((v) => answer({ ok: v }), (e) => answer(failure(e)));
    }
    return answer({ ok: r });
  } catch (e) {
    return answer(failure(e));
  }
}
