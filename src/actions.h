/*
 * actions.h -- what actions.c (the actions of vdx.Page) and fill_form.c
 * (page:fill_form, which runs those actions field by field) share.
 * Private to those two files.
 */
#ifndef VDX_ACTIONS_H
#define VDX_ACTIONS_H

#include "vdx.h"
#include "objects.h"

/* The page at slot 1; raises when it is closed or its browser is gone. */
vdx_page *vdx__action_open_page(lua_State *L);
/* True when s is a snapshot ref: "e3" (main frame) or "f1_e7" (frame 1). */
int vdx__is_ref(const char *s);
/* page:fill_form(fields [, opts]) (fill_form.c). */
int vdx__page_fill_form(lua_State *L);

#endif
