/*
 * connect.c -- vdx.connect: reach a running browser over WebSocket (plain
 * or TLS, with a farm's headers), given its ws://…/devtools/browser/… URL
 * or the http://host:port from which /json/version gives that URL.
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

/* Pushes the error of a failed connection or request: FarmBusy when the
 * server answered 429 (a farm past its concurrency and queue limits),
 * TLSFailed when the TLS handshake failed, else ConnectFailed; status is
 * the HTTP status the server answered (0: none). */
static void push_failure(lua_State *L, int status, const char *what,
                         const char *err) {
  if (status == 429)
    vdx__error_push(L, "FarmBusy", "%s: the farm is full (HTTP 429 Too "
                    "Many Requests)", what);
  else if (status == 401 || status == 403)
    vdx__error_push(L, "ConnectFailed", "%s: the endpoint refused the "
                    "credentials (HTTP %d): %s", what, status, err);
  else if (status == 0 && err && (strstr(err, "tls") || strstr(err, "TLS") ||
                                  strstr(err, "ssl") || strstr(err, "SSL") ||
                                  strstr(err, "certificate")))
    vdx__error_push(L, "TLSFailed", "%s: the TLS handshake failed: %s", what,
                    err);
  else
    vdx__error_push(L, "ConnectFailed", "%s: %s", what, err);
  if (status > 0) {
    lua_pushinteger(L, status);
    lua_setfield(L, -2, "status");
  }
}

static void ws_done(void *data, vdx_transport *t, int status, const char *err) {
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
    push_failure(L, status, "cannot connect", err);
    vdx__waiter_reject(o->w, L);
  }
  free(o);
}

static void http_done(void *data, const char *body, size_t len, int status,
                      const char *err) {
  op *o = data;
  lua_State *L = vdx__main_state(o->lp);
  if (o->w != NULL) {
    vdx__waiter_on_done(o->w, NULL, NULL);
    if (body) {
      lua_pushlstring(L, body, len);
      vdx__waiter_resolve(o->w, L);
    } else {
      push_failure(L, status, "cannot read /json/version", err);
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
 * Connects to url (ws:// or wss://, with o's headers and TLS options, which
 * are used before this returns) and continues as the browser constructor;
 * the URL is left on the stack.  guard_idx, if not 0, is the launch guard
 * that holds the browser process, which the new browser then owns.
 */
int vdx__connect_ws(lua_State *L, const char *url, const vdx_ws_opts *wo,
                    int timeout, int guard_idx) {
  vdx_loop *lp = vdx__loop(L);
  if (strncmp(url, "ws://", 5) != 0 && strncmp(url, "wss://", 6) != 0)
    return vdx__error_raise(L, "InvalidArgument", "'%s' is not a ws:// or "
                            "wss:// URL", url);
  lua_pushstring(L, url);
  vdx_waiter *w = vdx__waiter_new(lp, timeout, "connecting the WebSocket");
  op *o = w ? op_new(lp, w) : NULL;
  if (o == NULL) return luaL_error(L, "out of memory");
  if (vdx__ws_connect(lp, lua_tostring(L, -1), wo, ws_done, o) < 0) {
    vdx__waiter_on_done(w, NULL, NULL);
    free(o);
    vdx__waiter_abandon(w);
    return vdx__error_raise(L, "ConnectFailed", "cannot connect to %s", url);
  }
  return vdx__await(L, w, ((lua_KContext)timeout << 4) | guard_idx, ws_k);
}

/*
 * Reads opts (at idx) into *wo: headers (a table name -> value, pushed as
 * one "Name: value\r\n" string that stays on the stack), ca, insecure.
 */
static void ws_opts_read(lua_State *L, int idx, vdx_ws_opts *wo) {
  memset(wo, 0, sizeof *wo);
  lua_pushliteral(L, "");
  int acc = lua_gettop(L);
  if (lua_istable(L, idx)) {
    if (lua_getfield(L, idx, "headers") == LUA_TTABLE) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        const char *v = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (k == NULL || v == NULL || !*k || strpbrk(k, "\r\n: ") ||
            strpbrk(v, "\r\n"))
          vdx__misuse(L, "option 'headers': each header is a name (no "
                      "colon or space) and a string value on one line");
        lua_pushvalue(L, acc);
        lua_pushfstring(L, "%s: %s\r\n", k, v);
        lua_concat(L, 2);
        lua_replace(L, acc);
        lua_pop(L, 1);
      }
    } else if (!lua_isnil(L, -1)) {
      vdx__misuse(L, "option 'headers' must be a table of name = value");
    }
    lua_pop(L, 1);
    int t = lua_getfield(L, idx, "ca");
    if (t != LUA_TNIL && t != LUA_TSTRING)
      vdx__misuse(L, "option 'ca' must be the path of a PEM file");
    wo->ca = lua_tostring(L, -1);   /* the opts table keeps it */
    lua_pop(L, 1);
    lua_getfield(L, idx, "insecure");
    wo->insecure = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  wo->headers = lua_tostring(L, acc);
}

/* The query string of an endpoint ("?…"), or NULL. */
static const char *query_of(const char *ep) {
  return strchr(ep, '?');
}

static int version_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  /* stack: endpoint, opts, body */
  size_t len;
  const char *ep = lua_tostring(L, 1);
  const char *body = lua_tolstring(L, -1, &len);
  if (!vdx__json_decode(L, body, len) || !lua_istable(L, -1))
    return vdx__error_raise(L, "ConnectFailed", "%s/json/version did not "
                            "answer JSON", ep);
  lua_getfield(L, -1, "webSocketDebuggerUrl");
  if (!lua_isstring(L, -1))
    return vdx__error_raise(L, "ConnectFailed", "%s/json/version has no "
                            "webSocketDebuggerUrl", ep);
  /* Keep the scheme and host:port we reached (the browser or a proxy in
   * front of it may name itself otherwise) and the endpoint's query (a
   * farm's ?token=…) when the answer has none. */
  const char *ws = lua_tostring(L, -1);
  const char *after = strstr(ws, "://");
  const char *path = after ? after + 3 + strcspn(after + 3, "/?") : "";
  int tls = strncmp(ep, "https://", 8) == 0;
  const char *hostport = ep + (tls ? 8 : 7);
  size_t hl = strcspn(hostport, "/?");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, tls ? "wss://" : "ws://");
  luaL_addlstring(&b, hostport, hl);
  if (*path != '/') luaL_addchar(&b, '/');
  luaL_addstring(&b, path);
  if (strchr(path, '?') == NULL && query_of(ep)) luaL_addstring(&b, query_of(ep));
  luaL_pushresult(&b);
  lua_replace(L, 3);
  lua_settop(L, 3);         /* endpoint, opts, url */
  vdx_ws_opts wo;
  ws_opts_read(L, 2, &wo);
  return vdx__connect_ws(L, lua_tostring(L, 3), &wo, (int)ctx, 0);
}

/*
 * vdx.connect(endpoint [, {timeout_ms=, headers=, ca=, insecure=}]) ->
 * vdx.Browser.  endpoint is a ws:// or wss:// browser URL, or the
 * http(s)://host:port[?query] whose /json/version names it.  headers go in
 * every handshake; ca or insecure are for a certificate the system does
 * not trust.  close() on such a browser disconnects; it does not end the
 * remote browser.  (The module vdx wraps this: scheme check and retries.)
 */
int vdx__connect(lua_State *L) {
  static const char *const known[] = {"timeout_ms", "headers", "ca", "insecure",
                                      NULL};
  const char *ep = luaL_checkstring(L, 1);
  vdx__check_opts(L, 2, known);
  int timeout = (int)vdx__opt_int(L, 2, "timeout_ms", VDX_DEFAULT_TIMEOUT_MS);
  lua_settop(L, 2);
  vdx_ws_opts wo;
  if (strncmp(ep, "ws://", 5) == 0 || strncmp(ep, "wss://", 6) == 0) {
    ws_opts_read(L, 2, &wo);
    return vdx__connect_ws(L, ep, &wo, timeout, 0);
  }
  if (strncmp(ep, "http://", 7) != 0 && strncmp(ep, "https://", 8) != 0)
    return vdx__error_raise(L, "InvalidEndpoint", "'%s' has no ws://, wss://, "
                            "http:// or https:// scheme", ep);
  vdx_loop *lp = vdx__loop(L);
  /* base[/]?query -> base/json/version?query */
  const char *q = query_of(ep);
  size_t n = q ? (size_t)(q - ep) : strlen(ep);
  if (n > 0 && ep[n - 1] == '/') n--;
  lua_pushlstring(L, ep, n);
  lua_pushfstring(L, "%s/json/version%s", lua_tostring(L, -1), q ? q : "");
  ws_opts_read(L, 2, &wo);
  vdx_waiter *w = vdx__waiter_new(lp, timeout, "GET /json/version");
  op *o = w ? op_new(lp, w) : NULL;
  if (o == NULL) return luaL_error(L, "out of memory");
  if (vdx__http_get(lp, lua_tostring(L, -2), &wo, http_done, o) < 0) {
    vdx__waiter_on_done(w, NULL, NULL);
    free(o);
    vdx__waiter_abandon(w);
    return vdx__error_raise(L, "ConnectFailed", "cannot reach %s", ep);
  }
  lua_settop(L, 2);
  return vdx__await(L, w, timeout, version_k);
}
