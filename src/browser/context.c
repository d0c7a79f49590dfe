/*
 * context.c -- vdx.Context, an isolated (incognito-like) browser context:
 * its own cookies, storage and cache.  browser:new_page() uses the
 * browser's default context.
 */
#include <stdio.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"

vdx_context *vdx__check_context(lua_State *L, int idx) {
  return luaL_checkudata(L, idx, VDX_CONTEXT_MT);
}

/* Pushes a context object for id ("" = default) of the browser at bidx. */
static vdx_context *push_context(lua_State *L, int bidx, const char *id) {
  bidx = lua_absindex(L, bidx);
  vdx_context *c = lua_newuserdatauv(L, sizeof *c, 1);
  memset(c, 0, sizeof *c);
  c->b = vdx__check_browser(L, bidx);
  snprintf(c->id, sizeof c->id, "%s", id);
  luaL_setmetatable(L, VDX_CONTEXT_MT);
  lua_pushvalue(L, bidx);
  lua_setiuservalue(L, -2, 1);
  return c;
}

static int new_context_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  lua_getfield(L, -1, "browserContextId");
  push_context(L, 1, luaL_checkstring(L, -1));
  return 1;
}

/* browser:new_context() -> vdx.Context, isolated from every other one. */
static int browser_new_context(lua_State *L) {
  vdx_browser *b = vdx__check_open_browser(L, 1);
  lua_settop(L, 1);
  lua_createtable(L, 0, 1);
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "disposeOnDetach");
  vdx_waiter *w = vdx__conn_call(L, vdx__browser_conn(L, b), NULL,
                                 "Target.createBrowserContext", 2, 0);
  if (w == NULL) return lua_error(L);
  lua_settop(L, 1);
  return vdx__await(L, w, 0, new_context_k);
}

/* browser:default_context() -> the vdx.Context of the browser's own
 * profile (id ""): its first new_page() on a launched browser takes the
 * tab Chromium opened at start, whose renderer started with the browser. */
static int browser_default_context(lua_State *L) {
  vdx__check_open_browser(L, 1);
  push_context(L, 1, "");
  return 1;
}

/* browser:new_page() -> vdx.Page in the browser's default context. */
static int browser_new_page(lua_State *L) {
  vdx__check_open_browser(L, 1);
  lua_settop(L, 1);
  push_context(L, 1, "");
  lua_replace(L, 1);
  return vdx__page_create(L, 1);
}

static vdx_context *check_open(lua_State *L, int idx) {
  vdx_context *c = vdx__check_context(L, idx);
  if (c->b->closed)
    vdx__error_raise(L, "BrowserClosed", "the context's browser is closed (%s)",
                     c->b->closed_why);
  if (c->closed)
    vdx__error_raise(L, "BrowserClosed", "the browser context is closed "
                     "(context:close() was called)");
  return c;
}

/* ctx:new_page() -> vdx.Page, a new tab in this context. */
static int context_new_page(lua_State *L) {
  check_open(L, 1);
  lua_settop(L, 1);
  return vdx__page_create(L, 1);
}

/* ctx:close() -> true.  Closes every page of the context and drops its
 * cookies and storage.  A second call is a no-op. */
static int context_close(lua_State *L) {
  vdx_context *c = vdx__check_context(L, 1);
  lua_settop(L, 1);
  if (c->closed || c->b->closed || !*c->id || c->b->conn == NULL ||
      vdx__conn_closed(c->b->conn)) {
    c->closed = 1;
    lua_pushboolean(L, 1);
    return 1;
  }
  c->closed = 1;
  lua_createtable(L, 0, 1);
  lua_pushstring(L, c->id);
  lua_setfield(L, -2, "browserContextId");
  vdx_waiter *w = vdx__conn_call(L, c->b->conn, NULL,
                                 "Target.disposeBrowserContext", 2, 0);
  if (w == NULL) return lua_error(L);
  lua_settop(L, 1);
  return vdx__await(L, w, 0, vdx__k_true);
}

/* ctx:id() -> the CDP browserContextId ("" for the default context). */
static int context_id(lua_State *L) {
  lua_pushstring(L, vdx__check_context(L, 1)->id);
  return 1;
}

/* ctx:browser() -> the vdx.Browser this context belongs to. */
static int context_browser(lua_State *L) {
  vdx__check_context(L, 1);
  lua_getiuservalue(L, 1, 1);
  return 1;
}

static int context_tostring(lua_State *L) {
  vdx_context *c = vdx__check_context(L, 1);
  if (c->closed || c->b->closed) lua_pushliteral(L, "vdx.Context (closed)");
  else lua_pushfstring(L, "vdx.Context (%s)", *c->id ? c->id : "default");
  return 1;
}

/* __close: disposes the context without waiting for the reply. */
static int context_closeslot(lua_State *L) {
  vdx_context *c = vdx__check_context(L, 1);
  if (!c->closed && *c->id && !c->b->closed && c->b->conn &&
      !vdx__conn_closed(c->b->conn)) {
    lua_createtable(L, 0, 1);
    lua_pushstring(L, c->id);
    lua_setfield(L, -2, "browserContextId");
    vdx__conn_send_only(L, c->b->conn, NULL, "Target.disposeBrowserContext", -1);
    lua_pop(L, 1);
  }
  c->closed = 1;
  return 0;
}

void vdx__context_browser_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"new_context", browser_new_context},
    {"default_context", browser_default_context},
    {"new_page", browser_new_page},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}

int vdx__context_open(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"new_page", context_new_page},
    {"close", context_close},
    {"id", context_id},
    {"browser", context_browser},
    {NULL, NULL}};
  luaL_newmetatable(L, VDX_CONTEXT_MT);
  luaL_newlib(L, methods);
  vdx__tabs_context_methods(L);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, context_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, context_closeslot);
  lua_setfield(L, -2, "__close");
  lua_pop(L, 1);
  return 0;
}
