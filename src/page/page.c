/*
 * page.c -- vdx.Page: one tab, attached as a flattened CDP session.
 *
 * The page tracks its main frame's document from events (frameNavigated,
 * lifecycleEvent, responseReceived), so goto() waits on an event-resolved
 * waiter, never by polling.  When the target goes away, everything waiting
 * on the page fails at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "events.h"
#include "nav.h"

vdx_page *vdx__check_page(lua_State *L, int idx) {
  return luaL_checkudata(L, idx, VDX_PAGE_MT);
}

/* Raises the typed error of a page that cannot take calls: BrowserClosed
 * when its browser went, PageClosed when the tab went, PageCrashed when its
 * renderer crashed (unless recovering: navigating is how it recovers). */
static vdx_page *check_usable(lua_State *L, int idx, int recovering) {
  vdx_page *p = vdx__check_page(L, idx);
  if (p->closed) {
    if (p->b == NULL || p->b->closed || p->b->conn == NULL ||
        vdx__conn_closed(p->b->conn))
      vdx__error_raise(L, "BrowserClosed", "the page's browser is closed: %s",
                       p->close_reason);
    vdx__error_raise(L, "PageClosed", "the page is closed (%s)",
                     p->close_reason);
  }
  if (p->crashed && !recovering)
    vdx__error_raise(L, "PageCrashed", "%s", VDX_CRASHED_MSG);
  vdx__browser_conn(L, p->b);
  return p;
}

vdx_page *vdx__check_open_page(lua_State *L, int idx) {
  return check_usable(L, idx, 0);
}

vdx_page *vdx__check_navigable_page(lua_State *L, int idx) {
  vdx_page *p = check_usable(L, idx, 1);
  p->crashed = 0;
  return p;
}

static vdx_page *check_open(lua_State *L, int idx) {
  return check_usable(L, idx, 0);
}

static vdx_conn *page_conn(lua_State *L, vdx_page *p) {
  return vdx__browser_conn(L, p->b);
}

void vdx__page_detached(lua_State *L, vdx_page *p, const char *why) {
  if (p->closed) return;
  p->closed = 1;
  snprintf(p->close_reason, sizeof p->close_reason, "%s", why);
  int gone = p->b->closed || p->b->conn == NULL || vdx__conn_closed(p->b->conn);
  vdx__nav_fail(L, p, gone ? "BrowserClosed" : "PageClosed", why);
  vdx__frames_clear(L, p, why);
}

void vdx__page_crashed(lua_State *L, vdx_page *p) {
  if (p->closed || p->crashed) return;
  p->crashed = 1;
  vdx__nav_fail(L, p, "PageCrashed", VDX_CRASHED_MSG);
  vdx__frames_clear(L, p, VDX_CRASHED_MSG);
  if (p->b->conn)
    vdx__conn_fail_session(L, p->b->conn, p->session_id, "PageCrashed",
                           VDX_CRASHED_MSG);
}

static void page_event(lua_State *L, void *data, const char *sid,
                       const char *method, int params) {
  vdx_page *p = data;
  vdx__frames_event(L, p, sid, method, params);
  vdx__sessions_event(L, p, sid, method, params);
  if (strcmp(sid, p->session_id) != 0) return;   /* a child session */
  vdx__page_events(L, p, method, params);
  vdx__nav_event(L, p, method, params);
  if (strcmp(method, "Inspector.targetCrashed") == 0) {
    vdx__page_crashed(L, p);
  } else if (strcmp(method, "Inspector.targetReloadedAfterCrash") == 0) {
    p->crashed = 0;
  }
}

/* ------------------------------------------------------------ create */

vdx_page *vdx__page_push(lua_State *L, int ctx_idx, const char *target_id,
                         const char *sid) {
  vdx_context *ctx = vdx__check_context(L, ctx_idx);
  ctx_idx = lua_absindex(L, ctx_idx);
  vdx_page *p = lua_newuserdatauv(L, sizeof *p, 1);
  memset(p, 0, sizeof *p);
  p->b = ctx->b;
  p->ctx = ctx;
  snprintf(p->target_id, sizeof p->target_id, "%s", target_id);
  snprintf(p->frame_id, sizeof p->frame_id, "%s", target_id);
  snprintf(p->session_id, sizeof p->session_id, "%s", sid);
  p->on_ref = p->setup_ref = LUA_NOREF;
  luaL_setmetatable(L, VDX_PAGE_MT);
  lua_pushvalue(L, ctx_idx);
  lua_setiuservalue(L, -2, 1);
  vdx__page_register(L, -1);               /* events.h: for ctx:pages() */
  p->next = p->b->pages;
  if (p->next) p->next->prev = p;
  p->b->pages = p;
  if (p->b->conn) vdx__conn_observe(p->b->conn, sid, page_event, p);
  vdx_frame *main = NULL;
  p->capframes = 8;
  p->frames = calloc((size_t)p->capframes, sizeof *p->frames);
  if (p->frames) {
    main = &p->frames[p->nframes++];
    snprintf(main->id, sizeof main->id, "%s", target_id);
    snprintf(main->sid, sizeof main->sid, "%s", sid);
  }
  return p;
}

/* Routes the events of a child frame's session to p too. */
void vdx__page_observe(vdx_page *p, const char *sid) {
  if (p->b->conn) vdx__conn_observe(p->b->conn, sid, page_event, p);
}

static int create_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  /* stack: ctx, …, result */
  vdx_context *c = vdx__check_context(L, 1);
  vdx_conn *conn = vdx__browser_conn(L, c->b);
  vdx_waiter *w;
  switch (ctx) {
  case 0:                                   /* created: attach */
    lua_getfield(L, -1, "targetId");
    lua_replace(L, 2);
    lua_settop(L, 2);
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "targetId");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "flatten");
    w = vdx__conn_call(L, conn, NULL, "Target.attachToTarget", -1, 0);
    if (w == NULL) return lua_error(L);
    lua_settop(L, 2);
    return vdx__await(L, w, 1, create_k);
  case 1: {                                 /* attached: enable domains */
    lua_getfield(L, -1, "sessionId");
    const char *sid = luaL_checkstring(L, -1);
    vdx__page_push(L, 1, lua_tostring(L, 2), sid);
    lua_replace(L, 3);
    lua_settop(L, 3);
    vdx_page *p = vdx__check_page(L, 3);
    vdx__frames_setup(L, p, p->session_id, VDX_SETUP_BLANK);
    lua_createtable(L, 0, 1);
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "enabled");
    vdx__conn_send_only(L, conn, p->session_id,
                        "Page.setLifecycleEventsEnabled", -1);
    lua_pop(L, 1);
    w = vdx__conn_call(L, conn, p->session_id, "Network.enable", 0, 0);
    if (w == NULL) return lua_error(L);
    return vdx__await(L, w, 2, create_k);
  }
  default:                                  /* ready */
    lua_settop(L, 3);
    return 1;
  }
}

int vdx__page_create(lua_State *L, int ctx_idx) {
  vdx_context *c = vdx__check_context(L, ctx_idx);
  vdx_conn *conn = vdx__browser_conn(L, c->b);
  lua_pushvalue(L, ctx_idx);
  lua_replace(L, 1);
  lua_settop(L, 1);
  lua_pushnil(L);                           /* slot 2: targetId */
  vdx_browser *b = c->b;
  b->blank_done = 1;
  if (*b->blank && !*c->id) {               /* the launch's tab: no new renderer */
    lua_createtable(L, 0, 1);
    lua_pushstring(L, b->blank);
    lua_setfield(L, -2, "targetId");
    *b->blank = '\0';
    return create_k(L, 0, 0);
  }
  lua_createtable(L, 0, 2);
  lua_pushliteral(L, "about:blank");
  lua_setfield(L, -2, "url");
  if (*c->id) {
    lua_pushstring(L, c->id);
    lua_setfield(L, -2, "browserContextId");
  }
  vdx_waiter *w = vdx__conn_call(L, conn, NULL, "Target.createTarget", -1, 0);
  if (w == NULL) return lua_error(L);
  lua_settop(L, 2);
  return vdx__await(L, w, 0, create_k);
}

/* ---------------------------------------------------------- evaluate */

static int evaluate_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  int r = lua_gettop(L);
  lua_getfield(L, r, "exceptionDetails");
  if (lua_istable(L, -1)) {
    int ex = lua_gettop(L);
    lua_getfield(L, ex, "exception");
    const char *desc = NULL;
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, "description");
      desc = lua_tostring(L, -1);
    }
    lua_getfield(L, ex, "text");
    vdx__error_push(L, "JavaScriptError", "%s",
                    desc ? desc : luaL_optstring(L, -1, "exception"));
    lua_getfield(L, ex, "lineNumber");
    lua_setfield(L, -2, "line");
    lua_getfield(L, ex, "columnNumber");
    lua_setfield(L, -2, "column");
    return lua_error(L);
  }
  lua_getfield(L, r, "result");
  lua_getfield(L, -1, "unserializableValue");
  if (lua_isstring(L, -1)) {
    const char *u = lua_tostring(L, -1);
    if (strcmp(u, "NaN") == 0) lua_pushnumber(L, (lua_Number)NAN);
    else if (strcmp(u, "Infinity") == 0) lua_pushnumber(L, HUGE_VAL);
    else if (strcmp(u, "-Infinity") == 0) lua_pushnumber(L, -HUGE_VAL);
    else if (strcmp(u, "-0") == 0) lua_pushnumber(L, -0.0);
    else lua_pushvalue(L, -1);             /* BigInt: "123n" as a string */
    return 1;
  }
  lua_getfield(L, -2, "value");
  if (lua_touserdata(L, -1) == NULL && lua_type(L, -1) == LUA_TLIGHTUSERDATA)
    lua_pushnil(L);                        /* JSON null at top level */
  return 1;
}

/*
 * page:evaluate(expression [, {timeout_ms=, await_promise=true}]) -> value.
 * JSON-able results become Lua values (undefined and null become nil);
 * a thrown exception raises a JavaScriptError.  Unrestricted: this is the
 * scripting API, not the agent-facing one.
 */
static int page_evaluate(lua_State *L) {
  static const char *const known[] = {"timeout_ms", "await_promise", NULL};
  vdx_page *p = check_open(L, 1);
  luaL_checkstring(L, 2);
  vdx__check_opts(L, 3, known);
  int timeout = (int)vdx__opt_int(L, 3, "timeout_ms", 0);
  int await = 1;
  if (lua_istable(L, 3)) {
    lua_getfield(L, 3, "await_promise");
    if (!lua_isnil(L, -1)) await = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  lua_createtable(L, 0, 4);
  lua_pushvalue(L, 2);
  lua_setfield(L, -2, "expression");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "returnByValue");
  lua_pushboolean(L, await);
  lua_setfield(L, -2, "awaitPromise");
  vdx_waiter *w = vdx__conn_call(L, page_conn(L, p), p->session_id,
                                 "Runtime.evaluate", -1, timeout);
  if (w == NULL) return lua_error(L);
  lua_settop(L, 1);
  return vdx__await(L, w, 0, evaluate_k);
}

/* ----------------------------------------------------- raw and close */

/* page:send(method [, params [, {timeout_ms=, frame=, session=}]]) ->
 * result table: raw CDP on the page's session, on the session of the frame
 * `frame` names (a frame's name or a ref; an out-of-process frame has its
 * own), or on `session`, the page's or one of its child sessions (see
 * page:sessions()).  A CDP error raises a CDPError. */
static int page_send(lua_State *L) {
  static const char *const known[] = {"timeout_ms", "frame", "session", NULL};
  vdx_page *p = check_open(L, 1);
  const char *sid = p->session_id;
  if (lua_istable(L, 4)) {
    if (lua_getfield(L, 4, "frame") != LUA_TNIL) sid = vdx__frame_named(L, p, -1)->sid;
    lua_pop(L, 1);
    if (lua_getfield(L, 4, "session") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING)
        vdx__error_raise(L, "InvalidArgument", "page:send: session must be a "
                         "session id string (page:sessions() lists them)");
      sid = vdx__sessions_check(L, p, lua_tostring(L, -1));
    }
    lua_pop(L, 1);
  }
  return vdx__send(L, page_conn(L, p), sid, known);
}

/* page:on(event, fn [, {sessions=}]): fn runs as a task for each event of
 * the page's session: fn(params) ("*" receives every event as fn(method,
 * params)).  With sessions = "children", fn sees the events of every
 * current and future child session (out-of-process frames, dedicated
 * workers) instead, as fn(params, sid) (or fn(method, params, sid)); with
 * "all", those of the page's own session too, in the same shape. */
static int page_on(lua_State *L) {
  static const char *const known[] = {"sessions", NULL};
  vdx_page *p = check_open(L, 1);
  const char *ev = luaL_checkstring(L, 2);
  luaL_checktype(L, 3, LUA_TFUNCTION);
  vdx__check_opts(L, 4, known);
  if (lua_istable(L, 4) && lua_getfield(L, 4, "sessions") != LUA_TNIL) {
    const char *s = lua_tostring(L, -1);
    int all = s && strcmp(s, "all") == 0;
    if (!all && !(s && strcmp(s, "children") == 0))
      vdx__error_raise(L, "InvalidArgument", "page:on: sessions must be "
                       "\"children\" or \"all\"");
    vdx__sessions_on(L, p, ev, 3, all);
    return 0;
  }
  vdx__conn_on(L, page_conn(L, p), p->session_id, ev, 3);
  return 0;
}

static void unlink_page(lua_State *L, vdx_page *p) {
  if (p->b == NULL) return;
  if (p->b->conn) {
    vdx__conn_unobserve(p->b->conn, p->session_id, p);
    vdx__conn_off_session(p->b->conn, p->session_id);
    for (int i = 0; i < p->nchild; i++)
      vdx__conn_unobserve(p->b->conn, p->children[i].sid, p);
  }
  vdx__sessions_free(L, p);
  free(p->frames);
  p->frames = NULL;
  vdx__page_events_free(p);
  vdx__nav_free(p);
  p->nframes = p->capframes = 0;
  if (p->prev) p->prev->next = p->next; else if (p->b->pages == p) p->b->pages = p->next;
  if (p->next) p->next->prev = p->prev;
  p->next = p->prev = NULL;
}

static int close_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  lua_pushboolean(L, 1);
  return 1;
}

/* page:close() -> true.  Closes the tab; a second call is a no-op. */
static int page_close(lua_State *L) {
  vdx_page *p = vdx__check_page(L, 1);
  lua_settop(L, 1);
  if (p->closed || p->b->closed || p->b->conn == NULL ||
      vdx__conn_closed(p->b->conn)) {
    p->closed = 1;
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_createtable(L, 0, 1);
  lua_pushstring(L, p->target_id);
  lua_setfield(L, -2, "targetId");
  vdx_waiter *w = vdx__conn_call(L, p->b->conn, NULL, "Target.closeTarget",
                                 -1, 0);
  vdx__page_detached(L, p, "page:close() was called");
  if (w == NULL) return lua_error(L);
  lua_settop(L, 1);
  return vdx__await(L, w, 0, close_k);
}

/* page:target_id(), page:session_id(): the CDP identifiers. */
static int page_target_id(lua_State *L) {
  lua_pushstring(L, vdx__check_page(L, 1)->target_id);
  return 1;
}

/* page:session_id() -> the flattened CDP session id of the page. */
static int page_session_id(lua_State *L) {
  lua_pushstring(L, vdx__check_page(L, 1)->session_id);
  return 1;
}

/* page:default_timeout() -> the milliseconds a call of this page waits
 * when it is given no timeout_ms (the browser's timeout_ms). */
static int page_default_timeout(lua_State *L) {
  vdx_page *p = vdx__check_open_page(L, 1);
  lua_pushinteger(L, vdx__conn_default_timeout(page_conn(L, p)));
  return 1;
}

/* page:is_closed() -> true once the page was closed or its browser went. */
static int page_is_closed(lua_State *L) {
  vdx_page *p = vdx__check_page(L, 1);
  lua_pushboolean(L, p->closed || p->b == NULL || p->b->closed ||
                     p->b->conn == NULL || vdx__conn_closed(p->b->conn));
  return 1;
}

/* page:context() -> the vdx.Context of the page. */
static int page_context(lua_State *L) {
  vdx__check_page(L, 1);
  lua_getiuservalue(L, 1, 1);
  return 1;
}

static int page_tostring(lua_State *L) {
  vdx_page *p = vdx__check_page(L, 1);
  if (p->closed) lua_pushliteral(L, "vdx.Page (closed)");
  else lua_pushfstring(L, "vdx.Page (%s)", p->target_id);
  return 1;
}

static int page_gc(lua_State *L) {
  vdx_page *p = vdx__check_page(L, 1);
  if (p->b && !p->closed) {
    p->closed = 1;
    snprintf(p->close_reason, sizeof p->close_reason, "the page was collected");
    vdx__frames_clear(L, p, p->close_reason);
  }
  p->closed = 1;
  unlink_page(L, p);
  p->b = NULL;
  return 0;
}

int vdx__page_open(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"evaluate", page_evaluate},
    {"send", page_send},
    {"on", page_on},
    {"close", page_close},
    {"target_id", page_target_id},
    {"session_id", page_session_id},
    {"context", page_context},
    {"default_timeout", page_default_timeout},
    {"is_closed", page_is_closed},
    {NULL, NULL}};
  luaL_newmetatable(L, VDX_PAGE_MT);
  luaL_newlib(L, methods);
  vdx__snapshot_methods(L);
  vdx__describe_methods(L);
  vdx__explore_methods(L);
  vdx__log_methods(L);
  vdx__tabs_methods(L);
  vdx__nav_methods(L);
  vdx__capture_methods(L);
  vdx__input_methods(L);
  vdx__frame_offset_methods(L);
  vdx__upload_methods(L);
  vdx__sessions_methods(L);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, page_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, page_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, page_close);       /* local page <close> = … */
  lua_setfield(L, -2, "__close");
  lua_pop(L, 1);
  return 0;
}
