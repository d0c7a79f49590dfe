// evaluate-awaited.js -- evaluate-serialize.js for browser_run_code_unsafe
// (lua/vdx/readonly.lua), sent without the side-effect check: a promise
// the function returns is awaited before its value is serialized.
async function (cap, ...args) {
  const v = await (typeof this === 'function' ? this(...args) : this);
  const j = JSON.stringify(v);
  if (j === undefined) return { n: 4, j: 'null' };
  return { n: j.length, j: j.length > cap ? j.slice(0, cap) : j };
}
