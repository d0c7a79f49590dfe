/*
 * actions.c -- acting on the page like a user: real input events, waits
 * that fit, dialogs, tabs.  Placeholder until the actions work lands.
 */
#include "vdx.h"
#include "objects.h"

void vdx__action_methods(lua_State *L) { (void)L; }
