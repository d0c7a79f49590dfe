// bench/agent/sessions_pw.mjs: the scripted agent on Playwright MCP 0.0.83
// (`--caps testing`), its best path: its actions answer with the code
// they ran but no snapshot (0.0.83 writes that to a file), so the agent
// reads the page through browser_snapshot (whole, or of one element with
// `target`) and browser_find, verifies with the testing tools, and its
// spec is the code printed along the way (bench/agent.mjs assembles it).
import { refOf, nodeOf, containerRef, names } from './answers.mjs';
import { STORY } from './story.mjs';

// The element argument of an acting tool: 0.0.83 names the ref `target`.
function at(a, tool, element, ref, extra = {}) {
  const key = a.tools[tool]?.inputSchema?.properties?.target ? 'target' : 'ref';
  return { element, [key]: ref, ...extra };
}

async function todo(a, url) {
  const s = STORY.todo;
  await a.call('browser_navigate', { url });
  const snap = await a.call('browser_snapshot');
  const box = refOf(snap, 'textbox', s.input);
  for (const t of s.add) await a.call('browser_type', at(a, 'browser_type', s.input, box, { text: t, submit: true }));
  const found = await a.call('browser_find', { text: s.complete });
  await a.call('browser_click', at(a, 'browser_click', `${s.complete} checkbox`, refOf(found, 'checkbox', s.complete)));
  const list = refOf(found, 'list', s.list);
  await a.call('browser_click', at(a, 'browser_click', `${s.filter} filter`, refOf(snap, 'link', s.filter)));
  await a.call('browser_verify_list_visible', { element: s.list, target: list, items: s.remain });
  await a.call('browser_verify_text_visible', { text: s.left });
  return { code: a.code };
}

async function widgets(a, url) {
  const s = STORY.widgets;
  await a.call('browser_navigate', { url });
  const snap = await a.call('browser_snapshot');
  // The combobox: type, find the option in its popup, pick it.
  await a.call('browser_type', at(a, 'browser_type', s.combo, refOf(snap, 'combobox', s.combo), { text: s.comboText }));
  const opts = await a.call('browser_find', { text: s.option });
  await a.call('browser_click', at(a, 'browser_click', `${s.option} option`, refOf(opts, 'option', s.option)));
  await a.call('browser_verify_text_visible', { text: s.comboDone });
  // Tabs.
  await a.call('browser_click', at(a, 'browser_click', `${s.tab} tab`, refOf(snap, 'tab', s.tab)));
  await a.call('browser_verify_text_visible', { text: s.tabText });
  // The menu button and its menu.
  await a.call('browser_click', at(a, 'browser_click', s.menu, refOf(snap, 'button', s.menu)));
  const menu = await a.call('browser_find', { text: s.menuItem });
  await a.call('browser_click', at(a, 'browser_click', s.menuItem, refOf(menu, 'menuitem', s.menuItem)));
  await a.call('browser_verify_text_visible', { text: s.menuDone });
  // The grid: sort by a column, read the rows, assert the first.
  await a.call('browser_click', at(a, 'browser_click', `${s.sortBy} column header`, refOf(snap, 'button', s.sortBy)));
  const table = await a.call('browser_snapshot', { target: containerRef(snap, 'table', `button "${s.sortBy}"`) });
  // Its rows have no name of their own here: the first body row's first
  // cell names it.  No tool asserts an order, so the spec checks the row
  // is there, not that it comes first.
  const first = names(table, 'cell')[0];
  a.note('no Playwright MCP tool asserts a row\'s position: the spec checks the sorted first row is visible, not first');
  await a.call('browser_verify_element_visible', { role: 'row', accessibleName: first });
  // The modal dialog and its form.
  // A snapshot of one element drops the refs of the others: find again.
  const opener = await a.call('browser_find', { text: s.open });
  await a.call('browser_click', at(a, 'browser_click', s.open, refOf(opener, 'button', s.open)));
  const dlgFind = await a.call('browser_find', { text: 'dialog' });
  const dlg = await a.call('browser_snapshot', { target: containerRef(dlgFind, 'dialog', `heading "${s.dialog}"`) });
  await a.call('browser_fill_form', { fields: s.fields.map((f) => ({ name: f.label, type: f.type, value: f.value,
    target: refOf(dlg, f.type === 'combobox' ? 'combobox' : 'textbox', f.label) })) });
  await a.call('browser_click', at(a, 'browser_click', s.submit, refOf(dlg, 'button', s.submit)));
  await a.call('browser_verify_text_visible', { text: s.submitted });
  return { code: a.code };
}

async function docs(a, url) {
  const s = STORY.docs;
  await a.call('browser_navigate', { url });
  const found = await a.call('browser_find', { text: s.section });
  const sec = await a.call('browser_snapshot', { target: containerRef(found, 'region', `heading "${s.section}"`) });
  const inc = refOf(sec, 'button', s.counter);
  for (let i = 0; i < s.clicks; i++) await a.call('browser_click', at(a, 'browser_click', s.counter, inc));
  await a.call('browser_verify_text_visible', { text: s.counted });
  await a.call('browser_fill_form', { fields: [
    { name: s.nameField, type: 'textbox', value: s.name, target: refOf(sec, 'textbox', s.nameField) },
    { name: s.weekly, type: 'checkbox', value: 'true', target: refOf(sec, 'checkbox', s.weekly) }] });
  await a.call('browser_click', at(a, 'browser_click', s.subscribe, refOf(sec, 'button', s.subscribe)));
  await a.call('browser_verify_text_visible', { text: s.subscribed });
  return { code: a.code };
}

async function shadow(a, url) {
  const s = STORY.shadow;
  await a.call('browser_navigate', { url });
  const snap = await a.call('browser_snapshot');
  await a.call('browser_type', at(a, 'browser_type', s.search, refOf(snap, 'searchbox', s.search), { text: s.query, submit: true }));
  await a.call('browser_verify_text_visible', { text: s.results });
  const add = refOf(snap, 'button', s.add, { within: `heading "${s.product}"` });
  await a.call('browser_click', at(a, 'browser_click', `${s.add} for ${s.product}`, add));
  await a.call('browser_verify_text_visible', { text: s.added });
  const badge = nodeOf(snap, refOf(snap, 'link', /^Cart/));
  await a.call('browser_verify_element_visible', { role: 'link', accessibleName: badge.name.replace(/\(\d+\)/, `(${s.badge})`) });
  return { code: a.code };
}

export const PW_SESSIONS = { todo, widgets, docs, shadow };
