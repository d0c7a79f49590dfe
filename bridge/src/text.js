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

export const FRAME_MARK = String.fromCharCode(1) + 'frame:';

// Returns { text, refCount, frames }.
export function render(top, env, maxDepth) {
  const out = { lines: [], refCount: 0, frames: [], env, maxDepth };
  for (const child of top.children) renderNode(out, child, '', 0);
  return { text: out.lines.join('\n'), refCount: out.refCount, frames: out.frames };
}

function renderNode(out, node, indent, depth) {
  if (depth > out.maxDepth) return;
  if (typeof node === 'string') {
    out.lines.push(indent + '- text: ' + yamlValue(node));
    return;
  }
  let key = indent + '- ' + node.role;
  if (node.name) {
    const shown = displayName(node.name);
    key += ' ' + JSON.stringify(shown.text);
    if (shown.length > 0) key += ' [name=' + shown.length + ' chars]';
  }
  key += node.states;
  if (node.wantsRef) {
    const ref = out.env.refs.assign(node.el, node.role, node.name, node.tag);
    key += ' [ref=' + ref + ']';
    out.refCount++;
  }
  if (node.frame !== undefined) {
    out.lines.push(key + ':');
    out.lines.push(indent + '  ' + FRAME_MARK + node.frame);
    out.frames.push(node.frame);
    return;
  }
  const kids = node.children;
  const hasValue = node.value != null && node.value !== '';
  const extra = node.url != null || (hasValue && kids.length > 0);
  if (!extra && kids.length === 0) {
    out.lines.push(hasValue ? key + ': ' + yamlValue(node.value) : key);
    return;
  }
  if (!extra && kids.length === 1 && typeof kids[0] === 'string') {
    out.lines.push(key + ': ' + yamlValue(kids[0]));
    return;
  }
  if (depth + 1 > out.maxDepth) {
    // The depth limit cuts this node's child lines: say how many.
    const hidden = kids.length + (node.url != null ? 1 : 0) + (hasValue && kids.length > 0 ? 1 : 0);
    out.lines.push(key + ' [+' + hidden + ']');
    return;
  }
  out.lines.push(key + ':');
  const inner = indent + '  ';
  if (node.url != null) out.lines.push(inner + '- /url: ' + yamlValue(node.url));
  if (hasValue && kids.length > 0) out.lines.push(inner + '- /value: ' + yamlValue(node.value));
  for (const child of kids) renderNode(out, child, inner, depth + 1);
}

const PLAIN_UNSAFE_START = /^(?:[,[\]{}#&*!|>'"%@`\s]|[-?:](?:\s|$))/;
const LOOKS_TYPED = /^(?:true|false|yes|no|on|off|null|~|[-+]?(?:\d[\d_]*)?\.?\d+(?:e[-+]?\d+)?)$/i;

// A scalar as YAML: plain when that reads back as the same string, else a
// JSON-quoted string.
export function yamlValue(s) {
  const str = String(s);
  if (str === '' || PLAIN_UNSAFE_START.test(str) || /\s$/.test(str) || LOOKS_TYPED.test(str) ||
      str.includes(': ') || str.includes(' #') || /[\u0000-\u001f\u007f]/.test(str) ||
      str.endsWith(':')) {
    return JSON.stringify(str);
  }
  return str;
}
