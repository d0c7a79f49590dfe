// ladder.js -- the description ladder: the element a plain-words
// description ("the Sign in button") means, for an action given no ref,
// and what was tried when nothing visible matches.  The fallback of
// findByDescription in actions.js; refs from a snapshot are the reliable
// way to name an element.

import * as N from './natives.js';
import { normalize } from './dom.js';
import { getRole } from './roles.js';
import { accessibleName } from './name.js';
import { Ctx, isHiddenForAria } from './visibility.js';
import { badArgument } from './errors.js';
import { clip, isVisible } from './actions.js';
import { isRefWorthy } from './refworthy.js';


const ROLE_WORDS = [
  [/\bbuttons?\b/i, 'button'], [/\blinks?\b/i, 'link'], [/\bcheck ?box(es)?\b/i, 'checkbox'],
  [/\bradio( button)?s?\b/i, 'radio'], [/\b(text ?box|field|input)s?\b/i, 'textbox'],
  [/\b(combo ?box|select|dropdown)s?\b/i, 'combobox'], [/\btabs?\b/i, 'tab'],
  [/\bmenu ?items?\b/i, 'menuitem'], [/\bheadings?\b/i, 'heading'], [/\bswitch(es)?\b/i, 'switch'],
  [/\bsliders?\b/i, 'slider'], [/\boptions?\b/i, 'option'],
];
const FILLER_WORDS = 'click|press|tap|hover|on|over|the|a|an|type|into|in|fill|select|choose|check|uncheck|open';
const FILLER = new RegExp('\\b(' + FILLER_WORDS + ')\\b', 'gi');
// The filler words a description starts with ("click the", "type into").
const LEADING_FILLER = new RegExp('^\\s*((' + FILLER_WORDS + ')\\s+)+', 'i');

function phrasesOf(desc) {
  const quoted = [];
  const re = /["\u201c\u2018']([^"\u201d\u2019']+)["\u201d\u2019']/g;
  let m;
  while ((m = re.exec(desc)) !== null) quoted.push(normalize(m[1]));
  let hint = null;
  for (const [re2, role] of ROLE_WORDS) {
    if (re2.test(desc)) {
      hint = role;
      break;
    }
  }
  if (quoted.length) return { phrases: quoted, hint };
  // The words as given (a role word aside) first: "Sign in" is a name,
  // and "in" a word of it; then without the filler words it starts with
  // ("click the Sign in button" -> "Sign in"), then without any.
  let named = desc;
  for (const [re2] of ROLE_WORDS) named = named.replace(re2, ' ');
  named = normalize(named);
  const lead = normalize(named.replace(LEADING_FILLER, ''));
  const bare = normalize(named.replace(FILLER, ' '));
  const phrases = [];
  for (const p of [named, lead, bare]) if (p && !phrases.includes(p)) phrases.push(p);
  return { phrases: phrases.length ? phrases : [normalize(desc)], hint };
}

function allElements() {
  const out = [];
  const walk = (root) => {
    const list = N.nodeType(root) === N.DOCUMENT_NODE ? N.docQuerySelectorAll(root, '*')
      : N.fragQuerySelectorAll(root, '*');
    for (let i = 0; i < list.length; i++) {
      out.push(list[i]);
      const sr = N.shadowRoot(list[i]);
      if (sr) walk(sr);
    }
  };
  walk(document);
  return out;
}

// True when a, normalized, is b, case aside (a label or text a description
// or a select's value names).
export function eq(a, b) {
  return normalize(String(a || '')).toLowerCase() === b.toLowerCase();
}

function ownText(el) {
  const t = el.innerText;
  return normalize(String(t === undefined ? N.textContent(el) : t));
}

// The four rungs of the ladder: each returns every element matching phrase.
function rungs(ctx, els, phrase, hint) {
  const out = { role: [], label: [], placeholder: [], text: [] };
  const lower = phrase.toLowerCase();
  for (const el of els) {
    const tag = N.localName(el);
    if (tag === 'script' || tag === 'style' || tag === 'head' || tag === 'html') continue;
    const role = hint ? getRole(el) : null;
    if (hint && role === hint && eq(accessibleName(ctx, el, role, false), phrase)) out.role.push(el);
    const labels = (tag === 'input' || tag === 'textarea' || tag === 'select') ? ctx.labelsOf(el) : [];
    if (labels.some((l) => eq(ownText(l), phrase)) || eq(N.getAttribute(el, 'aria-label'), phrase)) {
      out.label.push(el);
    }
    if (eq(N.getAttribute(el, 'placeholder'), phrase)) out.placeholder.push(el);
    const text = ownText(el);
    if (text && text.toLowerCase() === lower) out.text.push(el);
  }
  // For text, the innermost element wins over its ancestors.
  out.text = out.text.filter((el) => !out.text.some((o) => o !== el && N.contains(el, o)));
  return out;
}

// The visible elements of list, at most max of them.
function visibleOf(ctx, list, max) {
  const out = [];
  for (const el of list) {
    if (isVisible(el) && !isHiddenForAria(ctx, el)) out.push(el);
    if (out.length >= max) break;
  }
  return out;
}

// True when an action could act on el: a control by its tag or role (an
// element with a pointer cursor aside, which a text may well have).
function actionable(el) {
  return isRefWorthy(el, N.localName(el), getRole(el), false, false, undefined, undefined);
}

// Candidates a refusal lists, and how much of each one's surroundings.
const SHOWN = 5;
const AROUND_CHARS = 60;

// The text that tells el apart from the other candidates: that of its
// largest ancestor holding no other candidate (a card, a row, a list
// item), else its own.
function around(el, others) {
  let best = el;
  for (let p = N.parentNode(el); p && N.nodeType(p) === N.ELEMENT_NODE; p = N.parentNode(p)) {
    if (others.some((o) => o !== el && N.contains(p, o))) break;
    best = p;
  }
  return clip(ownText(best), AROUND_CHARS);
}

// The refusal of a description several visible elements match alike:
// each candidate (up to SHOWN) with its ref, role, name and the text
// around it, so the caller can pass the ref it means.
function ambiguity(ctx, desc, phrase, by, els, refOf) {
  const candidates = els.slice(0, SHOWN).map((el) => {
    const role = getRole(el);
    return { ref: refOf(el), role: role || N.localName(el),
      name: clip(accessibleName(ctx, el, role, false), AROUND_CHARS), around: around(el, els) };
  });
  const more = els.length > SHOWN;
  const message = JSON.stringify(desc) + ' matches ' + (more ? 'more than ' + SHOWN : els.length) +
    ' visible elements alike (by ' + by + ' ' + JSON.stringify(phrase) + '; the candidates: ' +
    candidates.map((c) => c.ref).join(', ') + (more ? ', …' : '') +
    '). Nothing was done: pass the ref of the one you mean, or a description only one element matches.';
  return { message, description: desc, phrase, by, count: more ? null : els.length, candidates };
}

function missReport(desc, tried) {
  const links = [];
  // Links in open shadow roots too (a shop's cards are components).
  const anchors = allElements().filter((el) => N.localName(el) === 'a' && N.hasAttribute(el, 'href'));
  for (let i = 0; i < anchors.length && links.length < 10; i++) {
    const a = anchors[i];
    if (!isVisible(a)) continue;
    links.push({ text: clip(ownText(a) || N.getAttribute(a, 'aria-label'), 60), href: a.href });
  }
  let href = null;
  for (const { phrase } of tried) {
    for (let i = 0; i < anchors.length && !href; i++) {
      if (eq(ownText(anchors[i]), phrase) || eq(N.getAttribute(anchors[i], 'aria-label'), phrase)) {
        href = anchors[i].href;
      }
    }
  }
  const parts = tried.map((t) => JSON.stringify(t.phrase) + ' (' + (t.role ? 'role ' + t.role + ' ' +
    t.by_role + ', ' : '') + 'label ' + t.by_label + ', placeholder ' + t.by_placeholder + ', text ' +
    t.by_text + ' matches, none visible)');
  let message = 'nothing visible matches ' + JSON.stringify(desc) + ': tried ' + parts.join('; ') +
    ' on ' + String(document.URL) + '.';
  if (href) message += ' A link with that text points to ' + href + '; page:navigate() can go there directly.';
  if (links.length) {
    message += ' Links on the page: ' + links.map((l) => JSON.stringify(l.text) + ' -> ' + l.href).join(', ') + '.';
  }
  message += ' Take a snapshot and use its refs: they are the reliable way to name an element.';
  return { message, description: desc, tried, links, href, url: String(document.URL) };
}

// The answer of findByDescription for el; el itself is not enumerable,
// so it stays in the page (describedOther reads it).
function found(el, by, phrase, refOf) {
  const out = { ref: refOf(el), by, phrase };
  Object.defineProperty(out, 'el', { value: el, enumerable: false });
  return out;
}

// Finds the element a plain-words description means.  Quoted phrases,
// else the words as given and then without filler words; for each phrase role (+ name, when a role is hinted), label,
// placeholder, text; the first rung with a visible match decides, and
// its match is given a ref by refOf.  A rung with several visible matches
// names no element: acting on the first of them would be a guess.
// { ref, by, phrase }, { ambiguous: { message, count, candidates, … } } or
// { miss: { description, tried, links, href, url } }.
export function findByDescription(desc, refOf) {
  if (typeof desc !== 'string' || !desc.trim()) throw badArgument('findByDescription: empty description');
  const ctx = new Ctx();
  const els = allElements();
  const { phrases, hint } = phrasesOf(desc);
  const tried = [];
  for (const phrase of phrases) {
    const r = rungs(ctx, els, phrase, hint);
    for (const by of ['role', 'label', 'placeholder', 'text']) {
      const shown = visibleOf(ctx, r[by], SHOWN + 1);
      if (shown.length === 1) return found(shown[0], by, phrase, refOf);
      if (shown.length > 1) {
        // A button and a column header both reading "Actions": the one an
        // action can act on is meant.
        const acting = shown.filter(actionable);
        if (acting.length === 1) return found(acting[0], by, phrase, refOf);
        return { ambiguous: ambiguity(ctx, desc, phrase, by, acting.length > 1 ? acting : shown, refOf) };
      }
    }
    tried.push({ phrase, role: hint, by_role: r.role.length, by_label: r.label.length,
      by_placeholder: r.placeholder.length, by_text: r.text.length });
  }
  return { miss: missReport(desc, tried) };
}

// What a description given with a ref says of the ref's element el: null
// when they agree (a word of the description, role and filler words aside,
// is in el's name, label, text, placeholder or title; or it names no such
// word), else { role, name } of el and, as other, the element the
// description finds alone on the page ({ ref, role, name }) when it has
// el's role, or null.  A
// ref from before a reload can name another element now (refs are given
// anew per document): the description is how an agent says what it meant.
export function describedOther(el, desc, refOf) {
  if (typeof desc !== 'string' || !desc.trim()) return null;
  let bare = desc.replace(/["\u201c\u201d\u2018\u2019]/g, ' ');
  for (const [re] of ROLE_WORDS) bare = bare.replace(re, ' ');
  const words = normalize(bare.replace(FILLER, ' ')).toLowerCase().split(' ').filter((w) => w.length > 1);
  if (words.length === 0) return null;
  const ctx = new Ctx();
  const role = getRole(el);
  const name = accessibleName(ctx, el, role, false);
  const tag = N.localName(el);
  const labels = (tag === 'input' || tag === 'textarea' || tag === 'select') ? ctx.labelsOf(el).map(ownText) : [];
  const own = [name, ownText(el), N.getAttribute(el, 'placeholder'), N.getAttribute(el, 'title'), ...labels]
    .map((t) => normalize(String(t || '')).toLowerCase()).join(' ');
  if (words.some((w) => own.includes(w))) {
    // A shared word is agreement, unless the description is the whole name
    // of another control (a click said "Add product" on the textbox
    // "Product name": the button of that name was meant).
    const phrase = words.join(' ');
    const mine = normalize(name).toLowerCase();
    if (!mine || mine.includes(phrase) || phrase.includes(mine)) return null;
    const hit = findByDescription(desc, refOf);
    const o = typeof hit.ref === 'string' ? hit.el : null;
    if (o === null || o === el || !actionable(o)) return null;
    const orole = getRole(o);
    const oname = accessibleName(ctx, o, orole, false);
    if (normalize(oname).toLowerCase() !== phrase) return null;
    return { role: role || tag, name: clip(name, 80), other: { ref: hit.ref, role: orole || N.localName(o), name: clip(oname, 80) } };
  }
  const found = findByDescription(desc, refOf);
  let other = null;
  if (typeof found.ref === 'string') {
    const o = found.el;
    const orole = getRole(o);
    // Only an element of the same role is another one meant: "Modern
    // Lamp" said of its card's button names the card, not a mistake.
    if (o !== el && orole === role) other = { ref: found.ref, role: orole || tag, name: clip(accessibleName(ctx, o, orole, false), 80) };
  }
  return { role: role || tag, name: clip(name, 80), other };
}
