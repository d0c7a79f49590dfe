/*
 * serve_http.c -- the libwebsockets HTTP callback of vdx.serve: request
 * bodies, routing, and the Lua route handlers.  Static files from the root
 * are in serve_static.c, the responses in serve_response.c.
 *
 * Guarantees:
 *   - every request gets exactly one response, or its connection closes;
 *   - a route handler runs as a task, so it may wait (vdx.sleep, page:*,
 *     another server); it starts at once, and answers at once when it does
 *     not wait.  Its error answers 500 and is reported on stderr, never
 *     unwinding lws.  A connection that closes first orphans the task,
 *     which runs on and whose answer is dropped;
 *   - no static path leaves the root: ".." segments and symlinks that
 *     resolve outside it answer 403, missing files 404;
 *   - files are streamed by lws, bodies are sent in chunks, so size is
 *     bounded by the disk, not by memory;
 *   - per-connection buffers are freed when lws closes the connection,
 *     including during context destruction, when Lua is not touched.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve.h"

static const char *const method_names[] = {
  "GET", "POST", "OPTIONS", "PUT", "PATCH", "DELETE", "CONNECT", "HEAD"};

static void job_detach(serve_pss *ps);

static void pss_reset(serve_pss *ps) {
  vdx__serve_stream_gone(ps, 0);
  job_detach(ps);
  free(ps->body);
  free(ps->out);
  memset(ps, 0, sizeof *ps);
}

static serve_core *core_of(struct lws *wsi) {
  return lws_protocol_vh_priv_get(lws_get_vhost(wsi), lws_get_protocol(wsi));
}

/* --------------------------------------------------------------- routes */

/* Everything a route call needs, and what it leaves behind. */
typedef struct call {
  struct lws *wsi;
  serve_pss *ps;
  vdx_server *srv;
  const char *key;      /* the routes-table key that matched */
  int method;
  const char *path;
  char *scratch;        /* header values and query fragments */
  size_t scratch_cap;
} call;

static char *scratch(lua_State *L, call *c, size_t need) {
  if (need > c->scratch_cap) {
    char *p = realloc(c->scratch, need);
    if (p == NULL) luaL_error(L, "out of memory");
    c->scratch = p;
    c->scratch_cap = need;
  }
  return c->scratch;
}

/* Copies header token t into scratch; returns it or NULL when absent. */
static const char *hdr(lua_State *L, call *c, enum lws_token_indexes t,
                       int *len) {
  int n = lws_hdr_total_length(c->wsi, t);
  if (n <= 0) return NULL;
  char *b = scratch(L, c, (size_t)n + 1);
  n = lws_hdr_copy(c->wsi, b, n + 1, t);
  if (n < 0) return NULL;
  if (len) *len = n;
  return b;
}

/* Percent-encodes s[0..n) onto the buffer, keeping unreserved bytes. */
static void add_encoded(luaL_Buffer *B, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (isalnum(ch) || ch == '-' || ch == '_' || ch == '.' || ch == '~') {
      luaL_addchar(B, (char)ch);
    } else {
      char esc[4];
      snprintf(esc, sizeof esc, "%%%02X", ch);
      luaL_addlstring(B, esc, 3);
    }
  }
}

/*
 * Sets req.query and req.params from the URL arguments, which lws hands
 * over one decoded "k=v" fragment at a time.  The query string is rebuilt
 * from them, re-encoded.  stack: req -> req
 */
static void push_query(lua_State *L, call *c) {
  luaL_Buffer B;
  int req = lua_gettop(L);
  lua_newtable(L);  /* params */
  luaL_buffinit(L, &B);
  for (int i = 0, first = 1; i < 4096; i++) {
    int fl = lws_hdr_fragment_length(c->wsi, WSI_TOKEN_HTTP_URI_ARGS, i);
    char *f = scratch(L, c, (size_t)(fl > 0 ? fl : 0) + 1);
    int n = lws_hdr_copy_fragment(c->wsi, f, fl + 1, WSI_TOKEN_HTTP_URI_ARGS,
                                  i);
    if (n < 0) break;
    if (n == 0) continue;
    char *eq = memchr(f, '=', (size_t)n);
    size_t kl = eq ? (size_t)(eq - f) : (size_t)n;
    if (!first) luaL_addchar(&B, '&');
    first = 0;
    add_encoded(&B, f, kl);
    if (eq) {
      luaL_addchar(&B, '=');
      add_encoded(&B, eq + 1, (size_t)n - kl - 1);
    }
  }
  luaL_pushresult(&B);
  lua_setfield(L, req, "query");
  /* Second pass for params: the buffer above owned the stack top. */
  for (int i = 0; i < 4096; i++) {
    int fl = lws_hdr_fragment_length(c->wsi, WSI_TOKEN_HTTP_URI_ARGS, i);
    char *f = scratch(L, c, (size_t)(fl > 0 ? fl : 0) + 1);
    int n = lws_hdr_copy_fragment(c->wsi, f, fl + 1, WSI_TOKEN_HTTP_URI_ARGS,
                                  i);
    if (n < 0) break;
    if (n == 0) continue;
    char *eq = memchr(f, '=', (size_t)n);
    size_t kl = eq ? (size_t)(eq - f) : (size_t)n;
    lua_pushlstring(L, f, kl);
    if (eq) lua_pushlstring(L, eq + 1, (size_t)n - kl - 1);
    else lua_pushliteral(L, "");
    lua_rawset(L, -3);
  }
  lua_setfield(L, req, "params");
}

/* Parses "a=1; b=2" into a table of cookies.  stack: -> cookies */
static void push_cookies(lua_State *L, call *c) {
  int len = 0;
  const char *s = hdr(L, c, WSI_TOKEN_HTTP_COOKIE, &len);
  const char *e = s ? s + len : NULL;
  lua_newtable(L);
  while (s && s < e) {
    while (s < e && (*s == ' ' || *s == ';')) s++;
    const char *semi = memchr(s, ';', (size_t)(e - s));
    const char *end = semi ? semi : e;
    const char *eq = memchr(s, '=', (size_t)(end - s));
    if (eq && eq > s) {
      const char *ke = eq;
      while (ke > s && ke[-1] == ' ') ke--;
      lua_pushlstring(L, s, (size_t)(ke - s));
      lua_pushlstring(L, eq + 1, (size_t)(end - eq - 1));
      lua_rawset(L, -3);
    }
    s = end;
  }
}

/*
 * __index of req.headers: looks up a header lws does not know by name
 * ("x-token") while the handler that got this req runs.  upvalue: a
 * userdata holding the request's wsi, cleared when the handler returns.
 */
static int headers_index(lua_State *L) {
  struct lws *wsi = *(struct lws **)lua_touserdata(L, lua_upvalueindex(1));
  size_t nl;
  const char *name = lua_tolstring(L, 2, &nl);
  char key[204];
  if (wsi == NULL || name == NULL || nl == 0 || nl > 200) return 0;
  for (size_t i = 0; i < nl; i++) key[i] = (char)tolower((unsigned char)name[i]);
  key[nl] = ':';
  key[nl + 1] = '\0';
  int n = lws_hdr_custom_length(wsi, key, (int)nl + 1);
  if (n < 0) return 0;
  char *buf = malloc((size_t)n + 1);
  if (buf == NULL) return 0;
  n = lws_hdr_custom_copy(wsi, buf, n + 1, key, (int)nl + 1);
  if (n >= 0) lua_pushlstring(L, buf, (size_t)n);
  free(buf);
  return n >= 0;
}

/* Pushes req.headers: every header lws parsed, by lower-case name.  live
 * is the index of the userdata that holds the wsi while it is valid. */
static void push_headers(lua_State *L, call *c, int live) {
  lua_newtable(L);
  for (int t = 0; t < WSI_TOKEN_COUNT; t++) {
    const char *name = (const char *)lws_token_to_string(t);
    size_t nl = name ? strlen(name) : 0;
    if (nl < 2 || name[nl - 1] != ':' || name[0] == ':') continue;
    int len;
    const char *v = hdr(L, c, (enum lws_token_indexes)t, &len);
    if (v == NULL) continue;
    lua_pushlstring(L, name, nl - 1);
    lua_pushlstring(L, v, (size_t)len);
    lua_rawset(L, -3);
  }
  lua_createtable(L, 0, 1);
  lua_pushvalue(L, live);
  lua_pushcclosure(L, headers_index, 1);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
}

/* Pushes the req table handed to a handler. */
static void push_request(lua_State *L, call *c, int live) {
  lua_createtable(L, 0, 9);
  lua_pushstring(L, method_names[c->method]);
  lua_setfield(L, -2, "method");
  lua_pushstring(L, c->path);
  lua_setfield(L, -2, "path");
  push_query(L, c);
  push_headers(L, c, live);
  lua_setfield(L, -2, "headers");
  push_cookies(L, c);
  lua_setfield(L, -2, "cookies");
  lua_pushlstring(L, c->ps->body ? c->ps->body : "", c->ps->body_len);
  lua_setfield(L, -2, "body");
  vdx__serve_push_stream_open(L, live);
  lua_setfield(L, -2, "stream");
  const char *ct = hdr(L, c, WSI_TOKEN_HTTP_CONTENT_TYPE, NULL);
  if (ct && strncasecmp(ct, "application/json", 16) == 0 && c->ps->body_len) {
    if (vdx__json_decode(L, c->ps->body, c->ps->body_len)) {
      vdx__json_normalize(L, -1, 0);
      lua_setfield(L, -2, "json");
    } else {
      lua_setfield(L, -2, "json_error");
    }
  }
}

/* Keeps the first line of a traceback-decorated message as *err. */
static void keep_error(char **err, const char *msg) {
  const char *tb = strstr(msg, "\nstack traceback:");
  size_t n = tb ? (size_t)(tb - msg) : strlen(msg);
  free(*err);
  *err = malloc(n + 2);
  if (*err) {
    memcpy(*err, msg, n);
    memcpy(*err + n, "\n", 2);
  }
}

/*
 * A route handler's task and the answer it leaves.  Owned by the request
 * (ps->job) until the answer is sent, or by the task once the connection
 * has closed (orphan): whichever finishes last frees it.
 */
typedef struct route_job {
  struct lws **live;    /* the headers' wsi slot, anchored by live_ref */
  int live_ref;
  struct lws *wsi;
  char *key;
  serve_resp r;
  char *err;            /* the 500 body when the handler failed */
  int starting;         /* run_route is still on the stack */
  int finished;
  int orphan;
} route_job;

static void job_free(route_job *job) {
  free(job->key);
  free(job->err);
  vdx__serve_resp_free(&job->r);
  free(job);
}

/* The connection is gone (or reused): the task's answer will be dropped.
 * Touches no Lua: this runs while lws tears a context down too. */
static void job_detach(serve_pss *ps) {
  route_job *job = ps->job;
  if (job == NULL) return;
  ps->job = NULL;
  if (job->finished) { job_free(job); return; }
  *job->live = NULL;
  job->orphan = 1;
}

/* stack: job, result -> ; turns the handler's result into job->r. */
static int take_result(lua_State *L) {
  route_job *job = lua_touserdata(L, 1);
  vdx__serve_take_result(L, 2, &job->r);
  return 0;
}

static void report(route_job *job, lua_State *L, const char *what) {
  const char *msg = luaL_tolstring(L, -1, NULL);
  fprintf(stderr, "vdx.serve: %s %s: %s\n", what, job->key, msg);
  fflush(stderr);
  keep_error(&job->err, msg);
  lua_pop(L, 2);
}

/* The handler's task ended: value at 1 is its results {n=...} or error. */
static void job_done(void *data, lua_State *L, int ok) {
  route_job *job = data;
  *job->live = NULL;  /* the request's headers are gone after the answer */
  luaL_unref(L, LUA_REGISTRYINDEX, job->live_ref);
  job->finished = 1;
  if (job->orphan) { job_free(job); return; }
  if (!ok) {
    lua_pushvalue(L, 1);
    report(job, L, "error in handler");
  } else {
    lua_pushcfunction(L, take_result);
    lua_pushlightuserdata(L, job);
    lua_rawgeti(L, 1, 1);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) report(job, L, "bad result from handler");
  }
  if (!job->starting) lws_callback_on_writable(job->wsi);
}

/* Starts the route's handler as a task.  stack: call -> (nothing) */
static int route_start(lua_State *L) {
  call *c = lua_touserdata(L, 1);
  route_job *job = c->ps->job;
  job->live = lua_newuserdatauv(L, sizeof *job->live, 0);
  *job->live = c->wsi;
  lua_pushvalue(L, -1);
  job->live_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->srv->routes_ref);
  lua_getfield(L, -1, c->key);
  lua_remove(L, -2);
  push_request(L, c, 2);
  vdx__spawn_then(L, 1, "a route handler", job_done, job);
  return 0;
}

/* Sends the answer the finished handler task left, and frees its job. */
static int job_answer(struct lws *wsi, serve_pss *ps) {
  route_job *job = ps->job;
  ps->job = NULL;
  int rc;
  if (ps->streamed) {
    /* The handler took the answer over: its result is not sent. */
    if (job->err != NULL) vdx__serve_stream_end(ps);
    job_free(job);
    return 0;
  }
  if (job->err != NULL || job->r.status == 0)
    rc = vdx__serve_send_text(wsi, ps, 500, job->err ? job->err : "error\n",
                              NULL);
  else
    rc = vdx__serve_send_resp(wsi, ps, &job->r, 0);
  job_free(job);
  return rc;
}

/* Runs the handler of route key; answers now if it did not wait, else
 * when its task ends (LWS_CALLBACK_HTTP_WRITEABLE). */
static int run_route(struct lws *wsi, serve_pss *ps, serve_core *core,
                     const char *key, int method, const char *path) {
  vdx_server *srv = core->srv;
  lua_State *L = srv->L;
  int top = lua_gettop(L);
  route_job *job = calloc(1, sizeof *job);
  if (job == NULL || (job->key = strdup(key)) == NULL) {
    free(job);
    return -1;
  }
  job->wsi = wsi;
  job->live_ref = LUA_NOREF;
  job->starting = 1;
  ps->job = job;
  call c = {0};
  c.wsi = wsi;
  c.ps = ps;
  c.srv = srv;
  c.key = key;
  c.method = method;
  c.path = path;
  core->in_handler++;
  lua_pushcfunction(L, route_start);
  lua_pushlightuserdata(L, &c);
  int st = lua_pcall(L, 1, 0, 0);
  core->in_handler--;
  free(c.scratch);
  if (st != LUA_OK) {
    /* The request could not be handed over (out of memory): the task
     * never ran, so nothing else will finish the job. */
    report(job, L, "cannot start handler");
    if (!job->finished) {
      luaL_unref(L, LUA_REGISTRYINDEX, job->live_ref);
      job->finished = 1;
    }
  }
  lua_settop(L, top);
  job->starting = 0;
  if (!job->finished) {
    /* lws would close the connection after a few seconds; the handler
     * may wait longer (a page it drives), and the client may close. */
    lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0);
    return 0;
  }
  return job_answer(wsi, ps);
}

/* Finds the route for method + path: exact first, then longest prefix.
 * Leaves the matching key in buf; returns 0 when none matches. */
static int find_route(vdx_server *srv, int method, const char *path,
                      char *buf, size_t size) {
  const char *m = method_names[method];
  size_t ml = strlen(m), best = 0;
  const serve_prefix *hit = NULL;
  lua_State *L = srv->L;
  if (srv->routes_ref == LUA_NOREF) return 0;
  if ((size_t)snprintf(buf, size, "%s %s", m, path) < size) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, srv->routes_ref);
    int found = lua_getfield(L, -1, buf) != LUA_TNIL;
    lua_pop(L, 2);
    if (found) return 1;
  }
  for (size_t i = 0; i < srv->nprefixes; i++) {
    const serve_prefix *p = &srv->prefixes[i];
    if (p->mlen == ml && strncmp(p->key, m, ml) == 0 &&
        strncmp(path, p->path, p->plen) == 0 && (!hit || p->plen > best)) {
      hit = p;
      best = p->plen;
    }
  }
  if (hit == NULL || strlen(hit->key) >= size) return 0;
  strcpy(buf, hit->key);
  return 1;
}

/* Answers a request whose headers (and body, if any) have all arrived. */
static int dispatch(struct lws *wsi, serve_pss *ps) {
  serve_core *core = core_of(wsi);
  char *uri, key[1024];
  int ulen;
  if (core == NULL || core->srv == NULL) return -1;
  int m = lws_http_get_uri_and_method(wsi, &uri, &ulen);
  if (m < 0 || m > LWSHUMETH_HEAD)
    return vdx__serve_send_text(wsi, ps, 405, "method not allowed\n", NULL);
  if (ps->too_big)
    return vdx__serve_send_text(wsi, ps, 413, "request body too large\n", NULL);
  ps->head_only = m == LWSHUMETH_HEAD;
  if (find_route(core->srv, m, uri, key, sizeof key) ||
      (m == LWSHUMETH_HEAD &&
       find_route(core->srv, LWSHUMETH_GET, uri, key, sizeof key)))
    return run_route(wsi, ps, core, key, m, uri);
  if (m == LWSHUMETH_GET || m == LWSHUMETH_HEAD)
    return vdx__serve_static(wsi, ps, core->srv, uri);
  return vdx__serve_send_text(wsi, ps, 404, "not found\n", NULL);
}

/* --------------------------------------------------------------- bodies */

/*
 * Is this the front's stand-in for a head it did not pass on?  It carries
 * the server's secret token, which no client can send, then the status to
 * answer and why.  Returns the status, or 0; the text goes in why.
 */
static int rejected(struct lws *wsi, const vdx_server *srv, char *why,
                    size_t size) {
  static const char name[] = SERVE_REJECT_HEADER ":";
  char v[sizeof srv->token + 400];
  size_t tl = strlen(srv->token);
  int n = lws_hdr_custom_length(wsi, name, (int)sizeof name - 1);
  if (n <= (int)tl + 4 || n >= (int)sizeof v) return 0;
  n = lws_hdr_custom_copy(wsi, v, (int)sizeof v, name, (int)sizeof name - 1);
  if (n <= (int)tl + 4 || strncmp(v, srv->token, tl) != 0 || v[tl] != ' ')
    return 0;
  char *rest;
  long status = strtol(v + tl + 1, &rest, 10);
  if (status < 400 || status > 599 || *rest != ' ') return 0;
  snprintf(why, size, "%s\n", rest + 1);
  return (int)status;
}

/* A new request: dispatch now, or wait for the body it announces.  The
 * front has checked its framing (serve_head.c). */
static int on_request(struct lws *wsi, serve_pss *ps) {
  serve_core *core = core_of(wsi);
  char cl[32], why[400];
  pss_reset(ps);
  if (core == NULL || core->srv == NULL) return -1;
  int status = rejected(wsi, core->srv, why, sizeof why);
  if (status)
    return vdx__serve_send_text_ex(wsi, ps, status, why, NULL, 1);
  long long len = -1;
  if (lws_hdr_copy(wsi, cl, sizeof cl, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0)
    len = strtoll(cl, NULL, 10);
  /* Too large: the body is read and dropped, then 413 answers, so the
   * client (still sending) sees the answer.  Absurd sizes close at once. */
  if (len > 64ll * SERVE_MAX_BODY)
    return vdx__serve_send_text_ex(wsi, ps, 413, "request body too large\n",
                                   NULL, 1);
  if (len > (long long)SERVE_MAX_BODY) {
    ps->awaiting_body = ps->too_big = 1;
    return 0;
  }
  if (len > 0) {
    ps->awaiting_body = 1;
    ps->body = malloc((size_t)len);
    ps->body_cap = ps->body ? (size_t)len : 0;
    return 0;
  }
  return dispatch(wsi, ps);
}

/* Appends a piece of body; past the limit the rest is read and dropped. */
static int on_body(serve_pss *ps, const void *in, size_t len) {
  if (!ps->awaiting_body || ps->too_big) return 0;
  if (ps->body_len + len > SERVE_MAX_BODY) {
    ps->too_big = 1;
    free(ps->body);
    ps->body = NULL;
    ps->body_len = ps->body_cap = 0;
    return 0;
  }
  if (ps->body_len + len > ps->body_cap) {
    size_t cap = (ps->body_len + len) * 2;
    if (cap > SERVE_MAX_BODY) cap = SERVE_MAX_BODY;
    char *p = realloc(ps->body, cap);
    if (p == NULL) return -1;
    ps->body = p;
    ps->body_cap = cap;
  }
  memcpy(ps->body + ps->body_len, in, len);
  ps->body_len += len;
  return 0;
}

static int http_cb(struct lws *wsi, enum lws_callback_reasons reason,
                   void *user, void *in, size_t len) {
  serve_pss *ps = user;
  switch (reason) {
  case LWS_CALLBACK_HTTP:
    return on_request(wsi, ps);
  case LWS_CALLBACK_HTTP_BODY:
    return on_body(ps, in, len);
  case LWS_CALLBACK_HTTP_BODY_COMPLETION:
    if (!ps->awaiting_body) return 0;
    ps->awaiting_body = 0;
    return dispatch(wsi, ps);
  case LWS_CALLBACK_HTTP_WRITEABLE:
    if (ps->finishing) return vdx__serve_finish(wsi, ps);
    if (ps->job && ps->job->finished) {
      int rc = job_answer(wsi, ps);
      if (rc != 0 || ps->stream == NULL) return rc;
    }
    if (ps->stream) return vdx__serve_stream_writable(wsi, ps);
    return vdx__serve_on_writable(wsi, ps);
  case LWS_CALLBACK_HTTP_FILE_COMPLETION:
    /* lws has sent a file: the transaction is ours to end */
    return vdx__serve_finish(wsi, ps);
  case LWS_CALLBACK_CLOSED_HTTP:
  case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
    if (ps) vdx__serve_stream_gone(ps, 1);
    if (ps) pss_reset(ps);
    break;
  case LWS_CALLBACK_WSI_DESTROY:
    vdx__serve_front_detach(wsi);
    break;
  default:
    break;
  }
  return lws_callback_http_dummy(wsi, reason, user, in, len);
}

const struct lws_protocols vdx__serve_protocols[] = {
  {"vdx-http", http_cb, sizeof(serve_pss), 0, 0, NULL, 0},
  {NULL, NULL, 0, 0, 0, NULL, 0}};
