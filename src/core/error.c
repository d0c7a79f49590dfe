/*
 * error.c -- vdx.Error, the typed error objects.
 *
 * A failure the world caused (the browser closed, a CDP error reply, a
 * timeout) raises a table { type = "...", message = "...", ...fields } whose
 * metatable is vdx.Error.  The type survives every hop to the Lua layer,
 * which renders it for people and agents.
 */
#include <stdarg.h>
#include <string.h>

#include "vdx.h"

void vdx__error_push(lua_State *L, const char *type, const char *fmt, ...) {
  va_list ap;
  luaL_checkstack(L, 6, "vdx: error");
  lua_createtable(L, 0, 4);
  lua_pushstring(L, type);
  lua_setfield(L, -2, "type");
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_setfield(L, -2, "message");
  luaL_setmetatable(L, VDX_ERROR_MT);
}

int vdx__error_raise(lua_State *L, const char *type, const char *fmt, ...) {
  va_list ap;
  lua_createtable(L, 0, 4);
  lua_pushstring(L, type);
  lua_setfield(L, -2, "type");
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_setfield(L, -2, "message");
  luaL_setmetatable(L, VDX_ERROR_MT);
  return lua_error(L);
}

/* tostring(err) -> "Type: message". */
static int error_tostring(lua_State *L) {
  lua_getfield(L, 1, "type");
  lua_getfield(L, 1, "message");
  lua_pushfstring(L, "%s: %s", luaL_optstring(L, -2, "Error"),
                  luaL_optstring(L, -1, "(no message)"));
  return 1;
}

/*
 * vdx.error(type, message [, fields]) -> a new vdx.Error, not raised, so
 * Lua code can raise typed errors the same way the core does.
 */
static int l_error(lua_State *L) {
  const char *type = luaL_checkstring(L, 1);
  const char *msg = luaL_checkstring(L, 2);
  if (!lua_isnoneornil(L, 3)) luaL_checktype(L, 3, LUA_TTABLE);
  vdx__error_push(L, type, "%s", msg);
  if (lua_istable(L, 3)) {
    lua_pushnil(L);
    while (lua_next(L, 3)) {
      if (lua_type(L, -2) == LUA_TSTRING &&
          strcmp(lua_tostring(L, -2), "type") != 0 &&
          strcmp(lua_tostring(L, -2), "message") != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_settable(L, -4);
      } else {
        lua_pop(L, 1);
      }
    }
  }
  return 1;
}

/* vdx.is_error(v [, type]) -> true when v is a vdx.Error (of that type). */
static int l_is_error(lua_State *L) {
  int yes = luaL_testudata(L, 1, VDX_ERROR_MT) != NULL;
  if (!yes && lua_type(L, 1) == LUA_TTABLE && lua_getmetatable(L, 1)) {
    luaL_getmetatable(L, VDX_ERROR_MT);
    yes = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
  }
  if (yes && !lua_isnoneornil(L, 2)) {
    lua_getfield(L, 1, "type");
    yes = lua_isstring(L, -1) && strcmp(lua_tostring(L, -1),
                                        luaL_checkstring(L, 2)) == 0;
    lua_pop(L, 1);
  }
  lua_pushboolean(L, yes);
  return 1;
}

/* Creates the vdx.Error metatable and sets error/is_error on the table at
 * the top of the stack. */
void vdx__error_open(lua_State *L) {
  if (luaL_newmetatable(L, VDX_ERROR_MT)) {
    lua_pushcfunction(L, error_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushliteral(L, "vdx.Error");
    lua_setfield(L, -2, "__name");
  }
  lua_pop(L, 1);
  lua_pushcfunction(L, l_error);
  lua_setfield(L, -2, "error");
  lua_pushcfunction(L, l_is_error);
  lua_setfield(L, -2, "is_error");
}
