/*
 * events.c -- what a page logs, requests and opens, captured from the
 * moment the page exists (console, network, dialogs).  Placeholder until
 * the actions work lands.
 */
#include "vdx.h"
#include "objects.h"

void vdx__page_events(lua_State *L, vdx_page *p, const char *method,
                      int params) {
  (void)L; (void)p; (void)method; (void)params;
}

void vdx__page_events_free(vdx_page *p) { (void)p; }

void vdx__event_methods(lua_State *L) { (void)L; }
