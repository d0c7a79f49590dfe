/*
 * opts.c -- the strict option tables every binding takes: unknown keys are
 * an error naming the key, integers are integers.  Misuse is raised with
 * vdx__misuse, so it names the binding that was called.
 */
#include <string.h>

#include "vdx.h"

void vdx__check_opts(lua_State *L, int idx, const char *const *known) {
  if (lua_isnoneornil(L, idx)) return;
  luaL_checktype(L, idx, LUA_TTABLE);
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    int ok = 0;
    if (lua_type(L, -1) == LUA_TSTRING) {
      const char *k = lua_tostring(L, -1);
      for (int i = 0; known[i]; i++)
        if (strcmp(known[i], k) == 0) { ok = 1; break; }
    }
    if (!ok) {
      luaL_Buffer b;
      luaL_buffinit(L, &b);
      for (int i = 0; known[i]; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, known[i]);
      }
      luaL_pushresult(&b);
      vdx__misuse_push(L, "unexpected key '%s' (known: %s)",
                       luaL_tolstring(L, -2, NULL), lua_tostring(L, -1));
      lua_pushvalue(L, -2);                /* the key, as text */
      lua_setfield(L, -2, "field");
      lua_error(L);
    }
  }
}

lua_Integer vdx__opt_int(lua_State *L, int idx, const char *key,
                         lua_Integer def) {
  lua_Integer v = def;
  if (!lua_istable(L, idx)) return def;
  lua_getfield(L, idx, key);
  if (!lua_isnil(L, -1)) {
    int isint;
    v = lua_tointegerx(L, -1, &isint);
    if (!isint)
      vdx__misuse(L, "option '%s' must be an integer", key);
  }
  lua_pop(L, 1);
  return v;
}


void vdx__opt_type(lua_State *L, int idx, const char *key, int type) {
  if (!lua_istable(L, idx)) return;
  int t = lua_getfield(L, idx, key);
  if (t != LUA_TNIL && t != type)
    vdx__misuse(L, "option '%s' must be a %s, got %s",
                key, lua_typename(L, type), luaL_typename(L, -1));
  lua_pop(L, 1);
}
