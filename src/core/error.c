/*
 * error.c -- vdx.Error, the typed error objects.
 *
 * A failure the world caused (the browser closed, a CDP error reply, a
 * timeout) raises a table { type = "...", message = "...", ...fields } whose
 * metatable is vdx.Error.  The type survives every hop to the Lua layer,
 * which renders it for people and agents.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"

/* The registry's weak set of misuse errors still to be named by the
 * binding they leave (see vdx__misuse and typed_call). */
#define UNNAMED_KEY "vdx.unnamed"

static void push_v(lua_State *L, const char *type, const char *fmt, va_list ap) {
  luaL_checkstack(L, 6, "vdx: error");
  lua_createtable(L, 0, 4);
  lua_pushstring(L, type);
  lua_setfield(L, -2, "type");
  lua_pushvfstring(L, fmt, ap);
  lua_setfield(L, -2, "message");
  luaL_setmetatable(L, VDX_ERROR_MT);
}

void vdx__error_push(lua_State *L, const char *type, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  push_v(L, type, fmt, ap);
  va_end(ap);
}

int vdx__error_raise(lua_State *L, const char *type, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  push_v(L, type, fmt, ap);
  va_end(ap);
  return lua_error(L);
}

void vdx__misuse_push(lua_State *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  push_v(L, "InvalidArgument", fmt, ap);
  va_end(ap);
  if (lua_getfield(L, LUA_REGISTRYINDEX, UNNAMED_KEY) == LUA_TTABLE) {
    lua_pushvalue(L, -2);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
  }
  lua_pop(L, 1);
}

int vdx__misuse(lua_State *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  vdx__misuse_push(L, "%s", lua_tostring(L, -1));
  return lua_error(L);
}

/* ------------------------------------------------------ the caller's line */

/* Whether chunk source src is a file of vdx's own Lua layer (vdx.lua or
 * vdx/…, from the binary or wherever it is installed). */
static int layer_source(const char *src) {
  if (*src++ != '@') return 0;
  for (const char *p = src; (p = strstr(p, "vdx")) != NULL; p += 3)
    if ((p == src || p[-1] == '/') && (p[3] == '/' || strcmp(p + 3, ".lua") == 0)) return 1;
  return 0;
}

/* Sets field where of the error table at idx, unless it has one, to the
 * "file:line" of the nearest Lua function on L's stack outside vdx's own
 * Lua files: the line of the user's script that made the failing call,
 * which a plain lua5.4 host would otherwise not be told. */
static void set_where(lua_State *L, int idx) {
  lua_Debug ar;
  int top = lua_gettop(L), unset;
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx)) return;
  lua_pushliteral(L, "type");
  unset = lua_rawget(L, idx) == LUA_TSTRING;
  lua_pushliteral(L, "where");
  unset = unset && lua_rawget(L, idx) == LUA_TNIL;
  lua_settop(L, top);
  for (int level = 0; unset && lua_getstack(L, level, &ar); level++) {
    if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0 || layer_source(ar.source)) continue;
    lua_pushfstring(L, "%s:%d", ar.short_src, ar.currentline);
    lua_setfield(L, idx, "where");
    return;
  }
}

/* ------------------------------------------------------ typed bindings */

/* Whether message m starts with the name of what it is about
 * ("press_key: …", "vdx.page_script: …"). */
static int names_itself(const char *m) {
  const char *p = m;
  while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == ':') p++;
  return p - m > 1 && p[-1] == ':' && *p == ' ';
}

/* The lauxlib argument error at idx ("bad argument #2 to '?' (detail)":
 * the binding was called from C, so Lua could not name it) becomes an
 * InvalidArgument naming the binding; anything else is left alone. */
static void type_argerror(lua_State *L, int idx, const char *name) {
  const char *m = lua_tostring(L, idx), *detail;
  char *end;
  if (strncmp(m, "bad argument #", 14) != 0) return;
  long arg = strtol(m + 14, &end, 10);
  if (strncmp(end, " to '?' (", 9) != 0) return;
  detail = end + 9;
  lua_pushlstring(L, detail, strlen(detail) - (*detail && detail[strlen(detail) - 1] == ')'));
  detail = lua_tostring(L, -1);
  if (strchr(name, ':')) arg--;                 /* a method: self is #0 */
  if (arg < 0)                                  /* a stack index, no argument */
    vdx__error_push(L, "InvalidArgument", "%s: %s", name, detail);
  else if (arg == 0)
    vdx__error_push(L, "InvalidArgument", "%s: call it on its object, with a "
                    "colon: %s(…) (%s)", name, name, detail);
  else if (strstr(detail, " expected, got "))
    vdx__error_push(L, "InvalidArgument", "%s: argument #%d: %s", name,
                    (int)arg, detail);
  else
    vdx__error_push(L, "InvalidArgument", "%s: %s", name, detail);
  lua_remove(L, -2);
  lua_replace(L, idx);
}

/* A misuse error raised by vdx__misuse gets the binding's name in front,
 * unless its message names its function already. */
static void name_misuse(lua_State *L, int idx, const char *name) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, UNNAMED_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    return;
  }
  lua_pushvalue(L, idx);
  if (lua_rawget(L, -2) != LUA_TNIL) {
    lua_pushvalue(L, idx);
    lua_pushnil(L);
    lua_rawset(L, -4);
    lua_getfield(L, idx, "message");
    const char *m = lua_tostring(L, -1);
    if (m && !names_itself(m)) {
      lua_pushfstring(L, "%s: %s", name, m);
      lua_setfield(L, idx, "message");
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
}

/* stack: results or the error -> results, or raises the error typed. */
static int typed_k(lua_State *L, int status, lua_KContext ctx) {
  (void)ctx;
  if (status == LUA_OK || status == LUA_YIELD) return lua_gettop(L);
  const char *name = lua_tostring(L, lua_upvalueindex(2));
  int e = lua_gettop(L);
  if (lua_type(L, e) == LUA_TSTRING) type_argerror(L, e, name);
  else if (lua_istable(L, e)) name_misuse(L, e, name);
  set_where(L, e);
  return lua_error(L);
}

/* A binding wrapped by vdx__error_wrap: calls the C function (upvalue 1)
 * in a protected call that lets it yield, so its misuse reaches Lua as an
 * InvalidArgument that names it (upvalue 2) instead of lauxlib's
 * "bad argument #2 to '?'".  stack: args -> results */
static int typed_call(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  return typed_k(L, lua_pcallk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, 0, typed_k), 0);
}

void vdx__error_wrap(lua_State *L, int idx, const char *owner, const char *sep) {
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) == LUA_TSTRING && lua_iscfunction(L, -1) &&
        lua_tocfunction(L, -1) != typed_call) {
      lua_pushfstring(L, "%s%s%s", owner, sep, lua_tostring(L, -2));
      lua_pushcclosure(L, typed_call, 2);
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, idx);
    } else {
      lua_pop(L, 1);
    }
  }
}

void vdx__error_wrap_all(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  vdx__error_wrap(L, idx, "vdx", ".");
  lua_pushnil(L);
  while (lua_next(L, idx)) {                 /* vdx.input.press, … */
    if (lua_type(L, -2) == LUA_TSTRING && lua_istable(L, -1)) {
      lua_pushfstring(L, "vdx.%s", lua_tostring(L, -2));
      vdx__error_wrap(L, -2, lua_tostring(L, -1), ".");
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pushnil(L);
  while (lua_next(L, LUA_REGISTRYINDEX)) {   /* page:snapshot, … */
    int top = lua_gettop(L);
    const char *k = lua_type(L, top - 1) == LUA_TSTRING ? lua_tostring(L, top - 1) : "";
    if (strncmp(k, "vdx.", 4) == 0 && isupper((unsigned char)k[4]) &&
        lua_istable(L, top) && lua_getfield(L, top, "__index") == LUA_TTABLE) {
      char owner[64];
      snprintf(owner, sizeof owner, "%c%s", tolower((unsigned char)k[4]), k + 5);
      vdx__error_wrap(L, -1, owner, ":");
    }
    lua_settop(L, top - 1);
  }
}

/* tostring(err) -> "Type: message (at file:line)" (see set_where). */
static int error_tostring(lua_State *L) {
  lua_getfield(L, 1, "type");
  lua_getfield(L, 1, "message");
  lua_getfield(L, 1, "where");
  const char *m = luaL_optstring(L, -2, "(no message)"), *w = lua_tostring(L, -1);
  lua_pushfstring(L, "%s: %s", luaL_optstring(L, -3, "Error"), m);
  /* A misuse message starts with its position already. */
  if (w && strncmp(m, w, strlen(w)) != 0) {
    lua_pushfstring(L, " (at %s)", w);
    lua_concat(L, 2);
  }
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
  set_where(L, -1);
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

/* Creates the vdx.Error metatable and the set of unnamed misuse errors,
 * and sets error/is_error on the table at the top of the stack. */
void vdx__error_open(lua_State *L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, UNNAMED_KEY) != LUA_TTABLE) {
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, UNNAMED_KEY);
  }
  lua_pop(L, 1);
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
