// find.js -- the regular expressions of browser_find, evaluated here with
// JavaScript's own engine so a pattern means what it means in a Playwright
// test (the host parses the snapshot and chooses the texts; see
// lua/vdx/find.lua).

import { bridgeError, badArgument } from './errors.js';

// Longest pattern accepted, in characters.
const MAX_PATTERN = 1000;

// The 0-based indexes of the strings of texts that the regular expression
// (source, flags) matches; a pattern JavaScript refuses is an
// InvalidArgument that says why.
export function matchTexts(source, flags, texts) {
  if (typeof source !== 'string' || source.length > MAX_PATTERN) {
    throw badArgument('matchTexts: source must be a string of at most ' + MAX_PATTERN + ' characters');
  }
  if (typeof flags !== 'string' || !/^[dimsuv]*$/.test(flags)) {
    throw bridgeError('InvalidArgument', 'regex flags ' + JSON.stringify(String(flags)) +
      ' are not allowed (use d, i, m, s, u or v)', { field: 'regex' });
  }
  if (!Array.isArray(texts)) throw badArgument('matchTexts: texts must be a list of strings');
  let re;
  try {
    re = new RegExp(source, flags);
  } catch (e) {
    throw bridgeError('InvalidArgument', 'regex /' + source + '/' + flags + ' is not a valid JavaScript regular expression: ' +
      String(e && e.message), { field: 'regex' });
  }
  const out = [];
  for (let i = 0; i < texts.length; i++) {
    if (typeof texts[i] === 'string' && re.test(texts[i])) out.push(i);
  }
  return out;
}
