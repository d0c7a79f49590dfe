#!/usr/bin/env node
// explore-check.mjs -- checks the structure queries of the bridge
// (resolveContainer, inspectPattern, extractAnchors, selector,
// selectorCoverage, locatorCount, readHtml) on spec/fixtures/explore/ in
// headless Chromium.  Plain Node, no dependencies; drives Chromium through
// try.mjs.
//
//   node tools/explore-check.mjs [--verbose]
//       Runs every check, prints one line per failure, the selector
//       coverage of each fixture, the size of the exploration of one
//       button on the 200-card grid and the time of each primitive there;
//       exits 1 on any failure.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Browser, openPage, injectFrames, callOn } from './try.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, '..', '..', 'spec', 'fixtures', 'explore');
const bundle = readFileSync(join(here, '..', 'dist', 'vdx-bridge.js'), 'utf8');
const verbose = process.argv.includes('--verbose');

let failures = 0;
let passes = 0;

function check(ok, what, detail) {
  if (ok) {
    passes++;
    if (verbose) console.log('ok   ' + what);
  } else {
    failures++;
    console.log('FAIL ' + what + (detail !== undefined ? '\n     ' + JSON.stringify(detail).slice(0, 600) : ''));
  }
}

function eq(got, want, what) {
  check(JSON.stringify(got) === JSON.stringify(want), what + ` (want ${JSON.stringify(want)})`, got);
}

// Calls a bridge method; returns { ok } or { err: { type, message, fields } }.
const CALL_FN = `function (m, args) {
  try {
    return { ok: this[m].apply(this, args) };
  } catch (e) {
    return { err: { type: e.vdxType || null, message: String(e.message), fields: e.vdxFields || null } };
  }
}`;

class Fixture {
  constructor(browser, file) {
    this.browser = browser;
    this.file = file;
  }

  async open() {
    this.page = await openPage(this.browser, pathToFileURL(join(fixtures, this.file)).href);
    this.frames = await injectFrames(this.page, bundle);
    for (const f of this.frames) await this.call('snapshot', [{}], f);
    return this;
  }

  async call(method, args, frame) {
    const f = frame || this.frames[0];
    return callOn(this.page, f.instance, CALL_FN, [{ value: method }, { value: args }]);
  }

  async ok(method, ...args) {
    const r = await this.call(method, args);
    if (r.err) throw new Error(`${this.file}: ${method}: ${r.err.message}`);
    return r.ok;
  }

  // The ref of the first element a locator expression matches.
  async ref(expr, frame) {
    const r = await this.call('locatorCount', [expr], frame);
    if (r.err || r.ok.count < 1 || !r.ok.refs[0]) throw new Error(`${this.file}: no ref for ${expr}: ${JSON.stringify(r)}`);
    return r.ok.refs[0];
  }

  async count(expr, frame) {
    const r = await this.call('locatorCount', [expr], frame);
    if (r.err) return r.err.type + ': ' + r.err.message;
    return r.ok.count;
  }

  // Evaluates fn(sel) in the page's isolated world and returns the value.
  async inPage(fn, ...args) {
    return callOn(this.page, this.frames[0].instance, fn, args.map((value) => ({ value })));
  }
}

// Every selector of the coverage is verified independently here too.
const VERIFY_FN = `function (ref) {
  const s = this.selector(ref);
  if (!s.selector) return { at: s.at };
  const el = this.element(ref);
  const list = el.getRootNode().querySelectorAll(s.selector);
  return { selector: s.selector, unique: list.length === 1 && list[0] === el };
}`;

async function coverage(fx) {
  const c = await fx.ok('selectorCoverage');
  console.log(`coverage ${fx.file}: ${c.with_selector}/${c.refs} = ${(c.ratio * 100).toFixed(1)}%` +
    (c.without.length ? ` (no selector: ${c.without.slice(0, 8).join(' ')})` : ''));
  return c;
}

// ------------------------------------------------------------------ checks

async function gridTestId(browser) {
  const fx = await new Fixture(browser, 'grid-testid.html').open();
  const seed = 'getByTestId("product-card").filter({ hasText: "iPhone 15 Pro" }).getByRole("button", { name: "Add to Cart" })';
  const button = await fx.ref('locator("[data-testid=product-card]:nth-child(42) button")');
  const seedResult = await fx.ok('locatorCount', seed);
  eq(seedResult, { count: 1, refs: [button] }, 'seed locator matches exactly the iPhone 15 Pro button');
  eq(await fx.count('page.' + seed + ';'), 1, 'leading page. and trailing ;');
  eq(await fx.count('getByTestId("product-card").filter({ hasText: "iPhone 15" }).getByRole("button", { name: "Add to Cart" })'), 2, 'ambiguous hasText');
  eq(await fx.count('getByRole("button", { name: "Add to Cart" })'), 200, 'getByRole name');
  eq(await fx.count("getByRole('button', { name: 'add to cart' })"), 200, 'getByRole name is case-insensitive');
  eq(await fx.count('getByRole("button", { name: "add to cart", exact: true })'), 0, 'exact is case-sensitive');
  eq(await fx.count('getByRole("button", { name: "Add to Cart", exact: true })'), 200, 'exact full match');
  eq(await fx.count('getByRole("button", { name: "Add to", exact: true })'), 0, 'exact is full-string');
  eq(await fx.count('getByText("Add to Cart")'), 201, 'getByText counts hidden elements, as Playwright');
  eq(await fx.count('getByText("Add to Cart", { exact: true })'), 201, 'getByText exact');
  eq(await fx.count('getByText("iPhone 15 Pro")'), 1, 'getByText picks the innermost element');
  eq(await fx.count('getByRole("link", { name: /iphone 15 pro/i })'), 1, 'regex name');
  eq(await fx.count('getByRole("link", { name: /^iPhone 15$/ })'), 1, 'anchored regex name');
  eq(await fx.count('getByRole("heading", { level: 3 })'), 200, 'level option');
  eq(await fx.count('getByTestId("product-card").nth(41).getByRole("heading")'), 1, 'nth');
  eq(await fx.count('getByTestId("product-card").first()'), 1, 'first');
  eq(await fx.count('getByTestId("product-card").last().getByRole("link", { name: "Product 200" })'), 1, 'last');
  eq(await fx.count('getByTestId("product-card").nth(-1).getByText("Product 200")'), 1, 'negative nth');
  eq(await fx.count('getByTestId("product-card").filter({ has: page.getByRole("link", { name: "iPhone 15 Pro" }) })'), 1, 'filter has');
  eq(await fx.count('getByTestId("product-card").filter({ hasNot: getByRole("link", { name: "iPhone" }) })'), 198, 'filter hasNot');
  eq(await fx.count('getByTestId("product-card").filter({ hasNotText: "iphone" })'), 198, 'filter hasNotText');
  eq(await fx.count('getByTestId("product-card").filter({ hasText: /iPhone 15$/ })'), 0, 'hasText regex on the full text');
  eq(await fx.count('getByTestId(/product-(card|grid)/)'), 201, 'getByTestId regex');
  eq(await fx.count('getByPlaceholder("search")'), 1, 'getByPlaceholder');
  eq(await fx.count('getByLabel("Search")'), 2, 'getByLabel from aria-label (the search form too)');
  eq(await fx.count('getByLabel("Search", { exact: true })'), 1, 'getByLabel exact');
  eq(await fx.count('getByAltText("iPhone 15 Pro", { exact: true })'), 1, 'getByAltText exact');
  eq(await fx.count('getByAltText("iphone 15")'), 2, 'getByAltText substring');
  eq(await fx.count('locator("#grid .card")'), 200, 'locator css');
  eq(await fx.count('locator("xpath=//h1")'), 1, 'locator xpath');
  eq(await fx.count('locator(".card", { hasText: "iPhone" }).getByRole("button")'), 2, 'locator with options');
  eq(await fx.count('getByRole("navigation").getByRole("link")'), 3, 'chained scope');
  eq(await fx.count('getByRole("link", { name: "Home" }).or(getByRole("link", { name: "Phones" }))'), 2, 'or');
  eq(await fx.count('getByRole("link").and(getByTestId("cart-link"))'), 1, 'and');
  eq(await fx.count('getByRole("button", { name: `Add to Cart` }).filter({ visible: true })'), 200, 'template string and visible filter');

  // Syntax errors point at the offending part.
  const syntax = async (expr, col, what) => {
    const r = await fx.call('locatorCount', [expr]);
    const ok = r.err && r.err.type === 'LocatorSyntax' && r.err.fields && r.err.fields.column === col &&
      /^LocatorSyntax: .* at column \d+:\n {2}.*\n {2} *\^$/.test(r.err.message);
    check(ok, `syntax error at column ${col}: ${what}`, r);
    if (verbose && r.err) console.log(r.err.message);
  };
  await syntax('getByRole("button", { name: "Add" )', 35, 'missing }');
  await syntax('getByRol("button")', 1, 'unknown method');
  await syntax('getByText("unterminated', 11, 'unterminated string');
  await syntax('getByRole("button").nth("x")', 25, 'nth takes a number');
  await syntax('getByRole("button", { nam: "x" })', 23, 'unknown option');
  await syntax('getByRole("button") getByText("x")', 21, 'junk after the chain');
  await syntax('getByRole(button)', 11, 'bare identifier read as an unknown method');
  await syntax('', 1, 'empty');
  await syntax('getByText(/[unclosed/)', 11, 'bad regex');
  const css = await fx.call('locatorCount', ['locator("button:has-text(\'x\')")']);
  check(css.err && css.err.type === 'InvalidSelector', 'Playwright-only CSS is InvalidSelector', css);

  // The exploration of one button.
  const link = await fx.ref('getByRole("link", { name: "iPhone 15 Pro" })');
  const rc = await fx.ok('resolveContainer', button);
  eq(rc.levels_total, 3, 'resolveContainer levels_total');
  eq(rc.target, { ref: button, tag: 'button', role: 'button', name: 'Add to Cart', text: 'Add to Cart' }, 'target');
  eq(rc.ancestors[0], {
    level: 1, tag: 'div', attributes: { class: 'card', 'data-testid': 'product-card' }, child_elements: 4,
    contains_refs: { refs: [link, button], total: 2 },
  }, 'level 1 is the card');
  eq([rc.ancestors[1].attributes.id, rc.ancestors[1].child_elements, rc.ancestors[1].contains_refs.total,
    rc.ancestors[1].contains_refs.refs.length], ['grid', 200, 400, 10], 'level 2 is the grid, refs bounded');
  eq(rc.ancestors[2].tag, 'main', 'level 3 is main');
  const rc2 = await fx.ok('resolveContainer', button, { max_refs: 3 });
  eq(rc2.ancestors[1].contains_refs.refs.length, 3, 'max_refs');
  const ip = await fx.ok('inspectPattern', button, 1);
  eq([ip.siblings_total, ip.shown, ip.target_sibling_index, ip.siblings[0].index, ip.siblings[19].index],
    [200, 20, 41, 31, 50], 'inspectPattern window centred on the target');
  const mine = ip.siblings.find((s) => s.index === 41);
  eq(mine.contains_text, ['iPhone 15 Pro', '$554.99', 'Add to Cart'], 'sibling text snippets');
  eq(mine.outline, ['heading "iPhone 15 Pro" [level=3]', '[data-testid="product-title"]',
    `link "iPhone 15 Pro" [ref=${link}]`, '[data-testid="product-price"]', `button "Add to Cart" [ref=${button}]`],
  'sibling outline');
  const first = await fx.ok('inspectPattern', await fx.ref('getByRole("link", { name: "Product 1", exact: true })'), 2, { max_siblings: 5 });
  eq([first.target_sibling_index, first.siblings.map((s) => s.index)], [0, [0, 1, 2, 3, 4]], 'window at the start');
  const past = await fx.call('inspectPattern', [button, 4]);
  check(past.err && past.err.type === 'InvalidArgument' && /largest valid level is 3/.test(past.err.message),
    'level past body names the largest valid level', past);
  const ea = await fx.ok('extractAnchors', button, 1);
  eq([ea.total_descendants, ea.shown, ea.descendants.map((d) => `${d.depth}:${d.index}:${d.tag}`)],
    [5, 5, ['1:0:img', '1:1:h3', '2:0:a', '1:2:p', '1:3:button']], 'extractAnchors of the card');
  eq(ea.descendants[2], {
    depth: 2, index: 0, tag: 'a', attributes: { href: '/p/42' }, ref: link, role: 'link', name: 'iPhone 15 Pro',
    direct_text: 'iPhone 15 Pro', full_text: 'iPhone 15 Pro',
  }, 'anchor entry');

  const exploration = JSON.stringify(rc) + JSON.stringify(ip) + JSON.stringify(ea);
  console.log(`exploration of one button on the 200-card grid: ${exploration.length} chars ` +
    `(~${Math.round(exploration.length / 4)} tokens)`);
  check(exploration.length < 12000, 'exploration under 12,000 characters', exploration.length);

  // Selectors.
  const sel = async (ref) => fx.inPage(VERIFY_FN, ref);
  eq(await sel(button), { at: (await fx.ok('selector', button)).at }, 'identical repeat gets at');
  const at = (await fx.ok('selector', button)).at;
  check(at && at.x > 0 && at.y > 0, 'at is a viewport point', at);
  eq(await sel(link), { selector: "a[href='/p/42']", unique: true }, 'link by href');
  eq(await sel(await fx.ref('getByRole("searchbox")')), { selector: "[aria-label='Search']", unique: true }, 'aria-label');
  eq(await sel(await fx.ref('getByTestId("cart-link")')), { selector: "[data-testid='cart-link']", unique: true }, 'test id');
  eq(await sel(await fx.ref('getByRole("button", { name: "Search" })')),
    { selector: "form[aria-label='Site search'] button[type='submit']", unique: true }, 'container-scoped');
  const d = await fx.ok('describe', link);
  eq([d.ref, d.selector], [link, "a[href='/p/42']"], 'describe carries the selector');
  await coverage(fx);

  await readHtmlChecks(fx);
  await timings(fx, button);
}

async function readHtmlChecks(fx) {
  const full = await fx.ok('readHtml', { mode: 'full' });
  const form = await fx.ok('readHtml', { mode: 'form' });
  const text = await fx.ok('readHtml', { mode: 'text' });
  for (const [mode, r] of [['full', full], ['form', form], ['text', text]]) {
    console.log(`readHtml ${mode} grid-testid: ${r.size_before} -> ${r.size_after} chars ` +
      `(${(100 * r.size_after / r.size_before).toFixed(1)}%), ${r.interactive_kept} interactive kept`);
    eq(r.interactive_kept, 405, `readHtml ${mode} keeps every interactive element`);
    check(!/<script|<style|sr-hidden|onclick/.test(r.html), `readHtml ${mode} drops scripts, styles, hidden`);
  }
  check(/<div class="card" data-testid="product-card">/.test(full.html), 'full keeps classes and test ids');
  check(/src="data:image\/gif;b…\[\+\d+ chars\]"/.test(full.html), 'full shortens data URLs');
  check(!/<p/.test(form.html) && /<button type="submit" data-ref="e\d+">Search<\/button>/.test(form.html), 'form keeps controls only', form.html.slice(0, 300));
  check(/<h3><a href="\/p\/1" data-ref="e\d+">Product 1<\/a><\/h3><p>\$37\.99<\/p>/.test(text.html), 'text keeps prose', text.html.slice(0, 400));
  const root = await fx.ok('readHtml', { mode: 'full', root: await fx.ref('getByRole("link", { name: "Home" })'), level: 3 });
  check(/^<nav aria-label="Main"><ul><li><a href="\/" data-ref="e\d+">Home<\/a><\/li>/.test(root.html), 'root option', root.html);
  const cut = await fx.ok('readHtml', { mode: 'full', max_chars: 100 });
  check(cut.truncated && /…\[\+\d+ chars\]$/.test(cut.html) && cut.html.length < 130, 'max_chars truncates with a marker');
  const bad = await fx.call('readHtml', [{ mode: 'pdf' }]);
  check(bad.err && bad.err.type === 'InvalidArgument', 'bad mode', bad);
}

const TIME_FN = `function (m, args, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    this[m].apply(this, args);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { first: times[0], median: times[times.length >> 1] };
}`;

async function timings(fx, button) {
  const seed = 'getByTestId("product-card").filter({ hasText: "iPhone 15 Pro" }).getByRole("button", { name: "Add to Cart" })';
  const runs = [['resolveContainer', [button]], ['inspectPattern', [button, 1]], ['extractAnchors', [button, 1]],
    ['selector', [button]], ['locatorCount', [seed]], ['selectorCoverage', []],
    ['readHtml', [{ mode: 'form' }]], ['readHtml', [{ mode: 'full' }]]];
  const parts = [];
  for (const [m, args] of runs) {
    const t = await callOn(fx.page, fx.frames[0].instance, TIME_FN, [{ value: m }, { value: args }, { value: 15 }]);
    parts.push(`${m}${m === 'readHtml' ? '(' + args[0].mode + ')' : ''} ${t.first.toFixed(2)}/${t.median.toFixed(2)}`);
  }
  console.log('ms (min/median of 15) on grid-testid: ' + parts.join(', '));
}

async function gridClasses(browser) {
  const fx = await new Fixture(browser, 'grid-classes.html').open();
  const add = await fx.ref('locator(".product-tile").filter({ hasText: "Galaxy S24" }).getByText("Add")');
  eq(await fx.count('locator(".product-tile").filter({ hasText: "Galaxy S24" }).getByText("Add")'), 1, 'classes: unique locator');
  eq(await fx.count('getByText("Add")'), 48, 'classes: ambiguous getByText');
  const rc = await fx.ok('resolveContainer', add);
  eq(rc.ancestors.map((a) => a.attributes.class), ['tile-actions', 'product-tile tile-1',
    'product-list jsx-3829101 flex flex-wrap gap-2 items-start justify-between px-4 p…[+3 chars]',
    'page-wrapper css-1x9ab2z'],
  'classes: ancestors');
  const ip = await fx.ok('inspectPattern', add, 2);
  eq([ip.siblings_total, ip.target_sibling_index], [48, 6], 'classes: pattern of tiles');
  const full = await fx.ok('readHtml', { mode: 'full' });
  check(full.html.includes('<div class="product-list flex flex-wrap …+6">'), 'full shortens class lists', full.html.slice(0, 200));
  check(full.html.includes('<div class="page-wrapper …+1">'), 'full drops generated classes', full.html.slice(0, 200));
  await coverage(fx);
}

async function bare(browser) {
  const fx = await new Fixture(browser, 'bare.html').open();
  const expr = 'locator("section > div > div").filter({ hasText: "Beta" }).getByRole("button")';
  eq(await fx.count(expr), 1, 'bare: unique locator');
  const b = await fx.ref(expr);
  const rc = await fx.ok('resolveContainer', b);
  eq(rc.ancestors.map((a) => [a.level, a.tag, a.child_elements, a.contains_refs.total]),
    [[1, 'div', 3, 1], [2, 'div', 4, 4], [3, 'section', 1, 4]], 'bare: ancestors');
  const ip = await fx.ok('inspectPattern', b, 1);
  eq([ip.siblings_total, ip.target_sibling_index, ip.siblings[1].contains_text], [4, 1, ['Beta', 'Second entry', 'Open']], 'bare: pattern');
  eq((await fx.ok('selector', await fx.ref('getByRole("link")'))).selector, "a[href='/more']", 'bare: link selector');
  await coverage(fx);
}

async function table(browser) {
  const fx = await new Fixture(browser, 'table.html').open();
  const expr = 'getByRole("row", { name: "Alan Turing" }).getByRole("button", { name: "Delete" })';
  eq(await fx.count(expr), 1, 'table: row-scoped locator');
  eq(await fx.count('getByRole("button", { name: "Delete" })'), 3, 'table: ambiguous');
  eq(await fx.count('getByRole("cell", { name: "alan@example.com" })'), 1, 'table: cell');
  const del = await fx.ref(expr);
  const rc = await fx.ok('resolveContainer', del);
  eq(rc.ancestors.map((a) => a.tag), ['td', 'tr', 'tbody', 'table'], 'table: ancestors');
  eq(rc.ancestors[3].attributes, { id: 'users' }, 'table: id shown');
  const ip = await fx.ok('inspectPattern', del, 2);
  eq([ip.siblings_total, ip.target_sibling_index, ip.siblings[1].contains_text.slice(0, 2)], [3, 1, ['Alan Turing', 'alan@example.com']], 'table: rows');
  const text = await fx.ok('readHtml', { mode: 'text' });
  check(/<table><caption>Active users<\/caption><thead><tr><th>Name<\/th>/.test(text.html), 'table: text mode keeps tables', text.html.slice(0, 200));
  await coverage(fx);
}

async function shadow(browser) {
  const fx = await new Fixture(browser, 'shadow.html').open();
  const expr = 'getByTestId("todo-list").getByTestId("todo").filter({ hasText: "Walk dog" }).getByRole("button")';
  eq(await fx.count(expr), 1, 'shadow: locator pierces the shadow root');
  eq(await fx.count('getByRole("button", { name: /remove/i })'), 3, 'shadow: ambiguous');
  eq(await fx.count('locator("li button")'), 3, 'shadow: css pierces');
  const b = await fx.ref(expr);
  const rc = await fx.ok('resolveContainer', b);
  eq(rc.ancestors.map((a) => [a.level, a.tag, !!a.crossed_shadow]),
    [[1, 'li', false], [2, 'ul', false], [3, 'todo-list', true], [4, 'main', false]], 'shadow: host is one flagged level');
  eq(rc.ancestors[2].child_elements, 3, 'shadow: host children come from its shadow root');
  const ip = await fx.ok('inspectPattern', b, 1);
  eq([ip.siblings_total, ip.target_sibling_index], [3, 1], 'shadow: siblings inside the shadow root');
  const ea = await fx.ok('extractAnchors', b, 3);
  eq(ea.descendants.filter((x) => x.depth === 1).map((x) => [x.tag, !!x.in_shadow]), [['h2', true], ['ul', true], ['button', true]], 'shadow: anchors');
  const s = await fx.ok('selector', b);
  eq(s, { selector: "[aria-label='Remove Walk dog']", in_shadow: true }, 'shadow: selector in the shadow root');
  const full = await fx.ok('readHtml', { mode: 'full' });
  check(/<todo-list id="todos" data-testid="todo-list"><h2>Todos<\/h2><ul class="items">/.test(full.html), 'shadow: readHtml reads the shadow tree', full.html.slice(0, 200));
  await coverage(fx);
}

async function wide(browser) {
  const fx = await new Fixture(browser, 'wide.html').open();
  const cb = await fx.ref('getByRole("checkbox", { name: "Row 250", exact: true })');
  const rc = await fx.ok('resolveContainer', cb);
  eq(rc.ancestors.map((a) => [a.tag, a.child_elements, a.contains_refs.total, a.contains_refs.refs.length]),
    [['label', 1, 1, 1], ['div', 1, 1, 1], ['div', 500, 500, 10]], 'wide: totals');
  const ip = await fx.ok('inspectPattern', cb, 2);
  eq([ip.siblings_total, ip.shown, ip.target_sibling_index, ip.siblings[0].index], [500, 20, 250, 240], 'wide: window');
  const last = await fx.ok('inspectPattern', await fx.ref('getByRole("checkbox", { name: "Row 499" })'), 2);
  eq([last.siblings[0].index, last.siblings[19].index], [480, 499], 'wide: window at the end');
  const ea = await fx.ok('extractAnchors', cb, 3);
  eq([ea.total_descendants, ea.shown, ea.ancestor_at.children_not_shown], [1500, 45, 485], 'wide: anchors bounded by max_children');
  const ea2 = await fx.ok('extractAnchors', cb, 3, { max_total: 10, max_children: 500, max_depth: 1 });
  eq([ea2.total_descendants, ea2.shown, ea2.ancestor_at.children_not_shown, ea2.limits],
    [500, 10, 490, { max_depth: 1, max_children: 500, max_total: 10 }], 'wide: max_total and max_depth');
  const badOpt = await fx.call('extractAnchors', [cb, 3, { depth: 2 }]);
  check(badOpt.err && badOpt.err.type === 'InvalidArgument' && /unexpected option "depth"/.test(badOpt.err.message), 'unknown option', badOpt);
  await coverage(fx);
}

async function deep(browser) {
  const fx = await new Fixture(browser, 'deep.html').open();
  const b = await fx.ref('getByRole("button", { name: "Deep" })');
  const rc = await fx.ok('resolveContainer', b);
  eq([rc.levels_total, rc.ancestors[10].attributes], [11, { id: 'top' }], 'deep: 11 levels');
  const ea = await fx.ok('extractAnchors', b, 11);
  eq([ea.total_descendants, ea.shown], [12, 12], 'deep: depth 4 counts 12');
  const ea2 = await fx.ok('extractAnchors', b, 11, { max_depth: 20 });
  eq([ea2.total_descendants, ea2.shown, ea2.descendants[ea2.descendants.length - 1].tag], [31, 31, 'span'], 'deep: whole subtree');
  const last = ea.descendants.find((x) => x.depth === 4 && x.tag === 'div');
  eq(last.children_not_shown, 3, 'deep: cut at max_depth is reported');
  const past = await fx.call('extractAnchors', [b, 12]);
  check(past.err && past.err.type === 'InvalidArgument' && past.err.fields.max_level === 11, 'deep: level 12 is past body', past);
  eq((await fx.ok('selector', b)).selector, '#deep-button', 'deep: id selector');
}

async function forms(browser) {
  const fx = await new Fixture(browser, 'forms.html').open();
  const sel = async (expr) => (await fx.inPage(VERIFY_FN, await fx.ref(expr)));
  eq(await sel('getByLabel("First name")'), { selector: '#first', unique: true }, 'forms: id');
  eq(await sel('getByLabel("Password")'), { selector: "input[name='password']", unique: true }, 'forms: name');
  eq(await sel('getByRole("radio", { name: "Pro" })'), { selector: "input[name='plan'][value='pro']", unique: true }, 'forms: radio');
  eq(await sel('getByRole("button", { name: "Create account" })'), { selector: "[data-testid='signup-submit']", unique: true }, 'forms: test id');
  eq(await sel('getByRole("button", { name: "Clear" })'), { selector: "#signup button[type='reset']", unique: true }, 'forms: container-scoped');
  eq(await sel('getByTitle("Close newsletter")'), { selector: "button[title='Close newsletter']", unique: true }, 'forms: React id rejected');
  eq(await sel('getByRole("link", { name: "Help" })'), { selector: "a[href='/help']", unique: true }, 'forms: hashed id rejected');
  eq(await fx.count('getByLabel("Email")'), 2, 'forms: getByLabel substring');
  eq(await fx.count('getByLabel("Email", { exact: true })'), 1, 'forms: getByLabel exact');
  eq(await fx.count('getByLabel("Secret")'), 1, 'forms: getByLabel ignores visibility');
  eq(await fx.count('getByRole("textbox", { name: "Secret" })'), 0, 'forms: getByRole skips hidden');
  eq(await fx.count('getByRole("textbox", { name: "Secret", includeHidden: true })'), 1, 'forms: includeHidden');
  eq(await fx.count('getByRole("radio", { checked: true })'), 1, 'forms: checked');
  eq(await fx.count('getByRole("group", { name: "Plan" }).getByRole("radio")'), 2, 'forms: fieldset scope');
  const c = await coverage(fx);
  check(c.ratio >= 0.97, 'forms: coverage at least 97%', c);

  const form = await fx.ok('readHtml', { mode: 'form' });
  console.log(`readHtml form forms.html: ${form.size_before} -> ${form.size_after} chars, ${form.interactive_kept} interactive kept`);
  eq(form.interactive_kept, c.refs, 'forms: form mode keeps every interactive element');
  check(form.html.includes('<legend>Your details</legend>'), 'forms: legends kept');
  check(form.html.includes('<small id="email-help">We never share your email.</small>'), 'forms: help text kept', form.html);
  check(form.html.includes('name="password"') && form.html.includes('value="••••••••"') && !form.html.includes('hunter2'), 'forms: password masked');
  check(/<option value="fr" selected>France<\/option>/.test(form.html), 'forms: live selection');
  check(/<textarea id="bio" name="bio" data-ref="e\d+">Hello<\/textarea>/.test(form.html), 'forms: textarea value', form.html);
  check(!form.html.includes('Secret') && !form.html.includes('Invisible hint'), 'forms: invisible content dropped');
  check(!form.html.includes('Get the latest news'), 'forms: prose outside forms dropped');
  check(!form.html.includes('onsubmit'), 'forms: handlers dropped');
  const text = await fx.ok('readHtml', { mode: 'text' });
  check(text.html.includes('<p>Get the latest news. <em>No spam.</em></p>'), 'forms: text mode keeps prose', text.html);
  const before = await fx.inPage('function () { return document.documentElement.outerHTML; }');
  await fx.ok('readHtml', { mode: 'full' });
  eq(await fx.inPage('function () { return document.documentElement.outerHTML; }') === before, true, 'forms: the page is not written to');
}

async function frame(browser) {
  const fx = await new Fixture(browser, 'frame.html').open();
  const child = fx.frames[1];
  check(child && child.prefix === 'f1_', 'frame: child frame injected', fx.frames.map((f) => f.prefix));
  const b = await fx.ref('getByTestId("card").filter({ hasText: "Two" }).getByRole("button")', child);
  check(/^f1_e\d+$/.test(b), 'frame: refs carry the frame prefix', b);
  const rc = await fx.call('resolveContainer', [b], child);
  eq(rc.ok && rc.ok.ancestors[0].contains_refs.refs, [b], 'frame: contains_refs are frame-qualified');
  const ip = await fx.call('inspectPattern', [b, 1], child);
  eq(ip.ok && ip.ok.siblings.map((s) => s.contains_refs.refs[0]), [await fx.ref('getByRole("button").first()', child), b], 'frame: pattern refs');
}

// The reduction of readHtml on the large fixtures.
async function reductions(browser) {
  for (const [file, dir] of [['noisy.html', fixtures], ['budget.html', join(fixtures, '..', 'snapshot')]]) {
    const fx = new Fixture(browser, file);
    fx.open = Fixture.prototype.open;
    const page = await openPage(browser, pathToFileURL(join(dir, file)).href);
    fx.page = page;
    fx.frames = await injectFrames(page, bundle);
    await fx.call('snapshot', [{}]);
    const sizes = {};
    for (const mode of ['full', 'form', 'text']) {
      const r = await fx.ok('readHtml', { mode, max_chars: 1e7 });
      sizes[mode] = r;
      console.log(`readHtml ${mode} ${file}: ${r.size_before} -> ${r.size_after} chars ` +
        `(${(100 * r.size_after / r.size_before).toFixed(1)}%), ${r.interactive_kept} interactive kept`);
    }
    if (file === 'noisy.html') {
      check(sizes.full.size_after < 0.5 * sizes.full.size_before, 'noisy: full at least halves the markup');
      check(sizes.form.size_after < 0.1 * sizes.form.size_before, 'noisy: form under 10%');
      check(sizes.text.size_after < 0.2 * sizes.text.size_before, 'noisy: text under 20%');
      const full = await fx.ok('readHtml', { mode: 'full', max_chars: 1e7 });
      check(!/<path|onclick|data-track|srcset|style=|Sign in|Only \d left/.test(full.html), 'noisy: noise and hidden content dropped');
      await coverage(fx);
    }
  }
}

async function main() {
  const browser = new Browser();
  process.on('SIGINT', () => { browser.close(); process.exit(130); });
  let status = 0;
  try {
    await browser.send('Target.setDiscoverTargets', { discover: false });
    for (const run of [gridTestId, gridClasses, bare, table, shadow, wide, deep, forms, frame, reductions]) await run(browser);
    console.log(`explore-check: ${passes} passed, ${failures} failed`);
    status = failures === 0 ? 0 : 1;
  } catch (e) {
    console.error(e.stack || String(e));
    status = 1;
  } finally {
    browser.close();
  }
  process.exit(status);
}

main();
