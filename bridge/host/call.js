/* host/call.js -- the one function the C core sends to a frame with
 * Runtime.callFunctionOn (src/page/bridge_call.c), embedded by the build
 * beside the bundle.  It runs in the frame's isolated world "vdx": it
 * answers { missing: true } where the bundle is not installed and
 * { mismatch: version } where another version is, and otherwise hands the
 * call to the bridge's envelope (src/call.js).  With withThis, `this` (the
 * object the host called on, a frame's owner element) is the method's
 * first argument; with byRef the answer is the result itself, or the JSON
 * text of an answer that is not a success. */
function (prefix, method, args, version, withThis, byRef) {
  const B = globalThis.__vdxBridge;
  const early = !B ? { missing: true } : B.version !== version ? { mismatch: B.version } : null;
  if (early) return byRef ? JSON.stringify(early) : early;
  const list = Array.isArray(args) ? args : [];
  return B.call(prefix, method, withThis ? [this].concat(list) : list, byRef);
}
