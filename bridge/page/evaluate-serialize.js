// evaluate-serialize.js -- the fixed wrapper of the read-only evaluate
// (lua/vdx/readonly.lua), sent by Runtime.callFunctionOn with
// throwOnSideEffect on the value the agent's source evaluated to (`this`:
// the function, called with args, or the value itself).  Its answer is
// { n: the JSON's length, j: at most cap characters of it }, or
// { promise: true } for a Promise, which this evaluate does not await.
function (cap, ...args) {
  const v = typeof this === 'function' ? this(...args) : this;
  if (v instanceof Promise) return { promise: true };
  const j = JSON.stringify(v);
  if (j === undefined) return { n: 4, j: 'null' };
  return { n: j.length, j: j.length > cap ? j.slice(0, cap) : j };
}
