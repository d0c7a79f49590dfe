/*
 * connect.c -- vdx.connect: reach a running browser over WebSocket, given
 * its ws://…/devtools/browser/… URL or the http://host:port from which
 * /json/version gives that URL.
 *
 * The ws.c callbacks arrive exactly once; an op struct carries them to a
 * waiter that may already have timed out, in which case a late transport
 * is closed instead of leaked.
 */
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"

vdx_browser *vdx__browser_push(lua_State *L, vdx_conn *conn, vdx_proc *proc,
                               int timeout_ms);

typedef struct op {
  vdx_loop *lp;
  vdx_waiter *w;   /* NULL once the waiter has completed */
} op;

static void op_waiter_done(vdx_waiter *w, void *data) {
  op *o = data;
  (void)w;
  o->w = NULL;
}

static op *op_new(vdx_loop *lp, vdx_waiter *w) {
  op *o = malloc(sizeof *o);
  if (o == NULL) return NULL;
  o->lp = lp;
  o->w = w;
  vdx__waiter_on_done(w, op_waiter_done, o);
  return o;
}

static void ws_done(void *data, vdx_transport *t, const char *err) {
  op *o = data;
  lua_State *L = vdx__main_state(o->lp);
  if (o->w == NULL) {                 /* timed out already */
    if (t) t->close(t);
  } else if (t) {
    vdx__waiter_on_done(o->w, NULL, NULL);
    lua_pushlightuserdata(L, t);
    vdx__waiter_resolve(o->w, L);
  } else {
    vdx__waiter_on_done(o->w, NULL, NULL);
    vdx__error_push(L, "ConnectFailed", "cannot connect: %s", err);
    vdx__waiter_reject(o->w, L);
  }
  free(o);
}

static void http_done(void *data, const char *body, size_t len,
                      const char *err) {
  op *o = data;
  lua_State *L = vdx__main_state(o->lp);
  if (o->w != NULL) {
    vdx__waiter_on_done(o->w, NULL, NULL);
    if (body) {
      lua_pushlstring(L, body, len);
      vdx__waiter_resolve(o->w, L);
    } else {
      vdx__error_push(L, "ConnectFailed", "cannot read /json/version: %s", err);
      vdx__waiter_reject(o->w, L);
    }
  }
  free(o);
}

static int connected_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  lua_pop(L, 1);   /* version */
  return 1;        /* browser */
}

/* After the WebSocket is up: wrap it in a conn and a browser. */
static int ws_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  int timeout = (int)(ctx >> 4), guard_idx = (int)(ctx & 15);
  vdx_transport *t = lua_touserdata(L, -1);
  const char *url = lua_tostring(L, -2);
  vdx_proc *proc = NULL;
  lua_pop(L, 1);
  if (guard_idx) {
    vdx_proc **g = lua_touserdata(L, guard_idx);
    proc = *g;
    *g = NULL;
  }
  vdx_conn *c = vdx__conn_new(L, t, timeout);
  if (c == NULL) {
    t->close(t);
    return luaL_error(L, "out of memory");
  }
  vdx_browser *b = vdx__browser_push(L, c, proc, timeout);
  snprintf(b->endpoint, sizeof b->endpoint, "%s", url);
  vdx_waiter *w = vdx__conn_call(L, c, NULL, "Browser.getVersion", 0, timeout);
  if (w == NULL) return lua_error(L);
  return vdx__await(L, w, 0, connected_k);
}

/*
 * Connects to url (ws://) and continues as the browser constructor; the
 * URL is left on the stack.  guard_idx, if not 0, is the launch guard that
 * holds the browser process, which the new browser then owns.
 */
int vdx__connect_ws(lua_State *L, const char *url, int timeout, int guard_idx,
                    lua_KFunction k) {
  (void)k;
  vdx_loop *lp = vdx__loop(L);
  if (strncmp(url, "ws://", 5) != 0)
    return vdx__error_raise(L, "InvalidArgument", "'%s' is not a ws:// URL", url);
  lua_pushstring(L, url);
  vdx_waiter *w = vdx__waiter_new(lp, timeout, "connecting the WebSocket");
  op *o = w ? op_new(lp, w) : NULL;
  if (o == NULL) return luaL_error(L, "out of memory");
  if (vdx__ws_connect(lp, lua_tostring(L, -1), ws_done, o) < 0) {
    vdx__waiter_on_done(w, NULL, NULL);
    free(o);
    vdx__waiter_abandon(w);
    return vdx__error_raise(L, "ConnectFailed", "cannot connect to %s", url);
  }
  return vdx__await(L, w, ((lua_KContext)timeout << 4) | guard_idx, ws_k);
}

static int version_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  /* stack: endpoint, opts, body */
  size_t len;
  const char *body = lua_tolstring(L, -1, &len);
  if (!vdx__json_decode(L, body, len) || !lua_istable(L, -1))
    return vdx__error_raise(L, "ConnectFailed", "%s/json/version did not "
                            "answer JSON", lua_tostring(L, 1));
  lua_getfield(L, -1, "webSocketDebuggerUrl");
  if (!lua_isstring(L, -1))
    return vdx__error_raise(L, "ConnectFailed", "%s/json/version has no "
                            "webSocketDebuggerUrl", lua_tostring(L, 1));
  /* Keep the host:port we reached; the browser may name itself otherwise. */
  const char *ws = lua_tostring(L, -1);
  const char *path = strstr(ws + 5, "/");
  const char *hostport = lua_tostring(L, 1) + 7;
  const char *slash = strchr(hostport, '/');
  size_t hl = slash ? (size_t)(slash - hostport) : strlen(hostport);
  lua_pushliteral(L, "ws://");
  lua_pushlstring(L, hostport, hl);
  lua_pushstring(L, path ? path : "/");
  lua_concat(L, 3);
  const char *url = lua_tostring(L, -1);
  lua_settop(L, 2);
  lua_pushstring(L, url);   /* url stays referenced by this stack slot */
  return vdx__connect_ws(L, lua_tostring(L, -1), (int)ctx, 0, NULL);
}

/*
 * vdx.connect(endpoint [, {timeout_ms=}]) -> vdx.Browser.  endpoint is a
 * ws:// browser URL or http://host:port.  close() on such a browser
 * disconnects; it does not end the remote browser.
 */
int vdx__connect(lua_State *L) {
  static const char *const known[] = {"timeout_ms", NULL};
  const char *ep = luaL_checkstring(L, 1);
  vdx__check_opts(L, 2, known);
  int timeout = (int)vdx__opt_int(L, 2, "timeout_ms", VDX_DEFAULT_TIMEOUT_MS);
  lua_settop(L, 2);
  if (strncmp(ep, "ws://", 5) == 0)
    return vdx__connect_ws(L, ep, timeout, 0, NULL);
  if (strncmp(ep, "http://", 7) != 0)
    return luaL_argerror(L, 1, "expected ws://… or http://host:port");
  vdx_loop *lp = vdx__loop(L);
  size_t n = strlen(ep);
  lua_pushfstring(L, "%s/json/version", ep[n - 1] == '/' ?
                  lua_pushlstring(L, ep, n - 1) : ep);
  vdx_waiter *w = vdx__waiter_new(lp, timeout, "GET /json/version");
  op *o = w ? op_new(lp, w) : NULL;
  if (o == NULL) return luaL_error(L, "out of memory");
  if (vdx__http_get(lp, lua_tostring(L, -1), http_done, o) < 0) {
    vdx__waiter_on_done(w, NULL, NULL);
    free(o);
    vdx__waiter_abandon(w);
    return vdx__error_raise(L, "ConnectFailed", "cannot reach %s", ep);
  }
  lua_settop(L, 2);
  return vdx__await(L, w, timeout, version_k);
}
