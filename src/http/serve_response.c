/*
 * serve_response.c -- the responses of vdx.serve: a route handler's result
 * turned into a response (status, headers, body or json), its status line
 * and headers written, and its body sent in chunks as the connection
 * becomes writable.  Also the short text answers (errors, 404, redirects)
 * of the other serve files.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve.h"

#define WRITE_CHUNK (64u * 1024u)

void vdx__serve_resp_free(serve_resp *r) {
  free(r->ctype);
  free(r->hdrs);
  free(r->body);
  memset(r, 0, sizeof *r);
}

/*
 * Writes the status line and headers of r, then either schedules its body
 * or completes the transaction.  With close set, the (short) body is
 * written at once and the connection closes: for answers sent while a
 * request body is still unread.  Takes ownership of r's memory.  Returns
 * what the lws callback must return.
 */
int vdx__serve_send_resp(struct lws *wsi, serve_pss *ps, serve_resp *r,
                         int close) {
  size_t cap = LWS_PRE + 1024 + r->hdrs_len * 2 +
               (r->ctype ? strlen(r->ctype) : 0);
  unsigned char *buf = malloc(cap), *start, *p, *end;
  if (buf == NULL) { vdx__serve_resp_free(r); return -1; }
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
  if (!bad && close)  /* tells the client not to send more on it */
    bad = lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION,
                                       (const unsigned char *)"close", 5, &p,
                                       end);
  if (!bad) bad = lws_finalize_write_http_header(wsi, start, &p, end);
  free(buf);
  if (bad) { vdx__serve_resp_free(r); return -1; }
  if (close) {
    if (r->body_len > 0)
      lws_write(wsi, r->body + LWS_PRE, r->body_len, LWS_WRITE_HTTP_FINAL);
    vdx__serve_resp_free(r);
    return -1;
  }
  if (r->body_len > 0 && !ps->head_only) {
    free(ps->out);
    ps->out = r->body;
    ps->out_len = r->body_len;
    ps->out_off = 0;
    r->body = NULL;
    vdx__serve_resp_free(r);
    lws_callback_on_writable(wsi);
    return 0;
  }
  vdx__serve_resp_free(r);
  return vdx__serve_finish(wsi, ps);
}

/* Copies len bytes of s as the body of r; returns 0 on success. */
static int resp_body(serve_resp *r, const char *s, size_t len) {
  free(r->body);
  r->body = malloc(LWS_PRE + len + 1);
  if (r->body == NULL) return -1;
  memcpy(r->body + LWS_PRE, s, len);
  r->body_len = len;
  return 0;
}

/* Answers status with a short text body (errors, 404, redirects). */
int vdx__serve_send_text_ex(struct lws *wsi, serve_pss *ps, int status,
                            const char *text, const char *location,
                            int close) {
  serve_resp r = {0};
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
    vdx__serve_resp_free(&r);
    return -1;
  }
  return vdx__serve_send_resp(wsi, ps, &r, close);
}

int vdx__serve_send_text(struct lws *wsi, serve_pss *ps, int status,
                         const char *text, const char *location) {
  return vdx__serve_send_text_ex(wsi, ps, status, text, location, 0);
}

/*
 * lws buffers what the socket does not take; until that is written, its
 * transaction must not end (lws would read the next request meanwhile),
 * so the end waits for a writable callback, which lws gives only once its
 * buffer is empty.
 */
int vdx__serve_finish(struct lws *wsi, serve_pss *ps) {
  if (lws_partial_buffered(wsi)) {
    ps->finishing = 1;
    lws_callback_on_writable(wsi);
    return 0;
  }
  ps->finishing = 0;
  if (lws_http_transaction_completed(wsi)) return -1;
  vdx__serve_front_answered(wsi);
  return 0;
}

/*
 * Sends the next chunk of a pending body; completes when it is all out.
 * Each chunk written renews the connection's idle timeout: a slow reader
 * gets the whole body, one that stops reading is closed SERVE_IDLE_SECS
 * after its last progress.
 */
int vdx__serve_on_writable(struct lws *wsi, serve_pss *ps) {
  if (ps->out == NULL) return 0;
  size_t n = ps->out_len - ps->out_off;
  if (n > WRITE_CHUNK) n = WRITE_CHUNK;
  int final = ps->out_off + n == ps->out_len;
  /* The LWS_PRE bytes before this chunk are headroom or already sent.  A
   * short count is not an error: lws keeps what the socket did not take. */
  unsigned char *p = ps->out + LWS_PRE + ps->out_off;
  if (lws_write(wsi, p, n, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < 0)
    return -1;
  ps->out_off += n;
  lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, SERVE_IDLE_SECS);
  if (!final) {
    lws_callback_on_writable(wsi);
    return 0;
  }
  free(ps->out);
  ps->out = NULL;
  return vdx__serve_finish(wsi, ps);
}

/* ------------------------------------------------------ handler results */

/* Appends "name:\0value\0" to r's header list; raises on bad names. */
static void add_header(lua_State *L, serve_resp *r, const char *name,
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
static void take_headers(lua_State *L, int idx, serve_resp *r) {
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
void vdx__serve_take_result(lua_State *L, int idx, serve_resp *r) {
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
