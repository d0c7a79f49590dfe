// bench/agent/answers.mjs: reads refs out of the servers' answers the way
// an agent does, so no ref is ever written into a session.  Both servers
// print snapshot lines in Playwright's aria form, `- role "name" [attr]
// [ref=eN]`, indented by depth; a find answer prints the same lines under
// their container path.

/**  The snapshot lines of text as nodes { role, name, ref, body, depth,
 * parent, children }, in document order.  In vdxlua's change report
 * (after a "Changes (" line) "+ " and "~ " lines are on the page and
 * "- " lines have left it (skipped). */
export function nodes(text) {
  const out = [];
  const stack = [];
  let report = false;
  for (const raw of String(text).split('\n')) {
    if (/^Changes \(/.test(raw)) { report = true; stack.length = 0; continue; }
    if (report && !/^[-+~] /.test(raw)) report = false;
    if (report && raw.startsWith('- ')) continue;
    const m = report ? /^()[+~] (.*)$/.exec(raw) : /^(\s*)- (.*)$/.exec(raw);
    if (!m) continue;
    const depth = report ? 0 : m[1].length;
    const body = m[2];
    const r = /^([a-z]+)(?: "((?:[^"\\]|\\.)*)")?/.exec(body);
    while (stack.length && stack[stack.length - 1].depth >= depth) stack.pop();
    const parent = stack[stack.length - 1] || null;
    const n = { role: r?.[1] || null, name: r?.[2] != null ? r[2].replace(/\\(.)/g, '$1') : null,
      ref: /\[ref=([^\]\s]+)\]/.exec(body)?.[1] || null, body, depth, parent, children: [] };
    if (parent) parent.children.push(n);
    out.push(n);
    stack.push(n);
  }
  return out;
}

function subtreeHas(n, needle) {
  if (n.body.includes(needle)) return true;
  return n.children.some((c) => subtreeHas(c, needle));
}

const nameMatches = (want, got) => want == null || (want instanceof RegExp ? want.test(got || '') : got === want);

/** Every node of text with role and name (a string, exact, or a RegExp)
 * and a ref.  opts.within (a text, e.g. 'heading "Desk Lamp"') keeps the
 * ones closest to it: those whose nearest ancestor holding that text is
 * the deepest, i.e. the button of that card, not of its neighbours. */
export function findAll(text, role, name, opts = {}) {
  const hits = nodes(text).filter((n) => n.ref && (!role || n.role === role) && nameMatches(name, n.name));
  if (!opts.within) return hits;
  const near = (n) => { for (let p = n.parent; p; p = p.parent) if (subtreeHas(p, opts.within)) return p.depth; return -1; };
  const depths = hits.map(near);
  const best = Math.max(-1, ...depths);
  return best < 0 ? [] : hits.filter((_, i) => depths[i] === best);
}

/** The ref of the first node findAll returns, or null. */
export function refIn(text, role, name, opts) {
  return findAll(text, role, name, opts)[0]?.ref || null;
}

/** refIn, or an error naming what was looked for. */
export function refOf(text, role, name, opts) {
  const ref = refIn(text, role, name, opts);
  if (!ref) throw new Error(`no ${role} ${name} ${opts?.within ? `within "${opts.within}" ` : ''}with a ref in the answer:\n${String(text).slice(0, 600)}`);
  return ref;
}

/** The node with ref in text (for its name or role). */
export function nodeOf(text, ref) {
  return nodes(text).find((n) => n.ref === ref) || null;
}

/** The ref of the innermost node with role (and a ref) whose subtree
 * holds the text needle (e.g. 'heading "90. Queues reference"'): the
 * container an agent picks from a find answer or a snapshot. */
export function containerRef(text, role, needle) {
  const hits = nodes(text).filter((n) => n.ref && n.role === role && subtreeHas(n, needle));
  const ref = hits[hits.length - 1]?.ref;
  if (!ref) throw new Error(`no ${role} holding ${needle} with a ref in the answer:\n${String(text).slice(0, 600)}`);
  return ref;
}

/** The names of the nodes of text with role, ref or not (cells, rows). */
export function names(text, role) {
  return nodes(text).filter((n) => n.role === role && n.name != null).map((n) => n.name);
}
