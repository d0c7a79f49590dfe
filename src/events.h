/*
 * events.h -- what events.c offers the actions: counters to mark before an
 * action and read after it, navigation waits, and the pointer position.
 */
#ifndef VDX_EVENTS_H
#define VDX_EVENTS_H

#include "vdx.h"
#include "objects.h"

/* Pushes a table of the page's counters now (the mark of an action). */
void vdx__events_mark(lua_State *L, vdx_page *p);
/*
 * Sets in the result table at res what happened since the mark at mark:
 * navigation = {url=, status=, same_document=}, popups = {{url=}…},
 * dialogs = {{type=, message=, accepted=}…}, downloads = {{url=,
 * filename=}…} (each only when there is one) and console_errors = n.
 */
void vdx__events_since(lua_State *L, vdx_page *p, int mark, int res);
/*
 * A waiter that resolves (never rejects) once a main-frame navigation that
 * started after the mark at mark has loaded, was abandoned, or timeout_ms
 * passed.  NULL when no navigation is pending.
 */
vdx_waiter *vdx__events_settle(lua_State *L, vdx_page *p, int mark,
                               int timeout_ms);
/* The count of main-frame navigations so far (cross- and same-document). */
lua_Integer vdx__events_nav_seq(lua_State *L, vdx_page *p);
/*
 * A waiter that resolves when the first main-frame navigation after `base`
 * reaches flag (VDX_LIFE_*); VDX_LIFE_IDLE means loaded and then 500 ms
 * without a request starting or ending.  Rejects with Timeout.
 */
vdx_waiter *vdx__events_nav_wait(lua_State *L, vdx_page *p, lua_Integer base,
                                 int flag, int timeout_ms);
/* The URL of the main document as last navigated ("" before any). */
const char *vdx__events_url(lua_State *L, vdx_page *p);
/* The last pointer position sent to the page; set stores a new one. */
void vdx__events_pointer(lua_State *L, vdx_page *p, double *x, double *y,
                         int set);

/* Pushes the vdx.Page userdata of p (nil if it was collected). */
void vdx__page_push_existing(lua_State *L, vdx_page *p);
/* Remembers the page userdata at idx for vdx__page_push_existing. */
void vdx__page_register(lua_State *L, int idx);
/* browser.c: a target was created; adopts popups of known pages. */
void vdx__events_target_created(lua_State *L, vdx_browser *b, int params);
/* browser.c: a target went away; drops the hold on an adopted popup. */
void vdx__events_target_destroyed(lua_State *L, vdx_browser *b, int params);

#endif
