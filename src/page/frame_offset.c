/*
 * frame_offset.c -- where a point of a child frame's viewport lies in the
 * top page's viewport, for the input events of an action or a capture
 * (capture.c).
 *
 * Input events go to the page's main session in main-frame coordinates,
 * so a point found in a frame is moved out level by level: at each level
 * the parent's bridge says where the iframe's content box starts (or what
 * element of the parent covers the point), until the main frame is
 * reached.  One level is one bridge call on the frame's owner element
 * (frameOrigin, see vdx__bridge_call_opts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "input.h"

/* Walks from a child frame up to the main frame, adding at each level
 * where the iframe's content box starts in its parent's viewport. */
typedef struct offop {
  vdx_page *p;
  char child[64];
  int timeout;
  int reveal;                       /* bring frames into view, no point */
  double x, y;
  vdx_waiter *out;
} offop;

static void off_add(void *data, lua_State *L, int ok);

static void off_out_done(vdx_waiter *w, void *data) {
  (void)w;
  ((offop *)data)->out = NULL;
}

static void off_finish(lua_State *L, offop *o, int ok) {
  if (o->out) {
    vdx__waiter_on_done(o->out, NULL, NULL);
    if (ok) vdx__waiter_resolve(o->out, L); else vdx__waiter_reject(o->out, L);
  } else {
    lua_pop(L, 1);
  }
  free(o);
}

/* Starts the level of o->child: asks its parent's bridge where the
 * child's owner element puts the point. */
static void off_level(lua_State *L, offop *o) {
  vdx_frame *c = vdx__frame_find(o->p, o->child);
  vdx_frame *parent = c ? vdx__frame_find(o->p, c->parent) : NULL;
  if (parent == NULL || parent->world == 0) {
    char name[VDX_FRAME_NAME];
    vdx__error_push(L, "FrameDetached", "frame %s or its parent has no "
                    "document now", vdx__frame_name(c, name, sizeof name));
    off_finish(L, o, 0);
    return;
  }
  lua_createtable(L, 3, 0);
  lua_pushnumber(L, o->x);
  lua_rawseti(L, -2, 1);
  lua_pushnumber(L, o->y);
  lua_rawseti(L, -2, 2);
  lua_pushboolean(L, o->reveal);
  lua_rawseti(L, -2, 3);
  const vdx_bridge_opts on_owner = {.owner_of = o->child};
  vdx_waiter *w = vdx__bridge_call_opts(L, o->p, parent->id, "frameOrigin",
                                        -1, o->timeout, &on_owner);
  lua_pop(L, 1);
  if (w == NULL) {
    vdx__error_push(L, "BridgeError", "out of memory");
    off_finish(L, o, 0);
    return;
  }
  vdx__waiter_then(w, off_add, o);
}

/* A CDP error of a level means the frame or its owner went away under us
 * (a reload in the middle of the action): that is FrameDetached, not a
 * raw CDP error.  stack: error -> error */
static void as_detached(lua_State *L, offop *o) {
  if (!lua_istable(L, -1)) return;
  lua_getfield(L, -1, "type");
  int cdp = lua_isstring(L, -1) && strcmp(lua_tostring(L, -1), "CDPError") == 0;
  lua_pop(L, 1);
  if (!cdp) return;
  lua_getfield(L, -1, "message");
  char name[VDX_FRAME_NAME];
  vdx_frame *c = vdx__frame_find(o->p, o->child);
  vdx__error_push(L, "FrameDetached", "frame %s went away during the "
                  "action (%s)", vdx__frame_name(c, name, sizeof name),
                  luaL_optstring(L, -1, "?"));
  if (c) {
    lua_pushstring(L, name);
    lua_setfield(L, -2, "frame");
  }
  lua_replace(L, -3);
  lua_pop(L, 1);
}

/* Adds the origin the parent's bridge answered and goes up a level, or
 * finishes at the top (or with what covers the point). */
static void off_add(void *data, lua_State *L, int ok) {
  offop *o = data;
  luaL_checkstack(L, 24, "vdx: frame offset");
  if (!ok && o->out != NULL) as_detached(L, o);
  if (!ok || o->out == NULL) { off_finish(L, o, 0); return; }
  int v = 1;
  if (!lua_istable(L, v)) {
    vdx__error_push(L, "BridgeError", "the bridge of the parent of frame "
                    "%s could not place the frame", o->child);
    off_finish(L, o, 0);
    return;
  }
  if (lua_getfield(L, v, "covered") == LUA_TTABLE) {
    lua_createtable(L, 0, 2);
    lua_insert(L, -2);
    lua_setfield(L, -2, "covered");
    off_finish(L, o, 1);
    return;
  }
  lua_getfield(L, v, "x");
  lua_getfield(L, v, "y");
  o->x += lua_tonumber(L, -2);
  o->y += lua_tonumber(L, -1);
  vdx_frame *c = vdx__frame_find(o->p, o->child);
  vdx_frame *parent = c ? vdx__frame_find(o->p, c->parent) : NULL;
  if (parent && parent->ordinal == 0) {
    lua_createtable(L, 0, 2);
    lua_pushnumber(L, o->x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, o->y);
    lua_setfield(L, -2, "y");
    off_finish(L, o, 1);
    return;
  }
  if (parent) snprintf(o->child, sizeof o->child, "%s", parent->id);
  lua_settop(L, 0);
  off_level(L, o);
}

vdx_waiter *vdx__frame_offset(lua_State *L, vdx_page *p, vdx_frame *f,
                              double x, double y, int timeout) {
  return vdx__frame_offset_opts(L, p, f, x, y, timeout, 0);
}

vdx_waiter *vdx__frame_offset_opts(lua_State *L, vdx_page *p, vdx_frame *f,
                                   double x, double y, int timeout,
                                   int reveal) {
  offop *o = calloc(1, sizeof *o);
  if (o == NULL) luaL_error(L, "out of memory");
  o->p = p;
  snprintf(o->child, sizeof o->child, "%s", f->id);
  o->x = x;
  o->y = y;
  o->timeout = timeout;
  o->reveal = reveal;
  o->out = vdx__waiter_new(p->b->lp, timeout, "frame offset");
  vdx_waiter *out = o->out;
  vdx__waiter_on_done(out, off_out_done, o);
  off_level(L, o);
  return out;
}

/*
 * page:frame_offset(frame, x, y [, {timeout_ms=, reveal=}]) -> { x=, y= }
 * or { covered = {tag=, id=, class=, text=} }: the point (x, y) of the
 * viewport of a frame (its name, or a ref of it) in the main frame's
 * viewport (unchanged for the main frame), or what element of an ancestor
 * frame covers it.  With reveal = true it only brings the frame into view:
 * each level scrolls the frame's element into its parent's viewport when
 * none of it is there (a frame out of view is not drawn and its timers
 * are slowed), and nothing is said of what covers it.
 */
static int page_frame_offset(lua_State *L) {
  static const char *const known[] = {"timeout_ms", "reveal", NULL};
  vdx_page *p = vdx__check_open_page(L, 1);
  vdx_frame *f = vdx__frame_named(L, p, 2);
  double x = luaL_checknumber(L, 3), y = luaL_checknumber(L, 4);
  vdx__check_opts(L, 5, known);
  if (f->ordinal == 0) {
    lua_createtable(L, 0, 2);
    lua_pushnumber(L, x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, y);
    lua_setfield(L, -2, "y");
    return 1;
  }
  int timeout = (int)vdx__opt_int(L, 5, "timeout_ms", 0);
  int reveal = 0;
  if (lua_istable(L, 5)) {
    lua_getfield(L, 5, "reveal");
    if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
      return vdx__error_raise(L, "InvalidArgument",
                        "page:frame_offset: reveal must be true or false");
    reveal = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  vdx_waiter *w = vdx__frame_offset_opts(L, p, f, x, y, timeout > 0
                                         ? timeout
                                         : vdx__conn_default_timeout(p->b->conn),
                                         reveal);
  lua_settop(L, 1);
  return vdx__await(L, w, 0, vdx__k_value);
}

void vdx__frame_offset_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"frame_offset", page_frame_offset},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
