/*
 * json.c -- JSON through lua-cjson, from C.
 *
 * The core keeps a private cjson instance (cjson.new()), so a script that
 * reconfigures the global cjson module does not change the wire format.
 * cjson 2.1 decodes every number as a float; values handed to Lua are
 * normalised so that integral numbers are Lua integers (ids, counts).
 */
#include <math.h>

#include "vdx.h"

static int encode_ref = LUA_NOREF;
static int decode_ref = LUA_NOREF;

void vdx__json_open(lua_State *L) {
  if (encode_ref != LUA_NOREF) {
    /* Already open in this process: the refs must be of this state. */
    lua_rawgeti(L, LUA_REGISTRYINDEX, encode_ref);
    int ok = lua_isfunction(L, -1);
    lua_pop(L, 1);
    if (ok) return;
  }
  lua_getglobal(L, "require");
  lua_pushliteral(L, "cjson");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK)
    luaL_error(L, "vdx needs lua-cjson (apt-get install lua-cjson; or run "
               "make deps): %s", lua_tostring(L, -1));
  lua_getfield(L, -1, "new");
  lua_call(L, 0, 1);
  lua_getfield(L, -1, "encode_sparse_array");
  lua_pushboolean(L, 1);
  lua_call(L, 1, 0);
  lua_getfield(L, -1, "encode_number_precision");
  lua_pushinteger(L, 14);
  lua_call(L, 1, 0);
  lua_getfield(L, -1, "encode");
  encode_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_getfield(L, -1, "decode");
  decode_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pop(L, 2);
}

const char *vdx__json_encode(lua_State *L, int idx, size_t *len) {
  idx = lua_absindex(L, idx);
  lua_rawgeti(L, LUA_REGISTRYINDEX, encode_ref);
  lua_pushvalue(L, idx);
  lua_call(L, 1, 1);
  return lua_tolstring(L, -1, len);
}

int vdx__json_decode(lua_State *L, const char *buf, size_t len) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, decode_ref);
  lua_pushlstring(L, buf, len);
  return lua_pcall(L, 1, 1, 0) == LUA_OK;
}

/* Turns integral floats into integers in the value at idx, recursively. */
void vdx__json_normalize(lua_State *L, int idx, int depth) {
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TTABLE || depth > 200) return;
  luaL_checkstack(L, 4, "json nesting");
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -1) == LUA_TNUMBER && !lua_isinteger(L, -1)) {
      lua_Number n = lua_tonumber(L, -1);
      if (n == floor(n) && fabs(n) < 9007199254740992.0) {
        lua_pushvalue(L, -2);
        lua_pushinteger(L, (lua_Integer)n);
        lua_rawset(L, idx);
      }
    } else if (lua_type(L, -1) == LUA_TTABLE) {
      vdx__json_normalize(L, -1, depth + 1);
    }
    lua_pop(L, 1);
  }
}
