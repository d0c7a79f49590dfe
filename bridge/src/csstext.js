// csstext.js -- the text CSS adds to or changes in a name (accname 1.2,
// 2F.ii and the rendering it refers to): ::before/::after content and its
// alternative text, and text-transform.  Used by name.js.

import * as N from './natives.js';
import { attr } from './dom.js';
import { countersAt, formatCounter } from './counters.js';

const ASCII_SPACES = /[ \t\n\f\r]+/g;

// Collapses ASCII white space runs without trimming.
function collapse(s) {
  return s.replace(ASCII_SPACES, ' ');
}

// text as rendered under el's text-transform (uppercase, lowercase,
// capitalize), which screen readers hear and Chromium's tree reports.
// el is the text's parent: a shadow root stands for its host.
export function transformed(ctx, el, text) {
  if (el !== null && N.nodeType(el) === N.DOCUMENT_FRAGMENT_NODE) el = N.shadowHost(el);
  if (el === null || N.nodeType(el) !== N.ELEMENT_NODE || !ctx.mayTransform(el)) return text;
  switch (ctx.textTransform(el)) {
    case 'uppercase': return text.toUpperCase();
    case 'lowercase': return text.toLowerCase();
    case 'capitalize': return text.replace(/(^|[\s\u00a0\-(])(\p{L})/gu, (m, a, b) => a + b.toUpperCase());
    default: return text;
  }
}

// The parts of a content value that render text: a string, attr(name),
// counter(name[, style]) and counters(name, "sep"[, style]).
const CONTENT_PART = '"((?:[^"\\\\]|\\\\.)*)"|attr\\(\\s*([\\w-]+)\\s*\\)|' +
  '(counters?)\\(\\s*([\\w-]+)\\s*(?:,\\s*"((?:[^"\\\\]|\\\\.)*)"\\s*)?(?:,\\s*([\\w-]+)\\s*)?\\)';

// The text a ::before or ::after pseudo-element renders: its strings and
// attr() values, or the alternative text after a "/" when one is given,
// with the values of the counters it names.  Images (url(), gradients)
// give only their alternative text, and counters outside it nothing (as
// Chromium's tree reads them); a pseudo-element that is not rendered gives
// nothing; one that is not inline, that holds an image or that has
// alternative text is set apart by spaces.
export function pseudoText(ctx, el, which) {
  let cs;
  try {
    cs = N.computedStyle(el, which);
  } catch (e) {
    ctx.fail(el);
    return '';
  }
  const content = cs.content;
  if (!content || content === 'none' || content === 'normal') return '';
  if (cs.display === 'none' || cs.visibility === 'hidden' || cs.visibility === 'collapse') return '';
  const slash = topLevelSlash(content);
  const source = slash >= 0 ? content.slice(slash + 1) : stripFunctions(content);
  let out = '';
  let counters = null;
  const re = new RegExp(CONTENT_PART, 'gi');
  let m;
  while ((m = re.exec(source)) !== null) {
    if (m[1] !== undefined) {
      out += unescapeCss(m[1]);
    } else if (m[2] !== undefined) {
      out += attr(el, m[2]) || '';
    } else {
      // counter(name, style) or counters(name, "sep", style): a counter not
      // in scope is a new one at 0 (CSS Lists 3).
      if (counters === null) counters = countersAt(ctx, el, which);
      const values = counters.get(m[4]) || [0];
      if (m[3].length === 7) out += formatCounter(values[values.length - 1], m[6]);
      else out += values.map((v) => formatCounter(v, m[6])).join(unescapeCss(m[5] || ''));
    }
  }
  if (!out) return '';
  out = collapse(out);
  // Alternative text stands for the whole pseudo-element, as an image's
  // alt does: it is set apart (Chromium's tree agrees).
  const image = slash >= 0 || /\b(?:url|image-set|[\w-]*gradient|image)\(/i.test(content);
  // Inline text runs on into the element's own, unless padding or a margin
  // sets it apart on screen (the conformance tests' pseudo-elements are
  // padded and expect a space; Chromium joins them).
  const apart = !image && cs.display === 'inline' && isZero(cs.paddingLeft) && isZero(cs.paddingRight) &&
    isZero(cs.marginLeft) && isZero(cs.marginRight);
  return apart ? out : ' ' + out + ' ';
}

function isZero(length) {
  return !length || parseFloat(length) === 0;
}

// content without its url(...), image and counter functions, quoted
// arguments included: an image renders no text, and Chromium's tree reads
// no counter outside alternative text.
function stripFunctions(content) {
  let out = '';
  let i = 0;
  const re = /\b(?:url|image-set|[\w-]*gradient|counters?|image)\(/gi;
  let m;
  while ((m = re.exec(content)) !== null) {
    out += content.slice(i, m.index);
    let depth = 1;
    let j = m.index + m[0].length;
    let quote = '';
    for (; j < content.length && depth > 0; j++) {
      const c = content[j];
      if (c === '\\') { j++; continue; }
      if (quote) { if (c === quote) quote = ''; continue; }
      if (c === '"' || c === "'") quote = c;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
    }
    i = j;
    re.lastIndex = j;
  }
  return out + content.slice(i);
}

function topLevelSlash(s) {
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') { i++; continue; }
    if (c === '"') quoted = !quoted;
    else if (c === '/' && !quoted) return i;
  }
  return -1;
}

function unescapeCss(s) {
  return s.replace(/\\([0-9a-fA-F]{1,6}\s?|.)/g, (all, seq) => {
    if (/^[0-9a-fA-F]/.test(seq)) return String.fromCodePoint(parseInt(seq, 16));
    return seq;
  });
}
