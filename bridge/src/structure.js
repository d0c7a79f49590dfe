// structure.js -- the instance methods of the structure queries,
// added to each bridge instance by index.js in one place:
//
//   resolveContainer(ref, opts)      explore.js
//   inspectPattern(ref, level, opts) explore.js
//   extractAnchors(ref, level, opts) explore.js
//   selector(ref)                    selector.js (role locators: rolepath.js)
//   selectorCoverage()               selector.js
//   locatorCount(expr, opts)         locator.js
//   locatorFacts(expr, opts)         verify.js
//   readHtml(opts)                   readhtml.js
//   targetRef({ locator | text })    target.js
//   matchTexts(source, flags, texts) find.js
//
// and describe(ref), wrapped so that a live ref's description also
// carries its selector (or locator, or `at`).  env is the instance's { refs, resolve }.

import { extractAnchors, inspectPattern, resolveContainer } from './explore.js';
import { selectorCoverage, selectorFor } from './selector.js';
import { locatorCount } from './locator.js';
import { locatorFacts } from './verify.js';
import { readHtml } from './readhtml.js';
import { targetRef } from './target.js';
import { matchTexts } from './find.js';

export function structureMethods(env, describe) {
  return {
    resolveContainer(ref, opts) {
      return resolveContainer(env, ref, opts);
    },
    inspectPattern(ref, level, opts) {
      return inspectPattern(env, ref, level, opts);
    },
    extractAnchors(ref, level, opts) {
      return extractAnchors(env, ref, level, opts);
    },
    // { selector }, { locator } or { at: { x, y } }; in_shadow when the
    // element lives in a shadow root.
    selector(ref) {
      return selectorFor(env.resolve(ref));
    },
    selectorCoverage() {
      return selectorCoverage(env);
    },
    locatorCount(expr, opts) {
      return locatorCount(env, expr, opts);
    },
    locatorFacts(expr, opts) {
      return locatorFacts(env, expr, opts);
    },
    readHtml(opts) {
      return readHtml(env, opts);
    },
    targetRef(opts) {
      return targetRef(env, opts);
    },
    matchTexts(source, flags, texts) {
      return matchTexts(source, flags, texts);
    },
    describe(ref) {
      const d = describe(ref);
      if (d && !d.error) Object.assign(d, selectorFor(env.resolve(ref)));
      return d;
    },
  };
}
