// text.js -- renders the snapshot tree as YAML-like text in the style of
// Playwright's aria snapshots:
//
//   - heading "Shop" [level=1]
//   - textbox "Email" [ref=e4]: a@b.c
//   - link "Home" [ref=e5]:
//     - /url: /home
//   - iframe "Ads" [ref=e6]:
//     \u0001frame:KEY
//   - list [+10]          (the depth limit hid its 10 child lines)
//
// Refs are handed out here, so only elements that appear in the text get one.

import { displayName } from './name.js';
import { noteRef } from './still.js';

export const FRAME_MARK = String.fromCharCode(1) + 'frame:';

// The longest name the aria dialect prints; a longer one is left off, as
// Playwright leaves it off (a YAML key holds at most 1,024 characters).
export const ARIA_NAME_MAX = 900;

// keepNames: print every name, also those the child lines print whole
// (the host will cut the text at a depth).  aria: Playwright's
// aria-snapshot dialect (what toMatchAriaSnapshot takes): no refs, a
// name printed whole, or left off past ARIA_NAME_MAX characters, and a
// text whole, not cut at MAX_RUN.
// Returns { lines, refLines, frames, openListbox }: the text's lines, the
// index of the line of each ref, the frame keys, and the first line of a
// listbox whose walk was cut short (node.open; Infinity when none).
export function render(top, env, maxDepth, keepNames, aria) {
  const out = { lines: [], refLines: [], frames: [], openListbox: Infinity, env, maxDepth, keepNames, aria };
  for (const child of top.children) renderNode(out, child, '', 0);
  return out;
}

// A scalar of a line: cut to MAX_RUN (yamlValue), or whole in the aria
// dialect, which a test compares whole.
function scalar(out, s) {
  if (!out.aria) return yamlValue(s);
  const str = String(s);
  return needsQuotes(str) ? quoted(str) : str;
}

function renderNode(out, node, indent, depth) {
  if (depth > out.maxDepth) return;
  if (typeof node === 'string') {
    out.lines.push(indent + '- text: ' + scalar(out, node));
    return;
  }
  if (node.open === true && out.openListbox === Infinity) out.openListbox = out.lines.length;
  // A name the child lines print whole is left off (tidy.js), unless the
  // depth limit hides those lines or the host cuts the text at a depth
  // (keepNames).
  let key = nodeKey(out, node, !(node.nameByKids && !out.keepNames && depth + node.nameByKids <= out.maxDepth));
  const raw = key;
  key = indent + '- ' + yamlKey(key);
  if (node.frame !== undefined) {
    out.lines.push(key + ':');
    out.lines.push(indent + '  ' + FRAME_MARK + node.frame);
    out.frames.push(node.frame);
    return;
  }
  const kids = node.children;
  const hasValue = node.value != null && node.value !== '';
  const url = node.url != null;
  const placeholder = !!node.placeholder;
  const props = (url ? 1 : 0) + (placeholder ? 1 : 0);
  // The value of a control is its text, as in Playwright; beside child
  // lines it is the /value property.
  const valueLine = hasValue && (kids.length > 0 || props > 0);
  if (props === 0 && kids.length === 0) {
    out.lines.push(hasValue ? key + ': ' + scalar(out, node.value) : key);
    return;
  }
  if (props === 0 && !valueLine && kids.length === 1 && typeof kids[0] === 'string') {
    out.lines.push(key + ': ' + scalar(out, kids[0]));
    return;
  }
  if (depth + 1 > out.maxDepth) {
    // The depth limit cuts this node's child lines: say how many.
    const hidden = kids.length + props + (valueLine ? 1 : 0);
    out.lines.push(indent + '- ' + yamlKey(raw + ' [+' + hidden + ']'));
    return;
  }
  out.lines.push(key + ':');
  const inner = indent + '  ';
  if (url) out.lines.push(inner + '- /url: ' + scalar(out, node.url));
  if (placeholder) out.lines.push(inner + '- /placeholder: ' + scalar(out, node.placeholder));
  if (valueLine) out.lines.push(inner + (kids.length > 0 ? '- /value: ' : '- text: ') + scalar(out, node.value));
  for (const child of kids) renderNode(out, child, inner, depth + 1);
}

// A node's key, `role "name" [states] [ref=eN]`, unquoted; withName false
// leaves the name off.  Gives the node its ref (the registry's, the same
// element keeps it), counted as on the line out.lines is at.
export function nodeKey(out, node, withName) {
  let key = node.role;
  if (out.aria) {
    if (node.name && node.name.length <= ARIA_NAME_MAX) key += ' ' + quoted(node.name);
  } else if (node.name && withName) {
    const shown = displayName(node.name);
    key += ' ' + quoted(shown.text);
    if (shown.length > 0) key += ' [name=' + shown.length + ' chars]';
  }
  key += node.states;
  if (node.wantsRef && !out.aria) {
    // A details group carries its summary's ref (see snapshot.js): the
    // registry records the element the ref acts on.
    const r = node.refTarget;
    const ref = r ? out.env.refs.assign(r.el, r.role, r.name, r.tag)
      : out.env.refs.assign(node.el, node.role, node.name, node.tag);
    if (out.env.building) noteRef(out.env.building, r ? r.el : node.el);
    key += ' [ref=' + ref + ']';
    out.refLines.push(out.lines.length);
  }
  return key;
}

// Plain scalars YAML (1.1 or 1.2) would read as something else or fail to
// read: Playwright's list (leading indicators, ": ", " #", braces,
// backticks, numbers, y/n/yes/no/true/false/on/off/null in any case) and
// the other typed forms of YAML 1.1: ~, .inf/.nan, dates, sexagesimal
// and underscored numbers, the merge and value keys.
const UNSAFE_START = /^(?:[-&*\],?!>|@"'#%~\[]|\s)/;
const UNSAFE_ANYWHERE = /[\n:](?:\s|$)|\s#|[{}`]|\s$/;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
const TYPED = new RegExp('^(?:y|n|yes|no|true|false|on|off|null|=|<<|[-+]?\\.(?:inf|nan)|' +
  '\\d{4}-\\d\\d?-\\d\\d?(?:[Tt ].*)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?|' +
  '[-+]?(?:[0-9][0-9_]*)?\\.?[0-9_]+(?:e[-+]?[0-9]+)?)$', 'i');

function needsQuotes(s) {
  return plainScalar(s) ? false : s === '' || UNSAFE_START.test(s) || UNSAFE_ANYWHERE.test(s) ||
    CONTROL.test(s) || /[\n\r\t]/.test(s) || !Number.isNaN(Number(s)) || TYPED.test(s);
}

// True when s, by one scan, needs no quotes: it is longer than any word
// of TYPED (the longest is "false"), starts with an ASCII letter but "I"
// (not "Infinity", a Number), and goes on with only ASCII letters, digits
// and the punctuation that can make no scalar need quotes (not ':', '#',
// braces or the backtick, which may), with single spaces between them.
// Anything else takes the full test.  A regular expression, not a loop
// over the characters: a fresh document's world runs this code cold, in
// V8's interpreter, where the native scan costs a fraction of the loop.
const PLAIN_SCALAR =
  /^[A-HJ-Za-z](?:[0-9A-Za-z!"$%&'()*+,\-./;<=>?@[\\\]^_|~]| (?=[0-9A-Za-z!"$%&'()*+,\-./;<=>?@[\\\]^_|~]))*$/;
function plainScalar(s) {
  return s.length > 5 && PLAIN_SCALAR.test(s);
}

// A string in double quotes, escaped for both JSON and YAML (JSON leaves
// C1 controls, U+2028/2029 and the BOM raw; YAML 1.1 reads some of them
// as line breaks).
function quoted(s) {
  if (printableAscii(s)) return '"' + s + '"';
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

// True when s holds only printable ASCII but the double quote and the
// backslash: nothing in it needs escaping.
const NOT_PRINTABLE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;
function printableAscii(s) {
  return !NOT_PRINTABLE.test(s);
}

// The most characters of one text run (a text node, a value, a URL) a
// line shows: one long paragraph must not fill the whole budget (or a
// 10 MB reply) by itself.  The rest is left out with a mark that says how
// much; browser_find(text=…) still finds a line by any part of its text.
export const MAX_RUN = 4000;

// s cut to MAX_RUN characters (never between the halves of a surrogate
// pair), marked "…(N more characters)".
export function cutRun(s) {
  if (s.length <= MAX_RUN) return s;
  let end = MAX_RUN;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end) + '…(' + (s.length - end) + ' more characters)';
}

// A scalar as YAML, cut to MAX_RUN (see cutRun): plain when that reads
// back as the same string, else double-quoted.
export function yamlValue(s) {
  const str = cutRun(String(s));
  return needsQuotes(str) ? quoted(str) : str;
}

// A line's key (`role "name" [states]`) as YAML: in single quotes when a
// name in it would end the key early or start a comment.
export function yamlKey(key) {
  return needsQuotes(key) ? "'" + key.replace(/'/g, "''") + "'" : key;
}
