/*
 * events.h -- what events.c offers the actions: counters to mark before an
 * action and read after it, and the pointer position.
 */
#ifndef VDX_EVENTS_H
#define VDX_EVENTS_H

#include "vdx.h"
#include "objects.h"

/* Pushes a table of the page's counters now (the mark of an action). */
void vdx__events_mark(lua_State *L, vdx_page *p);
/* Sets in the result table at res what happened since the mark at mark:
 * popups = {{url=}…}, dialogs = {{type=, message=, accepted=}…},
 * downloads = {{url=, filename=}…} (each only when there is one) and
 * console_errors = n.  (nav.c adds the navigation.) */
void vdx__events_since(lua_State *L, vdx_page *p, int mark, int res);
/* The last pointer position sent to the page; set stores a new one. */
void vdx__events_pointer(lua_State *L, vdx_page *p, double *x, double *y,
                         int set);

/* Pushes the vdx.Page userdata of p (nil if it was collected). */
void vdx__page_push_existing(lua_State *L, vdx_page *p);
/* Remembers the page userdata at idx for vdx__page_push_existing. */
void vdx__page_register(lua_State *L, int idx);
/* tabs.c, for browser.c: a target was created (adopts popups of known
 * pages), or went away (drops the hold on an adopted popup). */
void vdx__tabs_target_created(lua_State *L, vdx_browser *b, int params);
void vdx__tabs_target_destroyed(lua_State *L, vdx_browser *b, int params);

#endif
