/*
 * json.c -- JSON from C: the C core's hands on vdx.json.
 *
 * Both wires (CDP here, MCP in Lua) go through one codec, vdx.json
 * (lua/vdx/json.lua): lua-cjson with every number written exactly
 * (Debian's lua-cjson 2.1.0 caps encode_number_precision at 14 digits,
 * so vdx.json writes the numbers that need more itself).  It decodes every
 * number as a double, which is exact for all a browser sends; values for
 * Lua are normalised so that integral numbers are Lua integers (ids,
 * counts).
 *
 * The codec's functions live in the registry of each Lua state, under the
 * addresses of two constants: nothing here is process-wide.  vdx.json is
 * loaded on first use, from package.path or else from the copy vdx.so
 * embeds, so vdx.core loads and works without any Lua file.
 */
#include <math.h>

#include "vdx.h"

static const char ENCODE_KEY = 'e';   /* registry: vdx.json.encode */
static const char DECODE_KEY = 'd';   /* registry: vdx.json.decode */

/* Puts vdx.json's encode and decode in this state's registry: the module
 * require finds, else the copy vdx.so embeds, which then becomes
 * package.loaded["vdx.json"], so a state has one codec either way. */
static int load_codec(lua_State *L) {
  lua_getglobal(L, "require");
  lua_pushliteral(L, "vdx.json");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    size_t len;
    const char *src = vdx__embedded_file("lua/vdx/json.lua", &len);
    if (src == NULL ||
        luaL_loadbufferx(L, src, len, "@lua/vdx/json.lua", "t") != LUA_OK)
      return luaL_error(L, "vdx: cannot load its JSON codec: %s",
                        lua_tostring(L, -1));
    lua_pushliteral(L, "vdx.json");
    if (lua_pcall(L, 1, 1, 0) != LUA_OK)
      return luaL_error(L, "vdx: cannot load its JSON codec (vdx.json, which "
                        "needs lua-cjson: apt-get install lua-cjson): %s",
                        lua_tostring(L, -1));
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "vdx.json");
    lua_pop(L, 1);
  }
  lua_getfield(L, -1, "encode");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &ENCODE_KEY);
  lua_getfield(L, -1, "decode");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &DECODE_KEY);
  return 0;
}

/* Pushes this state's encode or decode function (key), loading vdx.json on
 * first use; returns 0 with a message pushed when it cannot be loaded. */
static int push_codec(lua_State *L, const char *key) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TFUNCTION) return 1;
  lua_pop(L, 1);
  lua_pushcfunction(L, load_codec);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) return 0;
  lua_rawgetp(L, LUA_REGISTRYINDEX, key);
  return 1;
}

/* stack: -> text */
const char *vdx__json_encode(lua_State *L, int idx, size_t *len) {
  idx = lua_absindex(L, idx);
  if (!push_codec(L, &ENCODE_KEY)) lua_error(L);
  lua_pushvalue(L, idx);
  lua_call(L, 1, 2);
  if (lua_isnil(L, -2)) lua_error(L);     /* the reason, as cjson words it */
  lua_pop(L, 1);
  return lua_tolstring(L, -1, len);
}

/* stack: -> value | message */
int vdx__json_decode(lua_State *L, const char *buf, size_t len) {
  if (!push_codec(L, &DECODE_KEY)) return 0;
  lua_pushlstring(L, buf, len);
  if (lua_pcall(L, 1, 2, 0) != LUA_OK) return 0;
  int ok = !lua_isnil(L, -2);
  lua_remove(L, ok ? -1 : -2);
  return ok;
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
