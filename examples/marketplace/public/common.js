// common.js -- the few helpers every page shares.
export function money(cents) {
  return '$' + (cents / 100).toFixed(2);
}

export async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// Calls load() now and every `ms`; render(data) runs only when key(data)
// changed, so the DOM (and an agent's refs) stay put between changes.
export function live(load, render, ms = 1000, key = JSON.stringify) {
  let last = null;
  async function tick() {
    try {
      const data = await load();
      const k = key(data);
      if (k !== last) { last = k; render(data); }
    } catch (e) { console.error(e); }
  }
  tick();
  return setInterval(tick, ms);
}
