// locparse.js -- the parser of Playwright locator expressions, as an agent
// writes them in a test:
//
//   page.getByTestId("product-card").filter({ hasText: /iPhone 15/i })
//       .getByRole("button", { name: "Add to Cart", exact: true }).first()
//
// A chain of method calls with an optional leading `page.`.  Arguments are
// strings (' " or ` without ${}), regular expression literals, integers,
// true/false, objects with identifier or string keys, and nested locator
// chains (for `has`, `and`, `or`, `locator`).  Anything else throws
// `LocatorSyntax: <what> at column N:` followed by the excerpt and a caret.
//
// The result is { steps: [{ method, args, col }] }; a value is
// { kind: 'string'|'regex'|'number'|'bool'|'object'|'locator', ... , col }.

import { bridgeError } from './errors.js';

// The arguments each method takes: a list of kinds per position (the
// first is required unless marked optional), and the option keys with
// their kinds.
const TEXTUAL = { args: [['string', 'regex']], opts: { exact: ['bool'] } };
const FILTER_OPTS = {
  hasText: ['string', 'regex'], hasNotText: ['string', 'regex'], has: ['locator'], hasNot: ['locator'],
};
export const METHODS = {
  getByRole: {
    args: [['string']],
    opts: {
      name: ['string', 'regex'], exact: ['bool'], includeHidden: ['bool'], checked: ['bool'],
      disabled: ['bool'], expanded: ['bool'], pressed: ['bool'], selected: ['bool'], level: ['number'],
    },
  },
  getByText: TEXTUAL,
  getByLabel: TEXTUAL,
  getByPlaceholder: TEXTUAL,
  getByAltText: TEXTUAL,
  getByTitle: TEXTUAL,
  getByTestId: { args: [['string', 'regex']], opts: null },
  locator: { args: [['string', 'locator']], opts: FILTER_OPTS },
  filter: { args: [], opts: Object.assign({ visible: ['bool'] }, FILTER_OPTS), optsRequired: true },
  first: { args: [], opts: null },
  last: { args: [], opts: null },
  nth: { args: [['number']], opts: null },
  and: { args: [['locator']], opts: null },
  or: { args: [['locator']], opts: null },
};

class Parser {
  constructor(src) {
    this.src = src;
    this.pos = 0;
  }

  fail(what, at) {
    const pos = at === undefined ? this.pos : at;
    const col = pos + 1;
    throw bridgeError('LocatorSyntax', what + ' at column ' + col + ':\n' + excerpt(this.src, pos),
      { column: col, expression: this.src });
  }

  // What to write for a source that calls no method at all, as a CSS
  // selector reads ("body", "#cart"): run FF gave locator "body".
  cssHint() {
    if (this.src.includes('(')) return '';
    return '; a CSS selector goes in locator(): ' + 'locator(' + jsString(this.src.trim()) + ')';
  }

  ws() {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
  }

  peek() {
    this.ws();
    return this.pos < this.src.length ? this.src[this.pos] : '';
  }

  expect(ch, what) {
    if (this.peek() !== ch) this.fail('expected ' + JSON.stringify(ch) + (what ? ' ' + what : '') + ', found ' + this.found());
    this.pos++;
  }

  found() {
    return this.pos < this.src.length ? JSON.stringify(this.src[this.pos]) : 'the end';
  }

  ident() {
    this.ws();
    const m = /^[A-Za-z_$][\w$]*/.exec(this.src.slice(this.pos));
    if (!m) return null;
    this.pos += m[0].length;
    return m[0];
  }

  // chain := ['page' '.'] call ('.' call)*
  chain() {
    this.ws();
    const start = this.pos;
    if (this.ident() === 'page' && this.peek() === '.') this.pos++;
    else this.pos = start;
    const steps = [this.call()];
    while (this.peek() === '.') {
      this.pos++;
      steps.push(this.call());
    }
    return { steps };
  }

  call() {
    this.ws();
    const col = this.pos;
    const name = this.ident();
    if (name === null) this.fail('expected a locator method, found ' + this.found() + this.cssHint());
    const spec = Object.prototype.hasOwnProperty.call(METHODS, name) ? METHODS[name] : null;
    if (spec === null) {
      this.fail('unknown method ' + JSON.stringify(name) + ' (expected one of ' +
        Object.keys(METHODS).join(', ') + ')' + this.cssHint(), col);
    }
    this.expect('(', 'after ' + name);
    const args = [];
    if (this.peek() !== ')') {
      args.push(this.value());
      while (this.peek() === ',') {
        this.pos++;
        if (this.peek() === ')') break;
        args.push(this.value());
      }
    }
    this.expect(')', 'to close ' + name + '(');
    checkArgs(this, name, spec, args, col);
    return { method: name, args, col };
  }

  value() {
    const c = this.peek();
    const col = this.pos;
    if (c === '"' || c === "'" || c === '`') return { kind: 'string', value: this.string(), col };
    if (c === '/') return this.regex();
    if (c === '{') return this.object();
    if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(?:\.\d+)?/.exec(this.src.slice(this.pos));
      if (!m) this.fail('expected a number');
      this.pos += m[0].length;
      return { kind: 'number', value: Number(m[0]), col };
    }
    const start = this.pos;
    const id = this.ident();
    if (id === 'true' || id === 'false') return { kind: 'bool', value: id === 'true', col };
    if (id === null) this.fail('expected a value, found ' + this.found());
    this.pos = start;
    return { kind: 'locator', chain: this.chain(), col };
  }

  string() {
    const q = this.src[this.pos];
    const start = this.pos;
    this.pos++;
    let out = '';
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos];
      if (ch === q) {
        this.pos++;
        return out;
      }
      if (ch === '\\') {
        out += this.escape();
        continue;
      }
      if (q === '`' && ch === '$' && this.src[this.pos + 1] === '{') this.fail('template substitutions are not supported');
      if ((ch === '\n' || ch === '\r') && q !== '`') this.fail('unterminated string');
      out += ch;
      this.pos++;
    }
    return this.fail('unterminated string', start);
  }

  escape() {
    const n = this.src[this.pos + 1];
    this.pos += 2;
    switch (n) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case 'b': return '\b';
      case 'f': return '\f';
      case 'v': return '\v';
      case '0': return '\0';
      case 'u': {
        const m = /^(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))/.exec(this.src.slice(this.pos));
        if (!m) this.fail('bad \\u escape', this.pos - 2);
        this.pos += m[0].length;
        return String.fromCodePoint(parseInt(m[1] || m[2], 16));
      }
      case 'x': {
        const m = /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.pos));
        if (!m) this.fail('bad \\x escape', this.pos - 2);
        this.pos += 2;
        return String.fromCharCode(parseInt(m[0], 16));
      }
      case undefined: return this.fail('unterminated string');
      default: return n;
    }
  }

  regex() {
    const start = this.pos;
    this.pos++;
    let inClass = false;
    let source = '';
    for (;;) {
      if (this.pos >= this.src.length) this.fail('unterminated regular expression', start);
      const ch = this.src[this.pos];
      if (ch === '\n') this.fail('unterminated regular expression', start);
      if (ch === '\\') {
        source += ch + (this.src[this.pos + 1] || '');
        this.pos += 2;
        continue;
      }
      if (ch === '[') inClass = true;
      else if (ch === ']') inClass = false;
      else if (ch === '/' && !inClass) break;
      source += ch;
      this.pos++;
    }
    this.pos++;
    const m = /^[dgimsuvy]*/.exec(this.src.slice(this.pos));
    this.pos += m[0].length;
    let re;
    try {
      re = new RegExp(source, m[0].replace('g', '').replace('y', ''));
    } catch (e) {
      this.fail('invalid regular expression (' + e.message + ')', start);
    }
    return { kind: 'regex', value: re, col: start };
  }

  object() {
    const col = this.pos;
    this.pos++;
    const props = new Map();
    while (this.peek() !== '}') {
      const kcol = this.pos;
      let key;
      const c = this.peek();
      if (c === '"' || c === "'") key = this.string();
      else key = this.ident();
      if (key === null) this.fail('expected an option name, found ' + this.found());
      if (props.has(key)) this.fail('duplicate option ' + JSON.stringify(key), kcol);
      this.expect(':', 'after ' + key);
      const v = this.value();
      v.keyCol = kcol;
      props.set(key, v);
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== '}') this.fail('expected "," or "}", found ' + this.found());
    }
    this.pos++;
    return { kind: 'object', props, col };
  }
}

// Checks a call's arguments against its spec; the error points at the
// offending argument or option.
function checkArgs(p, name, spec, args, col) {
  const n = spec.args.length;
  const takesOpts = spec.opts !== null;
  if (args.length < n || (spec.optsRequired && args.length === 0)) {
    p.fail(name + '() takes ' + (n || 1) + ' argument' + ((n || 1) > 1 ? 's' : '') +
      ', got ' + args.length, col);
  }
  if (args.length > n + (takesOpts ? 1 : 0)) {
    p.fail(name + '() takes at most ' + (n + (takesOpts ? 1 : 0)) + ' arguments', args[n + (takesOpts ? 1 : 0)].col);
  }
  for (let i = 0; i < n; i++) {
    if (!spec.args[i].includes(args[i].kind)) {
      p.fail(name + '() argument ' + (i + 1) + ' must be ' + spec.args[i].join(' or ') + ', got ' + args[i].kind,
        args[i].col);
    }
  }
  if (args.length > n) {
    const o = args[n];
    if (o.kind !== 'object') p.fail(name + '() options must be an object, got ' + o.kind, o.col);
    for (const [key, v] of o.props) {
      if (!Object.prototype.hasOwnProperty.call(spec.opts, key)) {
        p.fail('unknown option ' + JSON.stringify(key) + ' for ' + name + '() (expected ' +
          Object.keys(spec.opts).join(', ') + ')', v.keyCol);
      }
      if (!spec.opts[key].includes(v.kind)) {
        p.fail('option ' + key + ' must be ' + spec.opts[key].join(' or ') + ', got ' + v.kind, v.col);
      }
    }
  }
  if (name === 'nth' && !Number.isInteger(args[0].value)) p.fail('nth() takes an integer', args[0].col);
}

// The expression around pos on one line, and a caret under pos.
function excerpt(src, pos) {
  const flat = src.replace(/[\r\n\t]/g, ' ');
  const WIDTH = 60;
  let start = 0;
  let end = flat.length;
  if (end > WIDTH) {
    start = Math.max(0, Math.min(pos - (WIDTH >> 1), flat.length - WIDTH));
    end = Math.min(flat.length, start + WIDTH);
  }
  const pre = start > 0 ? '\u2026' : '';
  const post = end < flat.length ? '\u2026' : '';
  return '  ' + pre + flat.slice(start, end) + post + '\n  ' + ' '.repeat(pre.length + pos - start) + '^';
}

// Parses a whole expression; a trailing `;` is allowed.
export function parseLocator(src) {
  if (typeof src !== 'string') {
    throw bridgeError('InvalidArgument', 'locatorCount: expression must be a string', null, TypeError);
  }
  const p = new Parser(src);
  if (p.peek() === '') p.fail('empty expression');
  const chain = p.chain();
  if (p.peek() === ';') p.pos++;
  if (p.peek() !== '') p.fail('unexpected ' + p.found() + ' after the locator');
  return chain;
}

const ESCAPES = {
  '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t',
  '\u2028': '\\u2028', '\u2029': '\\u2029',
};

// The JavaScript literal of s in single quotes, as Playwright's codegen
// writes strings: what parseLocator reads back as s.
export function jsString(s) {
  return "'" + String(s).replace(/[\\'\n\r\t\u2028\u2029]/g, (c) => ESCAPES[c]) + "'";
}
