// bench/agent/sessions_vdx.mjs: the scripted agent on `vdxlua mcp`, its
// loop: find -> act -> read the locator and the change -> verify ->
// export.  Its refs are stable for an element's life, so a ref read in
// any earlier answer (a snapshot, a find, an action's change report) is
// used again without a call; what it has not seen it asks browser_find.
// Where this build lacks a tool of the loop (tools/list), the session
// says so (a note in the report) and falls back on what exists:
// browser_snapshot to find and to check, no export.
import { resolve } from 'node:path';
import { findAll, containerRef, names } from './answers.mjs';
import { STORY } from './story.mjs';

// What the agent has read so far, newest first.
function remember(a, text) { (a.seen ||= []).unshift(text); return text; }

// The ref of role + name (opts.within: near that text) in any answer the
// agent has read, newest first; null when none shows it.
function known(a, role, name, opts) {
  for (const t of a.seen || []) {
    const hit = findAll(t, role, name, opts)[0];
    if (hit) return hit.ref;
    // A brief change report lists elements inline: role "name" [ref=eN].
    if (!opts?.within) {
      const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const m = new RegExp(`${role} "${esc}"[^,\n]*?\\[ref=(\\w+)\\]`).exec(t);
      if (m) return m[1];
    }
  }
  return null;
}

// The id of the newest proposed assertion (a change report's [aN] line)
// whose text passes test, or null.
function proposal(a, test) {
  for (const t of a.seen || []) {
    for (const m of t.matchAll(/^\[(a\d+)\] (.*)$/gm)) if (test(m[2])) return m[1];
  }
  return null;
}

// A whole snapshot, read on (offset=, as its truncation note says) until
// found(text) holds or the page ends; the text read, joined.
async function snapshotUntil(a, found) {
  let all = '';
  for (let args = {}; ;) {
    const text = remember(a, await a.call('browser_snapshot', args));
    all += text;
    const next = /browser_snapshot\(offset=(\d+)\)/.exec(text);
    if (found(all) || !next) return all;
    args = { offset: Number(next[1]) };
  }
}

// The ref of role + name: from what the agent has read, else from
// browser_find (by role and name), else from a whole snapshot.
async function ref(a, role, name, opts = {}) {
  const seen = known(a, role, name, opts);
  if (seen) return seen;
  let text;
  if (a.has('browser_find') && !opts.within) {
    text = remember(a, await a.call('browser_find', { role, name }));
  } else {
    if (!a.has('browser_find')) a.note('no browser_find in this build: a whole snapshot instead');
    text = await snapshotUntil(a, (t) => findAll(t, role, name, opts).length > 0);
  }
  const hit = findAll(text, role, name, opts)[0];
  if (!hit) throw new Error(`vdxlua: no ${role} "${name}" with a ref:\n${text.slice(0, 600)}`);
  return hit.ref;
}

// The target of a verify tool: a ref the agent has read, else the role
// locator of the line it read (containers may carry no ref), no call.
function target(a, role, name) {
  const r = known(a, role, name);
  return r ? { ref: r } : { locator: `getByRole('${role}', { name: '${name.replace(/'/g, "\\'")}' })` };
}

// An acting tool; its answer (locator, change report) is remembered.
async function act(a, tool, args) {
  return remember(a, await a.call(tool, args));
}

// An acting tool on the element role + name (opts as for ref): a ref
// that went stale (the page re-rendered it after the answer that showed
// it) is forgotten and looked up again, once, as an agent would.
async function actOn(a, tool, args, role, name, opts) {
  const first = await ref(a, role, name, opts);
  const r = await a.call(tool, { ...args, ref: first }, { allowError: true });
  if (!r.error) return remember(a, r.text);
  if (!/no longer on the page/i.test(r.text)) throw new Error(`${tool}: ${r.text.slice(0, 400)}`);
  a.note(`${tool}: a ref gone stale (re-rendered), looked up again`);
  a.seen = a.seen.filter((t) => !t.includes(`[ref=${first}]`));
  return act(a, tool, { ...args, ref: await ref(a, role, name, opts) });
}

// A verify tool (args: its arguments, or an async function giving them),
// or (missing in this build) a snapshot read instead, as an agent without
// the tool would check; the check then is not in the spec.
async function verify(a, tool, args, expect) {
  if (a.has(tool)) return a.call(tool, typeof args === 'function' ? await args() : args);
  a.note(`no ${tool} in this build: a snapshot read instead, not in the spec`);
  // Read twice at most: an event the action queued (a hashchange) may
  // not have run when the first read comes.
  let snap;
  for (let i = 0; i < 2; i++) {
    snap = (await snapshotUntil(a, (t) => expect(t.replace(/\\"/g, '"')))).replace(/\\"/g, '"');
    if (expect(snap)) return snap;
  }
  throw new Error(`vdxlua: the snapshot does not show what ${tool} ${JSON.stringify(args) || ''} checks`);
}

const verifyText = (a, text) => verify(a, 'browser_verify_text_visible', { text }, (s) => s.includes(text));

// The spec: browser_export_test's file, or why there is none.
async function exportTest(a, app, keep = []) {
  if (!a.has('browser_export_test')) {
    a.note('no browser_export_test in this build: no spec');
    return { missing: 'browser_export_test is not in this build' };
  }
  const args = { filename: `vdxlua-mcp-${app}.spec.ts` };
  if (keep.length) args.assertions = keep;
  const text = await a.call('browser_export_test', args);
  // The Run line names the folder it starts in and the file from there
  // (the project above the output folder, or the file's own).
  const run = /^Run: cd (\S+) && .* test (\S+\.spec\.[cm]?[jt]s)$/m.exec(text);
  if (run) return { path: resolve(run[1], run[2]) };
  const path = /(\S+\.spec\.[cm]?[jt]s)\b/.exec(text)?.[1];
  if (!path) return { missing: `browser_export_test named no file: ${text.slice(0, 200)}` };
  return { path: path.replace(/^["'`(]+|["'`),.]+$/g, '') };
}

// An acting tool on the element the story names, by that description
// (vdxlua's ladder finds it by role and name, label, text…), with no
// look at the page first; where the ladder misses, by a ref as actOn.
async function actByName(a, tool, args, role, name, texts, opts) {
  const extra = texts && a.tools[tool]?.inputSchema?.properties?.expect ? { expect: texts } : {};
  const r = await a.call(tool, { ...args, element: name, ...extra }, { allowError: true });
  if (!r.error) return remember(a, r.text);
  if (!/NoMatch|matches nothing|No element/i.test(r.text)) throw new Error(`${tool}: ${r.text.slice(0, 400)}`);
  a.note(`${tool}: the description "${name}" found nothing; by ref instead`);
  return texts ? actExpect(a, tool, args, role, name, texts, opts) : actOn(a, tool, args, role, name, opts);
}

// The page, from the navigation's answer when it came whole (a small
// page), else from a snapshot.
async function look(a, url) {
  const nav = remember(a, await a.call('browser_navigate', { url }));
  if (!/\[ref=e\d+\]/.test(nav)) remember(a, await a.call('browser_snapshot'));
}

// An acting tool's `expect` (texts it should show, checked and recorded in
// the same call), when this build has it; else the verify tool after it.
async function actExpect(a, tool, args, role, name, texts, opts) {
  if (a.tools[tool]?.inputSchema?.properties?.expect) {
    return actOn(a, tool, { ...args, expect: texts }, role, name, opts);
  }
  a.note(`no expect on ${tool} in this build: a verify call per text`);
  const r = await actOn(a, tool, args, role, name, opts);
  for (const t of texts) await verifyText(a, t);
  return r;
}

async function todo(a, url, app) {
  const s = STORY.todo;
  await a.call('browser_navigate', { url });
  for (const t of s.add) await actByName(a, 'browser_type', { text: t, submit: true }, 'textbox', s.input, [t]);
  await actExpect(a, 'browser_click', { element: `${s.complete} checkbox` }, 'checkbox', s.complete, [s.left]);
  await actByName(a, 'browser_click', {}, 'link', s.filter);
  // The change report proposes the count that remains: keep it, else verify.
  const count = proposal(a, (t) => t.includes(`toHaveCount(${s.remain.length})`));
  if (count) return exportTest(a, app, [count]);
  await verify(a, 'browser_verify_list_visible', () => ({ ...target(a, 'list', s.list), items: s.remain }),
    (snap) => s.remain.every((x) => snap.includes(x)) && !snap.includes(`"${s.complete}"`));
  return exportTest(a, app);
}

async function widgets(a, url, app) {
  const s = STORY.widgets;
  await a.call('browser_navigate', { url });
  await actByName(a, 'browser_type', { text: s.comboText }, 'combobox', s.combo);
  await actExpect(a, 'browser_click', { element: `${s.option} option` }, 'option', s.option, [s.comboDone]);
  await actByName(a, 'browser_click', {}, 'tab', s.tab, [s.tabText]);
  await actByName(a, 'browser_click', {}, 'button', s.menu);
  await actExpect(a, 'browser_click', { element: s.menuItem }, 'menuitem', s.menuItem, [s.menuDone]);
  // Sort, read the new order (the change report, else the table alone),
  // and assert it.
  const sorted = await actByName(a, 'browser_click', {}, 'button', s.sortBy);
  // The report's proposal of the new order, when it has one, is the check.
  const order = proposal(a, (t) => t.includes('toContainText(') && t.includes(`'${s.firstRow}'`));
  const keep = [];
  if (order) keep.push(order);
  let cells = order ? [] : names(sorted, 'cell');
  if (!order && !cells.length) {
    const table = known(a, 'table', s.grid);
    cells = names(remember(a, await a.call('browser_snapshot', table ? { root: table } : {})), 'cell');
  }
  if (!order) {
    const rows = cells.filter((_, i) => i % 3 === 0);
    if (rows[0] !== s.firstRow) throw new Error(`vdxlua: sorted by ${s.sortBy}, the first row is ${rows[0]}`);
    await verify(a, 'browser_verify_list_visible', () => ({ ...target(a, 'table', s.grid), items: rows }),
      (snap) => names(snap, 'cell')[0] === s.firstRow);
  }
  // The dialog: its fields come in the click's change report, else find.
  await actByName(a, 'browser_click', {}, 'button', s.open);
  const fields = [];
  for (const f of s.fields) fields.push({ name: f.label, type: f.type, value: f.value, ref: await ref(a, f.type, f.label) });
  await act(a, 'browser_fill_form', { fields });
  await actExpect(a, 'browser_click', { element: s.submit }, 'button', s.submit, [s.submitted]);
  return exportTest(a, app, keep);
}

async function docs(a, url, app) {
  const s = STORY.docs;
  await a.call('browser_navigate', { url });
  const near = { within: `heading "${s.section}"` };
  // The section's heading and the lines it introduces (its example).
  let findArgs = { text: s.section };
  if (a.tools.browser_find?.inputSchema?.properties?.context) findArgs = { role: 'heading', name: s.section, context: 20 };
  if (a.has('browser_find')) {
    // The section's heading with the lines it introduces (its example's
    // controls); a build without context reads the section apart.
    const found = remember(a, await a.call('browser_find', findArgs));
    if (!findArgs.context) {
      remember(a, await a.call('browser_snapshot', { root: containerRef(found, 'region', `heading "${s.section}"`) }));
    }
  } else {
    a.note('no browser_find in this build: a whole snapshot of the long page instead');
    await snapshotUntil(a, (t) => findAll(t, 'button', s.counter, near).length > 0);
  }
  const inc = await ref(a, 'button', s.counter, near);
  // Each click with the count it should show (the last is the story's).
  for (let i = 1; i < s.clicks; i++) {
    await actExpect(a, 'browser_click', { element: s.counter, ref: inc }, 'button', s.counter,
      [s.counted.replace(/\d+$/, String(i))], near);
  }
  await actExpect(a, 'browser_click', { element: s.counter, ref: inc }, 'button', s.counter, [s.counted], near);
  await act(a, 'browser_fill_form', { fields: [
    { name: s.nameField, type: 'textbox', value: s.name, ref: await ref(a, 'textbox', s.nameField, near) },
    { name: s.weekly, type: 'checkbox', value: 'true', ref: await ref(a, 'checkbox', s.weekly, near) }] });
  await actExpect(a, 'browser_click', { element: s.subscribe }, 'button', s.subscribe, [s.subscribed], near);
  return exportTest(a, app);
}

async function shadow(a, url, app) {
  const s = STORY.shadow;
  await a.call('browser_navigate', { url });
  // The search box by what a user sees (the description ladder finds it),
  // then the product's card: its heading and the lines it introduces.
  if (a.tools.browser_find?.inputSchema?.properties?.context) {
    remember(a, await a.call('browser_type', { element: s.search, text: s.query, submit: true, expect: [s.results] }));
    remember(a, await a.call('browser_find', { text: s.product, context: 4 }));
  } else {
    remember(a, await a.call('browser_snapshot'));
    await actExpect(a, 'browser_type', { element: s.search, text: s.query, submit: true }, 'searchbox', s.search, [s.results]);
  }
  const badge = `Cart (${s.badge})`;
  await actExpect(a, 'browser_click', { element: `${s.add} for ${s.product}` }, 'button', s.add,
    [s.added, badge], { within: `heading "${s.product}"` });
  return exportTest(a, app);
}

export const VDX_SESSIONS = { todo, widgets, docs, shadow };
