// effects-hold.js -- the "script" vdx.effects.around (lua/vdx/effects.lua)
// watches while a call runs elsewhere: a function, put in place of
// effects-watch.js's __VDX_SOURCE__, whose promise settles when
// effects-release.js calls the resolver it leaves on window under
// __VDX_KEY__.
() => new Promise((r) => Object.defineProperty(window, '__VDX_KEY__', { value: r, configurable: true }))
