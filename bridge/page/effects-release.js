// effects-release.js -- ends the hold of effects-hold.js: calls and
// removes the resolver it left on window under __VDX_KEY__, if any.
window['__VDX_KEY__'] && (window['__VDX_KEY__'](), delete window['__VDX_KEY__'])
