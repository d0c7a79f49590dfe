/*
 * module.c -- luaopen_vdx: the `vdx` module table.
 */
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "task.h"

/* vdx.now() -> the loop's clock in milliseconds (monotonic). */
static int l_now(lua_State *L) {
  uv_loop_t *uv = vdx__uv(L);
  uv_update_time(uv);
  lua_pushinteger(L, (lua_Integer)uv_now(uv));
  return 1;
}

/*
 * The actions of vdx.Page are Lua (lua/vdx/actions.lua, written on the
 * primitives above): the module is registered as package.loaded.vdx first,
 * so vdx.actions can require it, and then vdx.actions.install adds its
 * methods to vdx.Page.  stack: module -> module
 */
static void install_lua_actions(lua_State *L) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "vdx");
  lua_pop(L, 1);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "vdx.actions");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK)
    luaL_error(L, "vdx: cannot load its Lua half (vdx.actions): %s\n"
               "Put the folder that holds vdx/actions.lua on LUA_PATH (in a "
               "checkout: LUA_PATH=\"lua/?.lua;;\"), or run make install.",
               lua_tostring(L, -1));
  lua_getfield(L, -1, "install");
  luaL_getmetatable(L, VDX_PAGE_MT);
  lua_getfield(L, -1, "__index");
  lua_remove(L, -2);
  lua_call(L, 1, 0);
  lua_pop(L, 1);
}

LUALIB_API int luaopen_vdx(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"launch", vdx__launch},
    {"connect", vdx__connect},
    {"serve", vdx__serve},
    {"spawn", vdx__l_spawn},
    {"wait", vdx__l_wait},
    {"sleep", vdx__l_sleep},
    {"run", vdx__l_run},
    {"current_task", vdx__l_current},
    {"now", l_now},
    {"trace", vdx__l_trace},
    {"read_lines", vdx__read_lines},
    {"watch", vdx__watch},
    {"read_file", vdx__read_file},
    {"page_script", vdx__l_page_script},
    {NULL, NULL}};
  vdx__loop_open(L);
  vdx__json_open(L);
  vdx__task_open(L);
  vdx__browser_open(L);
  vdx__context_open(L);
  vdx__page_open(L);
  vdx__serve_open(L);
  luaL_newlib(L, fns);
  vdx__error_open(L);
  vdx__poll_open(L);
  lua_pushliteral(L, VDX_VERSION);
  lua_setfield(L, -2, "version");
  lua_getglobal(L, "require");
  lua_pushliteral(L, "cjson");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "null");
  lua_setfield(L, -3, "null");
  lua_pop(L, 1);
  vdx__input_open(L);
  vdx__ref_open(L);
  vdx__upload_open(L);
  vdx__error_wrap_all(L, -1);
  install_lua_actions(L);
  return 1;
}
