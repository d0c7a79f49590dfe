/*
 * describe.c -- page methods that ask one frame's bridge about the page:
 * page:describe(ref), page:accessible(css), page:frames() and the raw
 * primitive page:bridge(method, args, {frame=}) that Lua actions and tools
 * are written on.
 */
#include <string.h>

#include "vdx.h"
#include "objects.h"

static int describe_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  vdx_page *p = vdx__check_page(L, 1);
  int v = lua_gettop(L);
  if (lua_istable(L, v) && lua_getfield(L, v, "error") == LUA_TSTRING) {
    vdx__error_push(L, lua_tostring(L, -1), "ref %s %s", lua_tostring(L, 2),
                    strcmp(lua_tostring(L, -1), "StaleRef") == 0
                    ? "points at an element that was removed"
                    : "is not known in this document");
    int e = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, v)) {
      if (lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "error") != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_settable(L, e);
      } else {
        lua_pop(L, 1);
      }
    }
    return lua_error(L);
  }
  lua_settop(L, v);
  vdx__frame_push_name(L, vdx__ref_frame(L, p, lua_tostring(L, 2)));
  lua_setfield(L, v, "frame");
  return 1;
}

/* page:describe(ref) -> {ref=, role=, name=, tag=, frame=, frame_id=,
 * attributes={…}}; raises UnknownRef or StaleRef (with the last role,
 * name and tag). */
static int page_describe(lua_State *L) {
  vdx_page *p = vdx__check_open_page(L, 1);
  const char *ref = luaL_checkstring(L, 2);
  lua_settop(L, 2);
  lua_createtable(L, 1, 0);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 1);
  vdx_waiter *w = vdx__ref_call(L, p, ref, "describe", -1, 0);
  lua_settop(L, 2);
  return vdx__await(L, w, 0, describe_k);
}

/* page:accessible(css [, limit]) -> { items = {{role=, name=,
 * description=, ref=}…}, total = n } for the main frame, from the same
 * role and name engine as the snapshot. */
static int page_accessible(lua_State *L) {
  vdx_page *p = vdx__check_open_page(L, 1);
  luaL_checkstring(L, 2);
  lua_Integer limit = luaL_optinteger(L, 3, 200);
  lua_createtable(L, 2, 0);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 1);
  lua_pushinteger(L, limit);
  lua_rawseti(L, -2, 2);
  vdx_waiter *w = vdx__bridge_call(L, p, p->frames[0].id, "accessible", -1, 0);
  if (w == NULL) return luaL_error(L, "out of memory");
  lua_settop(L, 1);
  return vdx__await(L, w, 0, vdx__k_value);
}

/*
 * page:bridge(method, args [, {frame = name_or_ref, timeout_ms=, by_ref=}])
 * -> value.  Calls any bridge method in a frame's isolated world: the raw
 * primitive that Lua tools build on without recompiling.  With by_ref the
 * answer is the CDP object id of the result in that world (an element,
 * for Lua to hand to DOM.describeNode), which the caller releases.
 */
static int page_bridge(lua_State *L) {
  static const char *const known[] = {"frame", "timeout_ms", "by_ref", NULL};
  vdx_page *p = vdx__check_open_page(L, 1);
  const char *method = luaL_checkstring(L, 2);
  if (lua_isnoneornil(L, 3)) { lua_settop(L, 2); lua_newtable(L); }
  luaL_checktype(L, 3, LUA_TTABLE);
  vdx__check_opts(L, 4, known);
  vdx_frame *f = &p->frames[0];
  if (lua_istable(L, 4)) {
    if (lua_getfield(L, 4, "frame") != LUA_TNIL) f = vdx__frame_named(L, p, -1);
    lua_pop(L, 1);
  }
  int timeout = (int)vdx__opt_int(L, 4, "timeout_ms", 0);
  vdx_bridge_opts o = {0};
  if (lua_istable(L, 4)) {
    lua_getfield(L, 4, "by_ref");
    o.by_ref = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  vdx_waiter *w = vdx__bridge_call_opts(L, p, f->id, method, 3, timeout, &o);
  if (w == NULL) return luaL_error(L, "out of memory");
  lua_settop(L, 1);
  return vdx__await(L, w, 0, vdx__k_value);
}

/* page:frames([{cdp_ids = true}]) -> { {frame=, parent=, has_context=,
 * out_of_process=}, … }: every frame of the page by name ("main", "f<K>";
 * parent is nil for the main frame), in the order they attached.  A frame
 * has one name; with cdp_ids each entry also carries `id`, its CDP frame
 * id, for raw calls that take a frameId (Page.createIsolatedWorld). */
static int page_frames(lua_State *L) {
  static const char *const known[] = {"cdp_ids", NULL};
  vdx_page *p = vdx__check_page(L, 1);
  vdx__check_opts(L, 2, known);
  int ids = 0;
  if (lua_istable(L, 2)) {
    lua_getfield(L, 2, "cdp_ids");
    ids = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  lua_createtable(L, p->nframes, 0);
  for (int i = 0; i < p->nframes; i++) {
    vdx_frame *f = &p->frames[i];
    lua_createtable(L, 0, 5);
    vdx__frame_push_name(L, f);
    lua_setfield(L, -2, "frame");
    if (ids) {
      lua_pushstring(L, f->id);
      lua_setfield(L, -2, "id");
    }
    vdx_frame *parent = vdx__frame_find(p, f->parent);
    if (parent) {
      vdx__frame_push_name(L, parent);
      lua_setfield(L, -2, "parent");
    }
    lua_pushboolean(L, f->world != 0);
    lua_setfield(L, -2, "has_context");
    lua_pushboolean(L, strcmp(f->sid, p->session_id) != 0);
    lua_setfield(L, -2, "out_of_process");
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

void vdx__describe_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"describe", page_describe},
    {"accessible", page_accessible},
    {"bridge", page_bridge},
    {"frames", page_frames},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
