/*
 * upload.c -- page:set_input_files: the one step of an upload that the
 * bridge cannot take, since a page cannot set a file input's files.  The
 * file input of a ref (or of the input its label controls) is fetched as
 * a remote object from the ref's bridge (fileInput, a by-reference call)
 * and given the files there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"

/* stack: page, ref, paths, timeout, [value] */
static int files_k(lua_State *L, int status, lua_KContext step) {
  (void)status;
  vdx_page *p = vdx__check_open_page(L, 1);
  vdx_frame *f = vdx__ref_frame(L, p, lua_tostring(L, 2));
  if (step == 1) {
    lua_pushboolean(L, 1);
    return 1;
  }
  if (!lua_isstring(L, 5)) {
    vdx__error_push(L, "StaleRef", "%s: the element is gone", lua_tostring(L, 2));
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "ref");
    return lua_error(L);
  }
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, 3);
  lua_setfield(L, -2, "files");
  lua_pushvalue(L, 5);
  lua_setfield(L, -2, "objectId");
  vdx_waiter *w = vdx__conn_call(L, vdx__browser_conn(L, p->b), f->sid,
                                 "DOM.setFileInputFiles", -1,
                                 (int)lua_tointeger(L, 4));
  if (w == NULL) return lua_error(L);
  lua_settop(L, 4);
  return vdx__await(L, w, 1, files_k);
}

/*
 * page:set_input_files(ref, paths [, {timeout_ms=}]) -> true.  paths is a
 * list of absolute paths.  Raises the bridge's errors for the ref
 * (StaleRef when the element is gone, NotFileInput) and UnknownRef /
 * InvalidArgument for a ref that is not one.
 */
static int page_set_input_files(lua_State *L) {
  static const char *const known[] = {"timeout_ms", NULL};
  vdx_page *p = vdx__check_open_page(L, 1);
  vdx_frame *f = vdx__ref_frame(L, p, luaL_checkstring(L, 2));
  luaL_checktype(L, 3, LUA_TTABLE);
  vdx__check_opts(L, 4, known);
  int timeout = (int)vdx__opt_int(L, 4, "timeout_ms", 0);
  lua_settop(L, 3);
  lua_pushinteger(L, timeout);
  lua_createtable(L, 1, 0);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 1);
  const vdx_bridge_opts by_ref = {.by_ref = 1};
  vdx_waiter *w = vdx__bridge_call_opts(L, p, f->id, "fileInput", -1, timeout,
                                        &by_ref);
  if (w == NULL) return luaL_error(L, "out of memory");
  lua_settop(L, 4);
  return vdx__await(L, w, 0, files_k);
}

/* vdx.realpath(path) -> the absolute path of an existing file; raises
 * IOError naming the path otherwise. */
static int l_realpath(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  char *abs = realpath(path, NULL);
  if (abs == NULL) return vdx__error_raise(L, "IOError", "no such file: %s", path);
  lua_pushstring(L, abs);
  free(abs);
  return 1;
}

void vdx__upload_open(lua_State *L) {
  lua_pushcfunction(L, l_realpath);
  lua_setfield(L, -2, "realpath");
}

void vdx__upload_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"set_input_files", page_set_input_files},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
