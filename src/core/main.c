/*
 * main.c -- the vdxlua executable: Lua 5.4 with vdx, cjson and the Lua
 * layer compiled in.  The Lua modules are registered in package.preload
 * under their real chunk names (@lua/vdx/x.lua), so tracebacks point at
 * the files.  The command line is handled by lua/vdx/cli.lua, which runs
 * as a task, so a script's browser calls yield to the loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <lua-cjson.h>

#include "vdx.h"

typedef struct {
  const char *name, *path;
  const unsigned char *data;
  size_t len;
} embedded;

extern const embedded vdx_lua_modules[];

/* package.preload loader: upvalue 1 is the index into vdx_lua_modules. */
static int load_embedded(lua_State *L) {
  const embedded *m = &vdx_lua_modules[lua_tointeger(L, lua_upvalueindex(1))];
  lua_pushfstring(L, "@%s", m->path);
  if (luaL_loadbufferx(L, (const char *)m->data, m->len, lua_tostring(L, -1),
                       "t") != LUA_OK)
    return lua_error(L);
  lua_pushstring(L, m->name);
  lua_pushfstring(L, "%s", m->path);
  lua_call(L, 2, 1);
  return 1;
}

static void preload(lua_State *L) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_cjson);
  lua_setfield(L, -2, "cjson");
  lua_pushcfunction(L, luaopen_vdx_core);
  lua_setfield(L, -2, "vdx.core");
  lua_pushcfunction(L, luaopen_vdx_serve);
  lua_setfield(L, -2, "vdx.serve");
  for (int i = 0; vdx_lua_modules[i].name; i++) {
    lua_pushinteger(L, i);
    lua_pushcclosure(L, load_embedded, 1);
    lua_setfield(L, -2, vdx_lua_modules[i].name);
  }
  lua_pop(L, 1);
}

static int traceback(lua_State *L) {
  if (lua_type(L, 1) == LUA_TTABLE) {
    lua_getfield(L, 1, "traceback");
    const char *tb = lua_tostring(L, -1);
    lua_pushfstring(L, "%s%s%s", luaL_tolstring(L, 1, NULL), tb ? "\n" : "",
                    tb ? tb : "");
    return 1;
  }
  luaL_traceback(L, L, luaL_tolstring(L, 1, NULL), 1);
  return 1;
}

/* stack: -> exit status.  Runs cli.main(argv) inside a task and waits. */
static int run(lua_State *L) {
  int argc = (int)lua_tointeger(L, 1);
  char **argv = lua_touserdata(L, 2);
  lua_settop(L, 0);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "vdx");
  lua_call(L, 1, 1);                         /* 1: vdx */
  lua_getglobal(L, "require");
  lua_pushliteral(L, "vdx.cli");
  lua_call(L, 1, 1);                         /* 2: cli */
  lua_getfield(L, 1, "wait");
  lua_getfield(L, 1, "spawn");
  lua_getfield(L, 2, "main");
  lua_createtable(L, argc, 1);
  for (int i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i);
  }
  lua_call(L, 2, 1);                         /* task */
  lua_call(L, 1, 1);                         /* status */
  return 1;
}

int main(int argc, char **argv) {
  vdx__trace("main");
  lua_State *L = luaL_newstate();
  int status;
  if (L == NULL) {
    fprintf(stderr, "vdxlua: cannot create the Lua state\n");
    return 1;
  }
  luaL_openlibs(L);
  preload(L);
  vdx__trace("Lua state ready");
  lua_pushcfunction(L, traceback);
  lua_pushcfunction(L, run);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  if (lua_pcall(L, 2, 1, 1) != LUA_OK) {
    fprintf(stderr, "vdxlua: %s\n", lua_tostring(L, -1));
    status = 1;
  } else {
    status = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1)
           : lua_toboolean(L, -1) || lua_isnil(L, -1) ? 0 : 1;
  }
  vdx__trace("Lua state closing");
  lua_close(L);
  vdx__trace("exit");
  return status;
}
