/*
 * serve_http.c -- the libwebsockets HTTP callback of vdx.serve: static
 * files from the root, Lua route handlers, and the responses.
 *
 * Guarantees:
 *   - every request gets exactly one response, or its connection closes;
 *   - a route handler runs in a protected call in the main Lua state; its
 *     error answers 500 and is reported on stderr, never unwinding lws;
 *   - no static path leaves the root: ".." segments and symlinks that
 *     resolve outside it answer 403, missing files 404;
 *   - files are streamed by lws, bodies are sent in chunks, so size is
 *     bounded by the disk, not by memory;
 *   - per-connection buffers are freed when lws closes the connection,
 *     including during context destruction, when Lua is not touched.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "serve.h"

#define WRITE_CHUNK (64u * 1024u)

/* Per-connection state; lws zeroes it once per connection. */
typedef struct pss {
  int awaiting_body;    /* a body follows: dispatch on completion */
  int too_big;
  int head_only;        /* HEAD: headers only */
  char *body;
  size_t body_len, body_cap;
  unsigned char *out;   /* response body, at out + LWS_PRE */
  size_t out_len, out_off;
} pss;

/* A response built from a handler's result. */
typedef struct resp {
  int status;
  char *ctype;
  char *hdrs;           /* "name:\0value\0" pairs */
  size_t hdrs_len, hdrs_cap;
  unsigned char *body;  /* LWS_PRE bytes of headroom, then the body */
  size_t body_len;
} resp;

static const char *const method_names[] = {
  "GET", "POST", "OPTIONS", "PUT", "PATCH", "DELETE", "CONNECT", "HEAD"};

static void pss_reset(pss *ps) {
  free(ps->body);
  free(ps->out);
  memset(ps, 0, sizeof *ps);
}

static void resp_free(resp *r) {
  free(r->ctype);
  free(r->hdrs);
  free(r->body);
  memset(r, 0, sizeof *r);
}

static serve_core *core_of(struct lws *wsi) {
  return lws_protocol_vh_priv_get(lws_get_vhost(wsi), lws_get_protocol(wsi));
}

/* ------------------------------------------------------------ responses */

/*
 * Writes the status line and headers of r, then either schedules its body
 * or completes the transaction.  With close set, the (short) body is
 * written at once and the connection closes: for answers sent while a
 * request body is still unread.  Takes ownership of r's memory.  Returns
 * what the lws callback must return.
 */
static int send_resp(struct lws *wsi, pss *ps, resp *r, int close) {
  size_t cap = LWS_PRE + 1024 + r->hdrs_len * 2 +
               (r->ctype ? strlen(r->ctype) : 0);
  unsigned char *buf = malloc(cap), *start, *p, *end;
  if (buf == NULL) { resp_free(r); return -1; }
  start = p = buf + LWS_PRE;
  end = buf + cap - 1;
  int bad = lws_add_http_common_headers(wsi, (unsigned)r->status, r->ctype,
                                        r->body_len, &p, end);
  for (size_t i = 0; !bad && i < r->hdrs_len;) {
    const char *name = r->hdrs + i, *value = name + strlen(name) + 1;
    i += strlen(name) + strlen(value) + 2;
    bad = lws_add_http_header_by_name(wsi, (const unsigned char *)name,
                                      (const unsigned char *)value,
                                      (int)strlen(value), &p, end);
  }
  if (!bad) bad = lws_finalize_write_http_header(wsi, start, &p, end);
  free(buf);
  if (bad) { resp_free(r); return -1; }
  if (close) {
    if (r->body_len > 0)
      lws_write(wsi, r->body + LWS_PRE, r->body_len, LWS_WRITE_HTTP_FINAL);
    resp_free(r);
    return -1;
  }
  if (r->body_len > 0 && !ps->head_only) {
    free(ps->out);
    ps->out = r->body;
    ps->out_len = r->body_len;
    ps->out_off = 0;
    r->body = NULL;
    resp_free(r);
    lws_callback_on_writable(wsi);
    return 0;
  }
  resp_free(r);
  return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* Copies len bytes of s as the body of r; returns 0 on success. */
static int resp_body(resp *r, const char *s, size_t len) {
  free(r->body);
  r->body = malloc(LWS_PRE + len + 1);
  if (r->body == NULL) return -1;
  memcpy(r->body + LWS_PRE, s, len);
  r->body_len = len;
  return 0;
}

/* Answers status with a short text body (errors, 404, redirects). */
static int send_text_ex(struct lws *wsi, pss *ps, int status,
                        const char *text, const char *location, int close) {
  resp r = {0};
  r.status = status;
  r.ctype = strdup("text/plain; charset=utf-8");
  if (location) {
    size_t n = strlen(location);
    r.hdrs = malloc(n + 12);
    if (r.hdrs) {
      memcpy(r.hdrs, "location:", 10);
      memcpy(r.hdrs + 10, location, n + 1);
      r.hdrs_len = n + 11;
    }
  }
  if (r.ctype == NULL || resp_body(&r, text, strlen(text)) != 0) {
    resp_free(&r);
    return -1;
  }
  return send_resp(wsi, ps, &r, close);
}

static int send_text(struct lws *wsi, pss *ps, int status, const char *text,
                     const char *location) {
  return send_text_ex(wsi, ps, status, text, location, 0);
}

/* Sends the next chunk of a pending body; completes when it is all out. */
static int on_writable(struct lws *wsi, pss *ps) {
  if (ps->out == NULL) return 0;
  size_t n = ps->out_len - ps->out_off;
  if (n > WRITE_CHUNK) n = WRITE_CHUNK;
  int final = ps->out_off + n == ps->out_len;
  /* The LWS_PRE bytes before this chunk are headroom or already sent. */
  unsigned char *p = ps->out + LWS_PRE + ps->out_off;
  if (lws_write(wsi, p, n, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) <
      (int)n)
    return -1;
  ps->out_off += n;
  if (!final) {
    lws_callback_on_writable(wsi);
    return 0;
  }
  free(ps->out);
  ps->out = NULL;
  return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* --------------------------------------------------------- static files */

static const char *mime_type(const char *path) {
  static const char *const types[][2] = {
    {"html", "text/html; charset=utf-8"}, {"htm", "text/html; charset=utf-8"},
    {"js", "text/javascript; charset=utf-8"},
    {"mjs", "text/javascript; charset=utf-8"},
    {"css", "text/css; charset=utf-8"}, {"json", "application/json"},
    {"map", "application/json"}, {"png", "image/png"},
    {"jpg", "image/jpeg"}, {"jpeg", "image/jpeg"}, {"gif", "image/gif"},
    {"webp", "image/webp"}, {"svg", "image/svg+xml"},
    {"txt", "text/plain; charset=utf-8"}, {"wasm", "application/wasm"},
    {"ico", "image/x-icon"}, {"woff2", "font/woff2"}, {"woff", "font/woff"},
    {"xml", "application/xml"}, {"pdf", "application/pdf"}};
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  if (dot && (!slash || dot > slash))
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
      if (strcasecmp(dot + 1, types[i][0]) == 0) return types[i][1];
  return "application/octet-stream";
}

/* True when a segment of path is "..". */
static int has_dotdot(const char *path) {
  for (const char *s = path; (s = strstr(s, "..")) != NULL; s += 2)
    if ((s == path || s[-1] == '/') && (s[2] == '\0' || s[2] == '/'))
      return 1;
  return 0;
}

/*
 * Serves path (decoded, from the request line) from the root.  Answers
 * 403 for paths that leave the root, 404 for what is not a regular file,
 * a redirect for a directory named without its trailing slash.
 */
static int serve_static(struct lws *wsi, pss *ps, vdx_server *srv,
                        const char *path) {
  char full[PATH_MAX], real[PATH_MAX];
  struct stat st;
  if (srv->root == NULL) return send_text(wsi, ps, 404, "not found\n", NULL);
  if (path[0] != '/' || has_dotdot(path))
    return send_text(wsi, ps, 403, "forbidden\n", NULL);
  int n = snprintf(full, sizeof full, "%s%s", srv->root, path);
  if (n < 0 || (size_t)n >= sizeof full - 16)
    return send_text(wsi, ps, 404, "not found\n", NULL);
  if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
    if (full[n - 1] != '/') {
      /* The path arrives decoded: encode it again for the Location. */
      char loc[PATH_MAX];
      size_t k = 0;
      for (const char *q = path; *q && k + 4 < sizeof loc; q++) {
        unsigned char ch = (unsigned char)*q;
        if (isalnum(ch) || strchr("/-_.~", ch)) loc[k++] = (char)ch;
        else k += (size_t)snprintf(loc + k, 4, "%%%02X", ch);
      }
      memcpy(loc + k, "/", 2);
      return send_text(wsi, ps, 301, "moved\n", loc);
    }
    memcpy(full + n, "index.html", 11);
  }
  if (realpath(full, real) == NULL)
    return send_text(wsi, ps, errno == EACCES ? 403 : 404,
                     errno == EACCES ? "forbidden\n" : "not found\n", NULL);
  if (strncmp(real, srv->root, srv->root_len) != 0 ||
      (real[srv->root_len] != '/' && real[srv->root_len] != '\0'))
    return send_text(wsi, ps, 403, "forbidden\n", NULL);
  if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
    return send_text(wsi, ps, 404, "not found\n", NULL);
  unsigned char extra[128], *p = extra;
  if (lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                  (const unsigned char *)"no-store", 8, &p,
                                  extra + sizeof extra))
    return -1;
  n = lws_serve_http_file(wsi, real, mime_type(full), (const char *)extra,
                          (int)(p - extra));
  if (n < 0 || (n > 0 && lws_http_transaction_completed(wsi))) return -1;
  return 0;
}

/* --------------------------------------------------------------- routes */

/* Everything a route call needs, and what it leaves behind. */
typedef struct call {
  struct lws *wsi;
  pss *ps;
  vdx_server *srv;
  const char *key;      /* the routes-table key that matched */
  int method;
  const char *path;
  char *scratch;        /* header values and query fragments */
  size_t scratch_cap;
  resp r;
  char *err;            /* set when the call failed: the 500 body */
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

/* Appends "name:\0value\0" to r's header list; raises on bad names. */
static void add_header(lua_State *L, resp *r, const char *name,
                       const char *value, size_t vl) {
  size_t nl = strlen(name);
  if (nl == 0 || strpbrk(name, ": \t\r\n") != NULL)
    luaL_error(L, "bad response header name '%s'", name);
  if (memchr(value, '\r', vl) || memchr(value, '\n', vl) || strlen(value) != vl)
    luaL_error(L, "bad value of response header '%s'", name);
  size_t need = r->hdrs_len + nl + vl + 3;
  if (need > r->hdrs_cap) {
    size_t cap = need * 2;
    char *p = realloc(r->hdrs, cap);
    if (p == NULL) luaL_error(L, "out of memory");
    r->hdrs = p;
    r->hdrs_cap = cap;
  }
  char *d = r->hdrs + r->hdrs_len;
  for (size_t i = 0; i < nl; i++) d[i] = (char)tolower((unsigned char)name[i]);
  d[nl] = ':';
  d[nl + 1] = '\0';
  memcpy(d + nl + 2, value, vl + 1);
  r->hdrs_len = need;
}

/* Reads result.headers (at idx) into r; a value may be a list. */
static void take_headers(lua_State *L, int idx, resp *r) {
  if (lua_isnil(L, idx)) return;
  luaL_checktype(L, idx, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) != LUA_TSTRING)
      luaL_error(L, "response header names must be strings");
    const char *name = lua_tostring(L, -2);
    if (strcasecmp(name, "content-length") == 0) {
      lua_pop(L, 1);
      continue;
    }
    if (strcasecmp(name, "content-type") == 0) {
      free(r->ctype);
      r->ctype = strdup(luaL_checkstring(L, -1));
      if (r->ctype == NULL) luaL_error(L, "out of memory");
    } else if (lua_istable(L, -1)) {
      for (lua_Integer i = 1; lua_rawgeti(L, -1, i) != LUA_TNIL; i++) {
        size_t vl;
        const char *v = luaL_checklstring(L, -1, &vl);
        add_header(L, r, name, v, vl);
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
    } else {
      size_t vl;
      const char *v = luaL_checklstring(L, -1, &vl);
      add_header(L, r, name, v, vl);
    }
    lua_pop(L, 1);
  }
}

/*
 * Turns a handler's result (at idx) into r: a table { status, headers,
 * body | json }, a string (200 text/html), or nil (204).  Raises on
 * anything else, which the caller answers with 500.
 */
static void take_result(lua_State *L, int idx, resp *r) {
  static const char *const known[] = {"status", "headers", "body", "json",
                                      NULL};
  const char *deftype = "text/html; charset=utf-8";
  size_t len;
  const char *s;
  r->status = 200;
  switch (lua_type(L, idx)) {
  case LUA_TNIL:
    r->status = 204;
    return;
  case LUA_TSTRING:
    s = lua_tolstring(L, idx, &len);
    break;
  case LUA_TTABLE:
    vdx__check_opts(L, idx, known);
    lua_getfield(L, idx, "status");
    if (!lua_isnil(L, -1)) {
      if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 100 ||
          lua_tointeger(L, -1) > 599)
        luaL_error(L, "response status must be an integer in 100..599");
      r->status = (int)lua_tointeger(L, -1);
    }
    lua_getfield(L, idx, "headers");
    take_headers(L, lua_gettop(L), r);
    lua_getfield(L, idx, "json");
    lua_getfield(L, idx, "body");
    if (!lua_isnil(L, -2) && !lua_isnil(L, -1))
      luaL_error(L, "a response has either body or json, not both");
    if (!lua_isnil(L, -2)) {
      s = vdx__json_encode(L, -2, &len);
      deftype = "application/json";
    } else if (!lua_isnil(L, -1)) {
      s = luaL_checklstring(L, -1, &len);
    } else {
      s = "";
      len = 0;
      deftype = NULL;
    }
    break;
  default:
    luaL_error(L, "a route handler must return a table, a string or nil, "
               "not a %s", luaL_typename(L, idx));
    return;
  }
  if (r->ctype == NULL && deftype != NULL) {
    r->ctype = strdup(deftype);
    if (r->ctype == NULL) luaL_error(L, "out of memory");
  }
  if (resp_body(r, s, len) != 0) luaL_error(L, "out of memory");
}

/* Message handler: the error as a string, with a traceback. */
static int traceback(lua_State *L) {
  const char *msg = luaL_tolstring(L, 1, NULL);
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/* Keeps the first line of a traceback-decorated message as c->err. */
static void keep_error(call *c, const char *msg) {
  const char *tb = strstr(msg, "\nstack traceback:");
  size_t n = tb ? (size_t)(tb - msg) : strlen(msg);
  free(c->err);
  c->err = malloc(n + 2);
  if (c->err) {
    memcpy(c->err, msg, n);
    memcpy(c->err + n, "\n", 2);
  }
}

/* The protected part of a route call.  stack: call -> (nothing) */
static int route_call(lua_State *L) {
  call *c = lua_touserdata(L, 1);
  lua_pushcfunction(L, traceback);                      /* 2 */
  struct lws **live = lua_newuserdatauv(L, sizeof *live, 0);  /* 3 */
  *live = c->wsi;
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->srv->routes_ref);
  lua_getfield(L, -1, c->key);
  lua_remove(L, -2);
  push_request(L, c, 3);
  int st = lua_pcall(L, 1, 1, 2);
  *live = NULL;  /* the request's headers are gone after the answer */
  if (st != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "vdx.serve: error in handler %s: %s\n", c->key,
            msg ? msg : "?");
    fflush(stderr);
    keep_error(c, msg ? msg : "error in handler");
    return 0;
  }
  take_result(L, lua_gettop(L), &c->r);
  return 0;
}

/* Runs the handler of route key and answers with what it returned. */
static int run_route(struct lws *wsi, pss *ps, serve_core *core,
                     const char *key, int method, const char *path) {
  vdx_server *srv = core->srv;
  lua_State *L = srv->L;
  int top = lua_gettop(L);
  call c = {0};
  c.wsi = wsi;
  c.ps = ps;
  c.srv = srv;
  c.key = key;
  c.method = method;
  c.path = path;
  core->in_handler++;
  lua_pushcfunction(L, route_call);
  lua_pushlightuserdata(L, &c);
  int st = lua_pcall(L, 1, 0, 0);
  core->in_handler--;
  if (st != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "vdx.serve: bad result from handler %s: %s\n", key,
            msg ? msg : "?");
    fflush(stderr);
    keep_error(&c, msg ? msg : "bad handler result");
  }
  lua_settop(L, top);
  free(c.scratch);
  if (c.err != NULL || c.r.status == 0) {
    int rc = send_text(wsi, ps, 500, c.err ? c.err : "error\n", NULL);
    free(c.err);
    resp_free(&c.r);
    return rc;
  }
  return send_resp(wsi, ps, &c.r, 0);
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
static int dispatch(struct lws *wsi, pss *ps) {
  serve_core *core = core_of(wsi);
  char *uri, key[1024];
  int ulen;
  if (core == NULL || core->srv == NULL) return -1;
  int m = lws_http_get_uri_and_method(wsi, &uri, &ulen);
  if (m < 0 || m > LWSHUMETH_HEAD)
    return send_text(wsi, ps, 405, "method not allowed\n", NULL);
  if (ps->too_big)
    return send_text(wsi, ps, 413, "request body too large\n", NULL);
  ps->head_only = m == LWSHUMETH_HEAD;
  if (find_route(core->srv, m, uri, key, sizeof key) ||
      (m == LWSHUMETH_HEAD &&
       find_route(core->srv, LWSHUMETH_GET, uri, key, sizeof key)))
    return run_route(wsi, ps, core, key, m, uri);
  if (m == LWSHUMETH_GET || m == LWSHUMETH_HEAD)
    return serve_static(wsi, ps, core->srv, uri);
  return send_text(wsi, ps, 404, "not found\n", NULL);
}

/* --------------------------------------------------------------- bodies */

/* A new request: dispatch now, or wait for the body it announces. */
static int on_request(struct lws *wsi, pss *ps) {
  serve_core *core = core_of(wsi);
  char cl[32];
  pss_reset(ps);
  if (core == NULL || core->srv == NULL) return -1;
  long long len = -1;
  if (lws_hdr_copy(wsi, cl, sizeof cl, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0)
    len = strtoll(cl, NULL, 10);
  /* Too large: the body is read and dropped, then 413 answers, so the
   * client (still sending) sees the answer.  Absurd sizes close at once. */
  if (len > 64ll * SERVE_MAX_BODY)
    return send_text_ex(wsi, ps, 413, "request body too large\n", NULL, 1);
  if (len > (long long)SERVE_MAX_BODY) {
    ps->awaiting_body = ps->too_big = 1;
    return 0;
  }
  /* lws 4.1 cannot read chunked request bodies: refuse and close. */
  if (len < 0 &&
      lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0)
    return send_text_ex(wsi, ps, 411, "chunked request bodies are not "
                        "supported: send a Content-Length\n", NULL, 1);
  if (len > 0) {
    ps->awaiting_body = 1;
    ps->body = malloc((size_t)len);
    ps->body_cap = ps->body ? (size_t)len : 0;
    return 0;
  }
  return dispatch(wsi, ps);
}

/* Appends a piece of body; past the limit the rest is read and dropped. */
static int on_body(pss *ps, const void *in, size_t len) {
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
  pss *ps = user;
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
    return on_writable(wsi, ps);
  case LWS_CALLBACK_CLOSED_HTTP:
  case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
    if (ps) pss_reset(ps);
    break;
  default:
    break;
  }
  return lws_callback_http_dummy(wsi, reason, user, in, len);
}

const struct lws_protocols vdx__serve_protocols[] = {
  {"vdx-http", http_cb, sizeof(pss), 0, 0, NULL, 0},
  {NULL, NULL, 0, 0, 0, NULL, 0}};
