/*
 * serve_stream.c -- streamed answers of vdx.serve: req.stream(opts) in a
 * route handler takes over the request's answer and returns a vdx.Stream,
 * whose :write(chunk) sends a chunk (HTTP/1.1 chunked transfer coding)
 * and whose :close() ends the answer.  Server-sent events ride on it.
 *
 * Guarantees:
 *   - every byte is written from lws's writable callback, never from
 *     inside Lua: :write queues and asks for the callback, which libuv
 *     gives when the socket takes more;
 *   - the queue is bounded (STREAM_MAX_QUEUE): a write that would pass the
 *     bound returns nil, "backlog" and drops the connection, so a client
 *     that stops reading costs bounded memory;
 *   - a client that goes away (its EOF, a reset, a failed write) ends the
 *     stream: :write returns nil, "closed" from then on, and opts.on_close
 *     runs once, as a task; it does not run after :close() or when the
 *     server closes;
 *   - the stream's memory is shared by the connection and the userdata,
 *     freed by whichever lets go last; the userdata is anchored while the
 *     connection is open, so a stream the script drops keeps serving.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

#define VDX_STREAM_MT "vdx.Stream"
/* The most bytes a stream queues for a client that does not read. */
#define STREAM_MAX_QUEUE (4u * 1024u * 1024u)

struct serve_stream {
  struct lws *wsi;        /* NULL once the connection is gone or done */
  vdx_server *srv;        /* NULL once the server closed */
  serve_stream *prev, *next;  /* the server's open streams */
  serve_resp head;        /* status, content type and headers */
  int head_sent;
  int closing;            /* :close() asked: the last chunk follows */
  int gone;               /* the client went away */
  int refs;               /* the connection's and the userdata's */
  int self_ref;           /* registry: the userdata, while connected */
  unsigned char *q;       /* LWS_PRE headroom, then q_len framed bytes */
  size_t q_len, q_cap;
};

static void stream_unref(serve_stream *st) {
  if (--st->refs > 0) return;
  vdx__serve_resp_free(&st->head);
  free(st->q);
  free(st);
}

/* Takes st off its server's list; touches no Lua. */
static void stream_unlink(serve_stream *st) {
  vdx_server *srv = st->srv;
  if (srv == NULL) return;
  if (st->prev) st->prev->next = st->next;
  else srv->streams = st->next;
  if (st->next) st->next->prev = st->prev;
  st->prev = st->next = NULL;
  st->srv = NULL;
}

/* Lets go of the userdata's anchor (L: any thread of the state). */
static void stream_unanchor(serve_stream *st, lua_State *L) {
  if (st->self_ref == LUA_NOREF) return;
  luaL_unref(L, LUA_REGISTRYINDEX, st->self_ref);
  st->self_ref = LUA_NOREF;
}

/* Appends len bytes to the queue; returns 0, or -1 when out of memory. */
static int enqueue(serve_stream *st, const void *p, size_t len) {
  if (st->q_len + len > st->q_cap) {
    size_t cap = (st->q_len + len) * 2 + 256;
    unsigned char *q = realloc(st->q, LWS_PRE + cap);
    if (q == NULL) return -1;
    st->q = q;
    st->q_cap = cap;
  }
  memcpy(st->q + LWS_PRE + st->q_len, p, len);
  st->q_len += len;
  return 0;
}

/* Writes the status line and headers; returns 0 or -1. */
static int send_head(struct lws *wsi, serve_stream *st) {
  serve_resp *r = &st->head;
  size_t cap = LWS_PRE + 1024 + r->hdrs_len * 2 +
               (r->ctype ? strlen(r->ctype) : 0);
  unsigned char *buf = malloc(cap), *start, *p, *end;
  if (buf == NULL) return -1;
  start = p = buf + LWS_PRE;
  end = buf + cap - 1;
  int bad = lws_add_http_header_status(wsi, (unsigned)r->status, &p, end);
  if (!bad && r->ctype)
    bad = lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE,
                                       (const unsigned char *)r->ctype,
                                       (int)strlen(r->ctype), &p, end);
  for (size_t i = 0; !bad && i < r->hdrs_len;) {
    const char *name = r->hdrs + i, *value = name + strlen(name) + 1;
    i += strlen(name) + strlen(value) + 2;
    bad = lws_add_http_header_by_name(wsi, (const unsigned char *)name,
                                      (const unsigned char *)value,
                                      (int)strlen(value), &p, end);
  }
  if (!bad)
    bad = lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING,
                                       (const unsigned char *)"chunked", 7,
                                       &p, end);
  if (!bad) bad = lws_finalize_write_http_header(wsi, start, &p, end);
  free(buf);
  return bad ? -1 : 0;
}

/*
 * The connection of ps is writable: sends the head, then what is queued,
 * then (after :close()) the last chunk, which ends the transaction.
 * Returns what the lws callback returns.
 */
int vdx__serve_stream_writable(struct lws *wsi, serve_pss *ps) {
  serve_stream *st = ps->stream;
  if (st->gone) return -1;
  if (lws_partial_buffered(wsi)) {
    lws_callback_on_writable(wsi);
    return 0;
  }
  if (!st->head_sent) {
    if (send_head(wsi, st) != 0) return -1;
    st->head_sent = 1;
    lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0);
    if (st->q_len > 0 || st->closing) lws_callback_on_writable(wsi);
    return 0;
  }
  if (st->closing && enqueue(st, "0\r\n\r\n", 5) != 0) return -1;
  if (st->q_len > 0) {
    if (lws_write(wsi, st->q + LWS_PRE, st->q_len, LWS_WRITE_HTTP) < 0)
      return -1;
    st->q_len = 0;
  }
  lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0);
  if (!st->closing) return 0;
  /* The answer is whole: the connection serves its next request. */
  ps->stream = NULL;
  st->wsi = NULL;
  if (st->srv) stream_unanchor(st, st->srv->L);
  stream_unlink(st);
  stream_unref(st);
  return vdx__serve_finish(wsi, ps);
}

/* stack: st (light) -> ; runs on_close as a task and drops the anchor. */
static int run_on_close(lua_State *L) {
  serve_stream *st = lua_touserdata(L, 1);
  int ref = st->self_ref;
  st->self_ref = LUA_NOREF;
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  luaL_unref(L, LUA_REGISTRYINDEX, ref);
  if (lua_getiuservalue(L, -1, 1) == LUA_TFUNCTION) {
    lua_pushvalue(L, -2);
    vdx__spawn(L, 1);
  }
  return 0;
}

/*
 * The connection of ps closes: its stream ends.  With the server open
 * (the stream still on its list) the stream's on_close runs; lua: 0 when
 * Lua must not be touched (the connection is being reset).
 */
void vdx__serve_stream_gone(serve_pss *ps, int lua) {
  serve_stream *st = ps->stream;
  if (st == NULL) return;
  ps->stream = NULL;
  st->wsi = NULL;
  st->gone = 1;
  vdx_server *srv = st->srv;
  if (lua && srv != NULL && srv->core != NULL && st->self_ref != LUA_NOREF) {
    lua_State *L = srv->L;
    serve_core *core = srv->core;
    int top = lua_gettop(L);
    core->in_handler++;
    lua_pushcfunction(L, run_on_close);
    lua_pushlightuserdata(L, st);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
      fprintf(stderr, "vdx.serve: stream on_close: %s\n", lua_tostring(L, -1));
      fflush(stderr);
    }
    core->in_handler--;
    lua_settop(L, top);
  }
  stream_unlink(st);
  stream_unref(st);
}

/* The server closes (L: any thread of its state): every stream lets go of
 * its anchor and its server; the connections close with the context. */
void vdx__serve_streams_close(vdx_server *srv, lua_State *L) {
  while (srv->streams) {
    serve_stream *st = srv->streams;
    stream_unanchor(st, L);
    stream_unlink(st);
  }
}

/* ---------------------------------------------------------------- Lua */

static serve_stream *check_stream(lua_State *L, int idx) {
  serve_stream **pp = luaL_checkudata(L, idx, VDX_STREAM_MT);
  if (*pp == NULL) luaL_error(L, "vdx.Stream: the stream is freed");
  return *pp;
}

static int is_open(const serve_stream *st) {
  return st->wsi != NULL && !st->closing && !st->gone;
}

/* stream:write(chunk) -> true | nil, "closed" | nil, "backlog" */
static int stream_write(lua_State *L) {
  serve_stream *st = check_stream(L, 1);
  size_t len;
  const char *s = luaL_checklstring(L, 2, &len);
  if (!is_open(st)) {
    lua_pushnil(L);
    lua_pushliteral(L, "closed");
    return 2;
  }
  if (len == 0) { lua_pushboolean(L, 1); return 1; }
  if (st->q_len + len + 32 > STREAM_MAX_QUEUE) {
    /* The client does not read: it loses the connection. */
    st->gone = 1;  /* the next writable callback closes the connection */
    lws_callback_on_writable(st->wsi);
    lua_pushnil(L);
    lua_pushliteral(L, "backlog");
    return 2;
  }
  char size[24];
  int n = snprintf(size, sizeof size, "%zx\r\n", len);
  if (enqueue(st, size, (size_t)n) != 0 || enqueue(st, s, len) != 0 ||
      enqueue(st, "\r\n", 2) != 0)
    return luaL_error(L, "out of memory");
  lws_callback_on_writable(st->wsi);
  lua_pushboolean(L, 1);
  return 1;
}

/* stream:close() -> true: ends the answer after what is queued.  Idempotent. */
static int stream_close(lua_State *L) {
  serve_stream *st = check_stream(L, 1);
  if (is_open(st)) {
    st->closing = 1;
    lws_callback_on_writable(st->wsi);
  }
  lua_pushboolean(L, 1);
  return 1;
}

static int stream_close_meta(lua_State *L) {
  stream_close(L);
  return 0;
}

/* __gc: lets go of the memory; safe to run twice. */
static int stream_gc(lua_State *L) {
  serve_stream **pp = luaL_checkudata(L, 1, VDX_STREAM_MT);
  if (*pp == NULL) return 0;
  stream_unref(*pp);
  *pp = NULL;
  return 0;
}

static int stream_tostring(lua_State *L) {
  serve_stream *st = check_stream(L, 1);
  lua_pushstring(L, is_open(st) ? "vdx.Stream (open)" : "vdx.Stream (closed)");
  return 1;
}

/* __index: stream:write, stream:close, stream.closed, stream.buffered. */
static int stream_index(lua_State *L) {
  serve_stream *st = check_stream(L, 1);
  const char *k = luaL_checkstring(L, 2);
  if (strcmp(k, "write") == 0) lua_pushcfunction(L, stream_write);
  else if (strcmp(k, "close") == 0) lua_pushcfunction(L, stream_close);
  else if (strcmp(k, "closed") == 0) lua_pushboolean(L, !is_open(st));
  else if (strcmp(k, "buffered") == 0) lua_pushinteger(L, (lua_Integer)st->q_len);
  else lua_pushnil(L);
  return 1;
}

/*
 * req.stream{ status = 200, headers = {}, on_close = fn } -> vdx.Stream
 * Takes over the answer of the request whose handler runs: the head is
 * sent at once (when the connection is next writable), the body is what
 * :write sends until :close().  The handler may return at once (its result
 * is then ignored) or go on writing.  Raises when the request is answered
 * or gone, or on bad options.  upvalue: the request's wsi slot.
 */
static int stream_open(lua_State *L) {
  static const char *const known[] = {"status", "headers", "on_close", NULL};
  struct lws *wsi = *(struct lws **)lua_touserdata(L, lua_upvalueindex(1));
  if (lua_gettop(L) == 0) lua_newtable(L);
  if (lua_gettop(L) >= 2) lua_remove(L, 1);  /* req:stream{...} */
  luaL_checktype(L, 1, LUA_TTABLE);
  vdx__check_opts(L, 1, known);
  serve_pss *ps = wsi ? lws_wsi_user(wsi) : NULL;
  if (ps == NULL || ps->job == NULL || ps->streamed || ps->stream)
    return vdx__misuse(L, "req.stream: the request is already answered or its "
                          "client has gone");
  serve_core *core = lws_protocol_vh_priv_get(lws_get_vhost(wsi),
                                              lws_get_protocol(wsi));
  if (core == NULL || core->srv == NULL)
    return vdx__misuse(L, "req.stream: the server is closed");
  lua_getfield(L, 1, "on_close");
  if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
    return vdx__misuse(L, "req.stream: on_close must be a function");
  lua_getfield(L, 1, "status");
  lua_getfield(L, 1, "headers");
  lua_createtable(L, 0, 2);  /* a result table for vdx__serve_take_result */
  lua_insert(L, -3);
  lua_setfield(L, -3, "headers");
  lua_setfield(L, -2, "status");
  serve_stream **pp = lua_newuserdatauv(L, sizeof *pp, 1);
  *pp = NULL;
  luaL_setmetatable(L, VDX_STREAM_MT);
  serve_stream *st = calloc(1, sizeof *st);
  if (st == NULL) return luaL_error(L, "out of memory");
  *pp = st;
  st->refs = 1;                 /* the userdata's */
  st->self_ref = LUA_NOREF;
  int ud = lua_gettop(L);
  vdx__serve_take_result(L, ud - 1, &st->head);
  lua_settop(L, ud);
  free(st->head.body);          /* an empty body: the chunks are the body */
  st->head.body = NULL;
  if (st->head.ctype == NULL)
    st->head.ctype = strdup("text/event-stream; charset=utf-8");
  lua_pushvalue(L, 2);          /* on_close */
  lua_setiuservalue(L, -2, 1);
  st->wsi = wsi;
  st->refs++;                   /* the connection's */
  ps->stream = st;
  ps->streamed = 1;
  st->srv = core->srv;
  st->next = core->srv->streams;
  if (st->next) st->next->prev = st;
  core->srv->streams = st;
  lua_pushvalue(L, -1);
  st->self_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  if (vdx__serve_front_streaming(wsi)) st->gone = 1;
  lws_callback_on_writable(wsi);
  return 1;
}

/* Pushes req.stream for the request whose wsi slot is at live. */
void vdx__serve_push_stream_open(lua_State *L, int live) {
  if (luaL_newmetatable(L, VDX_STREAM_MT)) {
    static const luaL_Reg meta[] = {
      {"__index", stream_index}, {"__gc", stream_gc},
      {"__close", stream_close_meta}, {"__tostring", stream_tostring},
      {NULL, NULL}};
    luaL_setfuncs(L, meta, 0);
  }
  lua_pop(L, 1);
  lua_pushvalue(L, live);
  lua_pushcclosure(L, stream_open, 1);
}

/* The handler that opened ps's stream failed: the answer ends there. */
void vdx__serve_stream_end(serve_pss *ps) {
  serve_stream *st = ps->stream;
  if (st == NULL || !is_open(st)) return;
  st->closing = 1;
  lws_callback_on_writable(st->wsi);
}
