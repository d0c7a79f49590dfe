/*
 * nav.h -- the one navigation tracker of a page (nav.c): what the main
 * frame's document is and how far it loaded, and the waits that
 * navigate(), back(), forward(), reload() and the settle after an action
 * share.
 */
#ifndef VDX_NAV_H
#define VDX_NAV_H

#include "vdx.h"
#include "objects.h"

#define VDX_LIFE_COMMIT 1
#define VDX_LIFE_DCL    2
#define VDX_LIFE_LOAD   4
#define VDX_LIFE_IDLE   8     /* loaded, then 500 ms without network */
#define VDX_LIFE_READ   16    /* the document's load read came (navigate.c) */

/* The binding through which the bridge of the top frame's vdx world hands
 * over url, title and status once the document has loaded (bridge/src/
 * loaded.js); frames.c adds it to the page's session. */
#define VDX_LOADED_BINDING "__vdxLoaded"

/* Feeds one event of the page's main session to the tracker. */
void vdx__nav_event(lua_State *L, vdx_page *p, const char *method, int params);
/* Frees the tracker of p (the page is going away). */
void vdx__nav_free(vdx_page *p);
/* Rejects every wait of p with a new error (type, msg). */
void vdx__nav_fail(lua_State *L, vdx_page *p, const char *type, const char *msg);

/* Pushes what the committed document's load read said, decoded ({url=,
 * title=, status=}), or nil when it has not come. */
void vdx__nav_push_read(lua_State *L, vdx_page *p);

/* The VDX_LIFE_* flag of a wait_until name; raises InvalidArgument. */
int vdx__nav_flag(lua_State *L, const char *name);
/* Main-frame navigations so far (cross- and same-document). */
lua_Integer vdx__nav_seq(lua_State *L, vdx_page *p);
/* The main document's URL as last navigated ("" before any), and its
 * HTTP status (0 when unknown). */
const char *vdx__nav_url(lua_State *L, vdx_page *p);
int vdx__nav_status(lua_State *L, vdx_page *p);

/*
 * A waiter that resolves when the document of `loader` (the loaderId of a
 * Page.navigate answer) reaches flag, or rejects with NavigationFailed
 * when another document commits after it started, or Timeout.  NULL when
 * it has reached flag already.
 */
vdx_waiter *vdx__nav_wait_loader(lua_State *L, vdx_page *p, const char *loader,
                                 int flag, int timeout_ms);
/* A waiter that resolves when the first main-frame navigation after
 * number `base` reaches flag (a same-document one at once); Timeout. */
vdx_waiter *vdx__nav_wait_seq(lua_State *L, vdx_page *p, lua_Integer base,
                              int flag, int timeout_ms);

/* Sets the navigation counters of p in the mark table at mark. */
void vdx__nav_mark(lua_State *L, vdx_page *p, int mark);
/* Sets navigation = {url=, status=, same_document=} in the table at res
 * when the main frame navigated since the mark at mark. */
void vdx__nav_since(lua_State *L, vdx_page *p, int mark, int res);
/* A waiter that resolves (never rejects but for a crash) once a main-frame
 * navigation that started after the mark has loaded or was abandoned, or
 * timeout_ms passed.  NULL when none started. */
vdx_waiter *vdx__nav_settle(lua_State *L, vdx_page *p, int mark, int timeout_ms);

#endif
