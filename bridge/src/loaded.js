// loaded.js -- hands the host what page:navigate reports (url, title and
// HTTP status) as soon as the document has loaded.
//
// The bundle runs when the top frame's vdx world is made, before any page
// script, so its pageshow listener goes first; pageshow comes right after
// the load event's handlers, in the same task, so a title they set is
// seen.  The values go out through a binding the host adds to vdx worlds
// (Runtime.addBinding): its Runtime.bindingCalled leaves the renderer
// within that task, where a command sent to read them would wait behind
// the page's first frame after load.

// The binding's name; the C core adds it (src/page/frames.c).
export const LOADED_BINDING = '__vdxLoaded';

// What navigate reports of this document: { url, title, status }, read in
// the vdx world, where a page's own overrides (of document.title, say) do
// not reach.  Also the host's read when the binding's does not come
// (another wait_until, or a bridge injected after load).
export function pageInfo() {
  const nav = performance.getEntriesByType('navigation')[0];
  return { url: location.href, title: document.title, status: nav ? nav.responseStatus : undefined };
}

// Listens for the top frame's pageshow, once; a document in a child frame
// or one shown before the bundle ran (injected on demand) sends nothing,
// and the host reads the values itself.
export function reportLoaded() {
  let top = false;
  try {
    top = window.top === window;
  } catch (e) {
    top = false;
  }
  if (!top || document.readyState === 'complete') return;
  addEventListener('pageshow', () => {
    const send = globalThis[LOADED_BINDING];
    if (typeof send !== 'function') return;
    try {
      send(JSON.stringify(pageInfo()));
    } catch (e) {
      // The host reads the values itself.
    }
  }, { once: true });
}
