/*
 * fill_form.c -- page:fill_form: fills several fields of a form in one
 * call.  Each field's kind is asked of the bridge (fieldInfo), then the
 * action that suits it runs as a method of the page (type, check, uncheck,
 * select_option, set_slider, upload_file; see actions.c), one field after
 * the other, each answering with its own result.
 */
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "actions.h"

/* stack: page, fields, opts, results, i, [value] */
static int fill_k(lua_State *L, int status, lua_KContext phase) {
  (void)status;
  luaL_checkstack(L, 20, "vdx: fill_form");
  lua_Integer i = lua_tointeger(L, 5);
  vdx_page *p = vdx__check_page(L, 1);
  for (;;) {
    if (phase == 2) {                      /* a field is done */
      lua_rawseti(L, 4, i);
      lua_settop(L, 5);
      phase = 0;
    }
    if (phase == 0) {
      lua_settop(L, 5);
      if (++i > (lua_Integer)luaL_len(L, 2)) {
        lua_createtable(L, 0, 2);
        lua_pushvalue(L, 4);
        lua_setfield(L, -2, "fields");
        lua_pushinteger(L, i - 1);
        lua_setfield(L, -2, "count");
        return 1;
      }
      lua_pushinteger(L, i);
      lua_replace(L, 5);
      lua_rawgeti(L, 2, i);
      lua_getfield(L, -1, "target");
      vdx_frame *f = vdx__ref_frame(L, p, luaL_checkstring(L, -1));
      lua_createtable(L, 1, 0);
      lua_pushvalue(L, -2);
      lua_rawseti(L, -2, 1);
      vdx_waiter *w = vdx__bridge_call(L, p, f->id, "fieldInfo", -1, 0);
      if (w == NULL) return luaL_error(L, "out of memory");
      lua_settop(L, 5);
      return vdx__await(L, w, 1, fill_k);
    }
    /* phase 1: the field's kind is known (slot 6): act on it */
    lua_getfield(L, 6, "kind");
    const char *kind = lua_tostring(L, -1);
    lua_rawgeti(L, 2, i);
    int field = lua_gettop(L);
    lua_getfield(L, field, "value");
    int value = lua_gettop(L);
    const char *method;
    if (strcmp(kind, "checkbox") == 0 || strcmp(kind, "radio") == 0) {
      method = lua_toboolean(L, value) ? "check" : "uncheck";
    } else if (strcmp(kind, "select") == 0) {
      method = "select_option";
    } else if (strcmp(kind, "slider") == 0) {
      method = "set_slider";
    } else if (strcmp(kind, "file") == 0) {
      method = "upload_file";
    } else {
      method = "type";
    }
    lua_getfield(L, 1, method);
    lua_pushvalue(L, 1);
    lua_getfield(L, field, "target");
    int nargs = 2;
    if (strcmp(method, "check") != 0 && strcmp(method, "uncheck") != 0) {
      lua_pushvalue(L, value);
      if (strcmp(method, "type") == 0) {
        lua_tostring(L, -1);
        lua_createtable(L, 0, 2);
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "clear");
        lua_getfield(L, 3, "timeout_ms");
        lua_setfield(L, -2, "timeout_ms");
        nargs = 4;
      } else {
        nargs = 3;
      }
    }
    lua_callk(L, nargs, 1, 2, fill_k);
    phase = 2;
    (void)p;
  }
}

/*
 * page:fill_form(fields [, {timeout_ms=}]) -> { fields = {result…},
 * count = n }.  fields is a list of { target = ref, value = v }: text
 * boxes are cleared and typed into, checkboxes and radios are checked
 * (value true) or unchecked, selects take a value or label (or a list),
 * sliders a number, file inputs a path.
 */
int vdx__page_fill_form(lua_State *L) {
  static const char *const known[] = {"timeout_ms", NULL};
  vdx__action_open_page(L);
  luaL_checktype(L, 2, LUA_TTABLE);
  vdx__check_opts(L, 3, known);
  if (lua_isnone(L, 3)) lua_pushnil(L);
  if (lua_isnil(L, 3)) { lua_newtable(L); lua_replace(L, 3); }
  lua_settop(L, 3);
  for (lua_Integer i = 1; i <= (lua_Integer)luaL_len(L, 2); i++) {
    if (lua_rawgeti(L, 2, i) != LUA_TTABLE)
      luaL_argerror(L, 2, "a list of {target=, value=} expected");
    lua_getfield(L, -1, "target");
    if (lua_type(L, -1) != LUA_TSTRING || !vdx__is_ref(lua_tostring(L, -1)))
      luaL_argerror(L, 2, "each field needs target = a ref from the snapshot");
    lua_pop(L, 2);
  }
  lua_newtable(L);
  lua_pushinteger(L, 0);
  return fill_k(L, LUA_OK, 0);
}
