/*
 * serve.c -- vdx.serve and the vdx.Server object: a small HTTP/1.1 server
 * for fixture pages and demo apps, running on the loop of the Lua state.
 *
 * Each server has its own libwebsockets context on the shared uv loop, so
 * closing one server tears down exactly its listener and connections and
 * nothing else (a shared context would need per-vhost teardown, which lws
 * 4.1 does not offer for foreign loops).  Connections are accepted by the
 * front (serve_front.c), which relays them to lws; the HTTP side is
 * serve_http.c.
 *
 * Guarantees:
 *   - it listens on a loopback address only, unless allow_remote is set;
 *   - an open server is anchored in the registry: it serves until close(),
 *     __close or the end of the program, even when the script drops its
 *     last reference (`return flow.run(...)` as a tail call does);
 *   - close is idempotent and also runs from __gc, __close and when the Lua
 *     state closes; after it no handler runs and, once the loop has turned
 *     (lws closes its handles asynchronously), nothing of the server keeps
 *     the loop alive;
 *   - lws-owned memory (the serve_core, per-connection state) is freed by
 *     lws itself, so no callback ever sees freed memory.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve.h"
#include "task.h"

static const char *const route_methods[] = {
  "GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", NULL};

/* --------------------------------------------------------------- reaper */

/*
 * Destroying an lws 4.1 context on a foreign loop takes two calls of
 * lws_context_destroy: the first closes the connections and then lws's
 * own handles asynchronously; the second, once every one of those
 * handles has finished closing, frees the context (lws's foreign-loop
 * example does the same around its own uv_run).  lws gives no callback
 * for "handles closed", so the reaper watches the context's static
 * handles (its idle and timer handles, which live inside the context
 * until it is freed), noted when the context was created.
 *
 * The reaper advances one step per loop turn through the close callback
 * of its own handle, closed again each turn.  A closing handle keeps the
 * loop turning without blocking and is skipped by the loop teardown's
 * close-everything walk, so the reaper also finishes when the Lua state
 * closes.  It gives up (and leaks the context) after REAP_TURNS turns.
 */
#define REAP_TURNS 10000
#define REAP_MAX_STATICS 8

typedef struct serve_reaper {
  uv_idle_t turn;               /* first: the close callback casts back */
  uv_loop_t *uv;
  struct lws_context *ctx;
  uv_handle_t *statics[REAP_MAX_STATICS];
  int nstatics;
  int pipe_fds[REAP_MAX_STATICS];  /* fds of lws's event pipe */
  int npipe_fds;
  int started;                  /* the first destroy has run */
  int turns;
} serve_reaper;

typedef struct handle_set {
  uv_handle_t **h;
  size_t n, cap;
  int failed;
} handle_set;

static void collect_cb(uv_handle_t *h, void *arg) {
  handle_set *s = arg;
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 32;
    uv_handle_t **p = realloc(s->h, cap * sizeof *p);
    if (p == NULL) { s->failed = 1; return; }
    s->h = p;
    s->cap = cap;
  }
  s->h[s->n++] = h;
}

static int in_set(const handle_set *s, const uv_handle_t *h) {
  for (size_t i = 0; i < s->n; i++)
    if (s->h[i] == h) return 1;
  return 0;
}

/*
 * Notes the handles lws_create_context added since `before`: its idle and
 * timer handles, and the poll handle of its event pipe (whose fd is kept).
 */
static void note_statics(serve_reaper *r, const handle_set *before) {
  handle_set now = {0};
  uv_walk(r->uv, collect_cb, &now);
  for (size_t i = 0; !now.failed && i < now.n; i++) {
    uv_handle_t *h = now.h[i];
    uv_os_fd_t fd;
    if (in_set(before, h)) continue;
    if ((h->type == UV_IDLE || h->type == UV_TIMER) &&
        r->nstatics < REAP_MAX_STATICS)
      r->statics[r->nstatics++] = h;
    else if (h->type == UV_POLL && uv_fileno(h, &fd) == 0 &&
             r->npipe_fds < REAP_MAX_STATICS)
      r->pipe_fds[r->npipe_fds++] = fd;
  }
  if (now.failed) r->nstatics = r->npipe_fds = 0;
  free(now.h);
}

/*
 * lws 4.1 closes its event pipe's fd during the first destroy and once
 * more when the pipe's handle has closed, a loop turn later: by then the
 * number may belong to a new file (another server, a browser pipe), which
 * it would close.  So the number is held by /dev/null in between; that
 * second close takes the placeholder.
 */
static void hold_pipe_fds(serve_reaper *r) {
  for (int i = 0; i < r->npipe_fds; i++) {
    int fd = r->pipe_fds[i];
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    int ph = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (ph >= 0 && ph != fd) {
      dup3(ph, fd, O_CLOEXEC);
      close(ph);
    }
  }
}

typedef struct alive_arg { serve_reaper *r; int alive; } alive_arg;

static void alive_cb(uv_handle_t *h, void *arg) {
  alive_arg *a = arg;
  for (int i = 0; i < a->r->nstatics; i++)
    if (a->r->statics[i] == h) a->alive = 1;
}

static int statics_alive(serve_reaper *r) {
  alive_arg a = {r, 0};
  uv_walk(r->uv, alive_cb, &a);
  return a.alive;
}

static void reap_turn(uv_handle_t *h);

static void reap_again(serve_reaper *r) {
  uv_idle_init(r->uv, &r->turn);
  uv_close((uv_handle_t *)&r->turn, reap_turn);
}

/* One step, outside any lws service: start, wait, finish, free. */
static void reap_turn(uv_handle_t *h) {
  serve_reaper *r = (serve_reaper *)h;
  if (!r->started) {
    r->started = 1;
    lws_context_destroy(r->ctx);
    hold_pipe_fds(r);
  } else if (r->nstatics == 0 || r->turns++ >= REAP_TURNS) {
    free(r);  /* cannot tell when lws is done: leave the context be */
    return;
  } else if (!statics_alive(r)) {
    lws_context_destroy(r->ctx);  /* the second call frees it */
    free(r);
    return;
  }
  reap_again(r);
}

/*
 * Starts destroying srv's context.  From inside one of its own handlers
 * lws is mid-service, so even the first step waits for the loop to turn.
 */
static void reap(vdx_server *srv, int in_handler) {
  serve_reaper *r = srv->reaper;
  srv->reaper = NULL;
  if (r == NULL) {
    lws_context_destroy(srv->ctx);  /* not listening yet: nothing pends */
    return;
  }
  r->ctx = srv->ctx;
  if (!in_handler) {
    r->started = 1;
    lws_context_destroy(r->ctx);
    hold_pipe_fds(r);
  }
  reap_again(r);
}

/* ---------------------------------------------------------------- close */

/*
 * Stops the server: no handler runs after this.  Safe to call twice, from
 * __gc and from the loop teardown (when the Lua state closes).
 */
static void on_teardown(void *data);

/* L is any thread of the state (the registry is shared). */
static void server_close(vdx_server *srv, lua_State *L) {
  int in_handler = srv->core && srv->core->in_handler > 0;
  if (srv->closed) return;
  srv->closed = 1;
  vdx__serve_streams_close(srv, L);
  if (srv->core) srv->core->srv = NULL;
  srv->core = NULL;
  vdx__off_teardown(srv->lp, on_teardown, srv);
  vdx__serve_front_close(srv->front);
  srv->front = NULL;
  if (srv->ctx) {
    reap(srv, in_handler);
    srv->ctx = NULL;
  }
  free(srv->reaper);
  srv->reaper = NULL;
  if (srv->routes_ref != LUA_NOREF) {
    luaL_unref(L, LUA_REGISTRYINDEX, srv->routes_ref);
    srv->routes_ref = LUA_NOREF;
  }
  if (srv->self_ref != LUA_NOREF) {
    luaL_unref(L, LUA_REGISTRYINDEX, srv->self_ref);
    srv->self_ref = LUA_NOREF;
  }
  for (size_t i = 0; i < srv->nprefixes; i++) free(srv->prefixes[i].key);
  free(srv->prefixes);
  srv->prefixes = NULL;
  srv->nprefixes = 0;
}

/* The loop is being torn down (the Lua state closes): stop serving. */
static void on_teardown(void *data) {
  vdx_server *srv = data;
  server_close(srv, srv->L);
}

static vdx_server *check_server(lua_State *L, int idx) {
  vdx_server **pp = luaL_checkudata(L, idx, VDX_SERVER_MT);
  if (*pp == NULL) luaL_error(L, "vdx.Server: the server is freed");
  return *pp;
}

/* srv:close() -> true.  Idempotent. */
static int server_close_l(lua_State *L) {
  server_close(check_server(L, 1), L);
  lua_pushboolean(L, 1);
  return 1;
}

/* __close: closes the server (the object stays usable as closed). */
static int server_close_meta(lua_State *L) {
  server_close(check_server(L, 1), L);
  return 0;
}

/* __gc: closes and frees the server; safe to run twice. */
static int server_gc(lua_State *L) {
  vdx_server **pp = luaL_checkudata(L, 1, VDX_SERVER_MT);
  if (*pp == NULL) return 0;
  server_close(*pp, L);
  free((*pp)->root);
  free(*pp);
  *pp = NULL;
  return 0;
}

/* __tostring: "vdx.Server (http://127.0.0.1:PORT)" or "(closed)". */
static int server_tostring(lua_State *L) {
  vdx_server *srv = check_server(L, 1);
  if (srv->closed) lua_pushliteral(L, "vdx.Server (closed)");
  else lua_pushfstring(L, "vdx.Server (%s)", srv->url);
  return 1;
}

/* __index: srv.url, srv.port, srv.root, srv.closed, srv:close(). */
static int server_index(lua_State *L) {
  vdx_server *srv = check_server(L, 1);
  const char *k = luaL_checkstring(L, 2);
  if (strcmp(k, "close") == 0) lua_pushcfunction(L, server_close_l);
  else if (strcmp(k, "url") == 0) lua_pushstring(L, srv->url);
  else if (strcmp(k, "port") == 0) lua_pushinteger(L, srv->port);
  else if (strcmp(k, "closed") == 0) lua_pushboolean(L, srv->closed);
  else if (strcmp(k, "root") == 0 && srv->root) lua_pushstring(L, srv->root);
  else lua_pushnil(L);
  return 1;
}

/* -------------------------------------------------------------- options */

/*
 * Checks that host is a loopback address and writes the address to bind
 * (iface) and the host part of the url.  Raises otherwise.
 */
static int check_host(lua_State *L, const char *host, int remote, char *iface,
                      size_t isize, char *urlhost, size_t usize) {
  unsigned char a[16];
  if (strcmp(host, "localhost") == 0) host = "127.0.0.1";
  if (inet_pton(AF_INET, host, a) == 1 && (a[0] == 127 || remote)) {
    snprintf(iface, isize, "%s", host);
    snprintf(urlhost, usize, "%s", host);
    return 0;  /* IPv4 */
  }
  if (inet_pton(AF_INET6, host, a) == 1) {
    static const unsigned char lo6[16] = {[15] = 1};
    if (memcmp(a, lo6, 16) == 0 || remote) {
      snprintf(iface, isize, "%s", host);
      snprintf(urlhost, usize, "[%s]", host);
      return 1;  /* IPv6 */
    }
  }
  return vdx__misuse(L, remote ? "vdx.serve: host '%s' is not an IP address"
                           : "vdx.serve: host '%s' is not a loopback address "
                             "(use 127.0.0.1, another 127.x.y.z, ::1 or "
                             "localhost, or allow_remote = true)",
                    host);
}

/*
 * Validates opts.routes (at idx) and stores a copy in srv: every key is
 * "METHOD /path" or "METHOD /prefix*", every value a function.
 */
static void take_routes(lua_State *L, int idx, vdx_server *srv) {
  if (lua_isnil(L, idx)) return;
  if (!lua_istable(L, idx))
    vdx__misuse(L, "vdx.serve: routes must be a table");
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                     : NULL;
    const char *sp = key ? strchr(key, ' ') : NULL;
    int ok = sp != NULL && sp[1] == '/' && strchr(sp + 1, ' ') == NULL;
    for (int i = 0; ok && route_methods[i]; i++) {
      size_t ml = strlen(route_methods[i]);
      if ((size_t)(sp - key) == ml && strncmp(key, route_methods[i], ml) == 0)
        break;
      if (route_methods[i + 1] == NULL) ok = 0;
    }
    if (!ok)
      vdx__misuse(L, "vdx.serve: bad route '%s' (expected \"METHOD /path\", "
                 "e.g. \"GET /api/items\" or \"GET /api/items/*\")",
                 key ? key : luaL_typename(L, -2));
    if (!lua_isfunction(L, -1))
      vdx__misuse(L, "vdx.serve: route '%s' must be a function, not a %s", key,
                 luaL_typename(L, -1));
    size_t kl = strlen(key);
    if (key[kl - 1] == '*') {
      serve_prefix *p = realloc(srv->prefixes,
                                (srv->nprefixes + 1) * sizeof *p);
      if (p == NULL) luaL_error(L, "out of memory");
      srv->prefixes = p;
      p += srv->nprefixes;
      p->key = strdup(key);
      if (p->key == NULL) luaL_error(L, "out of memory");
      srv->nprefixes++;
      p->mlen = (size_t)(sp - key);
      p->path = p->key + p->mlen + 1;
      p->plen = kl - p->mlen - 2;
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  srv->routes_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

/* Resolves opts.root (a string, at idx) to a real directory path. */
static void take_root(lua_State *L, int idx, vdx_server *srv) {
  char real[PATH_MAX];
  struct stat st;
  if (lua_isnil(L, idx)) return;
  const char *root = luaL_checkstring(L, idx);
  if (realpath(root, real) == NULL)
    vdx__misuse(L, "vdx.serve: root '%s': %s", root, strerror(errno));
  if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode))
    vdx__misuse(L, "vdx.serve: root '%s' is not a directory", root);
  srv->root = strdup(strcmp(real, "/") == 0 ? "" : real);
  if (srv->root == NULL) luaL_error(L, "out of memory");
  srv->root_len = strlen(srv->root);
}

/* ---------------------------------------------------------------- start */

/*
 * Creates the lws context and the listening vhost of srv.  Returns NULL on
 * success or a message (the caller closes srv either way on failure).
 */
static const char *start(vdx_server *srv, const char *iface, int ipv6,
                         int port) {
  struct lws_context_creation_info info;
  void *loops[1] = {vdx__uv_of(srv->lp)};
  memset(&info, 0, sizeof info);
  info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_EXPLICIT_VHOSTS |
                 LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS;
  info.foreign_loops = loops;
  info.port = CONTEXT_PORT_NO_LISTEN;
  info.pt_serv_buf_size = 64 * 1024;
  /* The front passes on heads of at most SERVE_MAX_HEADERS bytes; lws
   * stores their headers with some overhead, so its buffer is twice that
   * (it closes a connection without a reply when the buffer overflows). */
  info.max_http_header_data = 2 * SERVE_MAX_HEADERS;
  /* lws's own waits (a static file's next piece among them) give up after
   * this long without progress, as the answers of routes do. */
  info.timeout_secs = SERVE_IDLE_SECS;
  handle_set before = {0};
  uv_walk(vdx__uv_of(srv->lp), collect_cb, &before);
  srv->ctx = lws_create_context(&info);
  if (srv->ctx == NULL || before.failed) {
    free(before.h);
    return "cannot create the libwebsockets context";
  }
  srv->reaper = calloc(1, sizeof *srv->reaper);
  if (srv->reaper) {
    srv->reaper->uv = vdx__uv_of(srv->lp);
    note_statics(srv->reaper, &before);
  }
  free(before.h);

  unsigned char raw[SERVE_TOKEN_BYTES];
  if (uv_random(NULL, NULL, raw, sizeof raw, 0, NULL) != 0)
    return "cannot draw the server's random token";
  for (int i = 0; i < SERVE_TOKEN_BYTES; i++)
    snprintf(srv->token + 2 * i, 3, "%02x", raw[i]);

  /* The vhost listens on nothing: the front accepts and hands lws each
   * connection through a relay that measures request heads. */
  memset(&info, 0, sizeof info);
  info.port = CONTEXT_PORT_NO_LISTEN_SERVER;
  info.protocols = vdx__serve_protocols;
  info.vhost_name = "vdx";
  info.keepalive_timeout = 30;
  struct lws_vhost *vh = lws_create_vhost(srv->ctx, &info);
  if (vh == NULL) return "cannot create the libwebsockets vhost";
  const struct lws_protocols *prot =
      lws_vhost_name_to_protocol(vh, vdx__serve_protocols[0].name);
  srv->core = prot ? lws_protocol_vh_priv_zalloc(vh, prot, sizeof *srv->core)
                   : NULL;
  if (srv->core == NULL) return "out of memory";
  srv->core->srv = srv;
  return vdx__serve_front_start(vdx__uv_of(srv->lp), vh, srv->token, iface,
                                ipv6, port, &srv->front, &srv->port);
}

/*
 * serve{ root =, port = 0, host = "127.0.0.1", routes = {}, allow_remote }
 *   -> server
 * Starts an HTTP server on the loop; returns nil, message when it cannot
 * listen (e.g. the port is taken).  Raises on bad options.
 * stack: opts -> server | nil, message
 */
static int serve_new(lua_State *L) {
  static const char *const known[] = {"root", "port", "host", "routes",
                                      "allow_remote", NULL};
  char iface[64], urlhost[72];
  luaL_checktype(L, 1, LUA_TTABLE);
  vdx__check_opts(L, 1, known);
  vdx_loop *lp = vdx__loop(L);
  lua_Integer port = vdx__opt_int(L, 1, "port", 0);
  if (port < 0 || port > 65535)
    return vdx__misuse(L, "vdx.serve: port must be in 0..65535");
  lua_getfield(L, 1, "host");
  const char *host = luaL_optstring(L, -1, "127.0.0.1");
  lua_getfield(L, 1, "allow_remote");
  int remote = lua_toboolean(L, -1);
  lua_pop(L, 1);
  int ipv6 = check_host(L, host, remote, iface, sizeof iface, urlhost,
                        sizeof urlhost);

  vdx_server **pp = lua_newuserdatauv(L, sizeof *pp, 0);
  *pp = NULL;
  luaL_setmetatable(L, VDX_SERVER_MT);
  vdx_server *srv = calloc(1, sizeof *srv);
  if (srv == NULL) return luaL_error(L, "out of memory");
  *pp = srv;
  srv->lp = lp;
  srv->L = vdx__main_state(lp);
  srv->routes_ref = LUA_NOREF;
  srv->self_ref = LUA_NOREF;
  int ud = lua_gettop(L);
  lua_getfield(L, 1, "root");
  take_root(L, -1, srv);
  lua_getfield(L, 1, "routes");
  take_routes(L, lua_gettop(L), srv);
  lua_settop(L, ud);

  const char *err = start(srv, iface, ipv6, (int)port);
  if (err != NULL) {
    server_close(srv, L);
    lua_pushnil(L);
    lua_pushfstring(L, "vdx.serve: %s:%d: %s", host, (int)port, err);
    return 2;
  }
  snprintf(srv->url, sizeof srv->url, "http://%s:%d", urlhost, srv->port);
  vdx__on_teardown(lp, on_teardown, srv);
  lua_pushvalue(L, ud);
  srv->self_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 1;
}

/*
 * require "vdx.serve" -> { serve = fn }: the module loads vdx.core first, whose
 * loop (found in the registry, like everything vdx keeps per Lua state)
 * runs the servers; vdx.serve(opts) is this module's serve.
 */
LUALIB_API int luaopen_vdx_serve(lua_State *L) {
  static const luaL_Reg meta[] = {
    {"__index", server_index}, {"__gc", server_gc}, {"__close", server_close_meta},
    {"__tostring", server_tostring}, {NULL, NULL}};
  static const luaL_Reg fns[] = {{"serve", serve_new}, {NULL, NULL}};
  lua_getglobal(L, "require");
  lua_pushliteral(L, "vdx.core");
  lua_call(L, 1, 0);
  /* Errors only; lws is chatty at NOTICE level. */
  lws_set_log_level(LLL_ERR, NULL);
  if (luaL_newmetatable(L, VDX_SERVER_MT)) luaL_setfuncs(L, meta, 0);
  lua_pop(L, 1);
  luaL_newlib(L, fns);
  return 1;
}
