// evaluate-call.js -- the page-side half of page:evaluate_checked
// (lua/vdx/guard.lua), a template run in the page's main world by
// Runtime.evaluate, not part of the isolated-world bundle.  The build embeds
// it beside that bundle and vdx.page_script("evaluate-call") returns it.
//
// The caller's source goes in place of __VDX_SOURCE__, on lines of its own
// inside parentheses (so a trailing // comment or a comma expression stays
// the source's), and the JSON array of its arguments in place of
// __VDX_ARGS__.  A source that evaluates to a function is called with the
// arguments; any other value is the answer as it is.
((f, args) => (typeof f === 'function' ? f(...args) : f))((
__VDX_SOURCE__
), __VDX_ARGS__)
