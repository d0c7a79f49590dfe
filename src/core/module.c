/*
 * module.c -- luaopen_vdx_core: the table of the C primitives, which
 * lua/vdx.lua turns into the `vdx` module.
 */
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

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
 * vdx.trim_memory() -> true when memory went back to the system, false
 * when there was none to give back, nil when the C library cannot trim.
 * glibc keeps the memory a large message or snapshot text freed (its
 * thresholds grow after a large block is freed), so a long-lived host's
 * RSS stays at its peak; malloc_trim returns the free pages.  It walks the
 * heap (about 1-2 ms for 10 MiB): call it when idle, after a full
 * collectgarbage(), as `vdxlua mcp` does (vdx.mcp_idle).
 */
static int l_trim_memory(lua_State *L) {
#ifdef __GLIBC__
  lua_pushboolean(L, malloc_trim(0));
#else
  lua_pushnil(L);
#endif
  return 1;
}

/* Sets module[field] to the methods table (the __index) of the class
 * registered as mt, the table the Lua layer adds its methods to: vdx.Page,
 * vdx.Context and vdx.Browser.  stack: module -> module */
static void expose_methods(lua_State *L, const char *mt, const char *field) {
  luaL_getmetatable(L, mt);
  lua_getfield(L, -1, "__index");
  lua_setfield(L, -3, field);
  lua_pop(L, 1);
}

/*
 * luaopen_vdx_core: the C half of vdx, the primitives alone.  It needs no
 * Lua file: `require "vdx"` loads lua/vdx.lua, which requires this
 * module and adds the Lua layer's page methods (the actions) to vdx.Page.
 * vdx.so exports it as the all-in-one loader of "vdx.core".
 */
LUALIB_API int luaopen_vdx_core(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"launch", vdx__launch},
    {"find_browser", vdx__find_browser},
    {"connect", vdx__connect},
    {"spawn", vdx__l_spawn},
    {"wait", vdx__l_wait},
    {"sleep", vdx__l_sleep},
    {"run", vdx__l_run},
    {"current_task", vdx__l_current},
    {"now", l_now},
    {"trim_memory", l_trim_memory},
    {"trace", vdx__l_trace},
    {"read_lines", vdx__read_lines},
    {"watch", vdx__watch},
    {"read_file", vdx__read_file},
    {"page_script", vdx__l_page_script},
    {NULL, NULL}};
  vdx__loop_open(L);
  vdx__task_open(L);
  vdx__browser_open(L);
  vdx__context_open(L);
  vdx__page_open(L);
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
  vdx__fsbeneath_open(L);
  vdx__error_wrap_all(L, -1);
  expose_methods(L, VDX_PAGE_MT, "Page");
  expose_methods(L, VDX_CONTEXT_MT, "Context");
  expose_methods(L, VDX_BROWSER_MT, "Browser");
  return 1;
}

/*
 * luaopen_vdx: reached only when `require "vdx"` finds vdx.so before
 * vdx.lua, that is when the Lua layer is not on package.path.  It
 * raises an error that says how to fix that.
 */
LUALIB_API int luaopen_vdx(lua_State *L) {
  return luaL_error(L, "vdx: require \"vdx\" found vdx.so but not its Lua "
                    "layer (vdx.lua and the vdx/ folder).  Put the folder "
                    "that holds them on LUA_PATH (in a checkout: "
                    "LUA_PATH=\"lua/?.lua;;\"), or run make install; "
                    "require \"vdx.core\" loads the C primitives alone.");
}
