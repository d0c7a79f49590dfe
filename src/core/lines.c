/*
 * lines.c -- vdx.read_lines: newline-delimited input (stdin for the MCP
 * server) read on the loop, so browser events keep flowing while the host
 * waits for the next request.
 *
 * Guarantees: each complete line is handed to the callback once, in order,
 * as a new task (so a slow request does not hold up the next one); a line
 * longer than max_bytes is reported once as (nil, "too_long", bytes) and
 * skipped up to its newline, never delivered in pieces; end of input is
 * reported once as (nil, "eof").  Pipes, terminals and regular files work.
 */
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "task.h"

#define READER_MT "vdx.LineReader"
#define CHUNK (64 * 1024)

typedef struct reader {
  vdx_loop *lp;
  int kind;                 /* UV_NAMED_PIPE / UV_TTY (stream) or UV_FILE */
  union { uv_pipe_t pipe; uv_tty_t tty; } h;
  uv_fs_t fsreq;
  int fd;
  int64_t offset;
  char *buf;
  size_t len, cap, max;
  int skipping;             /* inside an overlong line */
  size_t skipped;
  int fn_ref;
  int closed, eof, handle_open, fs_busy;
  vdx_waiter *done;         /* reader:wait() */
  char chunk[CHUNK];
} reader;

typedef struct handle { reader *r; } handle;

static void deliver(reader *r, const char *line, size_t n, const char *what,
                    size_t bytes) {
  lua_State *L = vdx__main_state(r->lp);
  if (r->fn_ref == LUA_NOREF) return;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->fn_ref);
  if (line) {
    lua_pushlstring(L, line, n);
    vdx__spawn(L, 1);
  } else {
    lua_pushnil(L);
    lua_pushstring(L, what);
    if (bytes) lua_pushinteger(L, (lua_Integer)bytes);
    vdx__spawn(L, bytes ? 3 : 2);
  }
  lua_pop(L, 1);
}

static void feed(reader *r, const char *data, size_t n) {
  while (n > 0 && !r->closed) {
    const char *nl = memchr(data, '\n', n);
    size_t take = nl ? (size_t)(nl - data) : n;
    if (r->skipping) {
      r->skipped += take;
    } else if (r->len + take > r->max) {
      r->skipping = 1;
      r->skipped = r->len + take;
      r->len = 0;
    } else {
      if (r->len + take > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + take) cap *= 2;
        char *nb = realloc(r->buf, cap);
        if (nb == NULL) { r->skipping = 1; r->skipped = r->len + take; r->len = 0; }
        else { r->buf = nb; r->cap = cap; }
      }
      if (!r->skipping) {
        memcpy(r->buf + r->len, data, take);
        r->len += take;
      }
    }
    if (!nl) return;
    if (r->skipping) {
      deliver(r, NULL, 0, "too_long", r->skipped);
      r->skipping = 0;
      r->skipped = 0;
    } else {
      size_t len = r->len;
      if (len > 0 && r->buf[len - 1] == '\r') len--;
      deliver(r, r->buf ? r->buf : "", len, NULL, 0);
    }
    r->len = 0;
    data = nl + 1;
    n -= take + 1;
  }
}

static void finish(reader *r) {
  if (r->eof) return;
  r->eof = 1;
  if (r->len > 0 && !r->skipping) deliver(r, r->buf, r->len, NULL, 0);
  deliver(r, NULL, 0, "eof", 0);
  if (r->done) {
    lua_State *L = vdx__main_state(r->lp);
    vdx_waiter *w = r->done;
    r->done = NULL;
    lua_pushboolean(L, 1);
    vdx__waiter_resolve(w, L);
  }
}

static void handle_closed(uv_handle_t *h) {
  reader *r = h->data;
  r->handle_open = 0;
  if (r->closed && !r->fs_busy) { free(r->buf); free(r); }
}

static void alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *b) {
  reader *r = h->data;
  (void)hint;
  *b = uv_buf_init(r->chunk, sizeof r->chunk);
}

static void read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  reader *r = s->data;
  if (n > 0) feed(r, b->base, (size_t)n);
  else if (n < 0) { uv_read_stop(s); finish(r); }
}

static void fs_read_cb(uv_fs_t *req) {
  reader *r = req->data;
  ssize_t n = req->result;
  uv_fs_req_cleanup(req);
  r->fs_busy = 0;
  if (r->closed) { if (!r->handle_open) { free(r->buf); free(r); } return; }
  if (n > 0) {
    r->offset += n;
    feed(r, r->chunk, (size_t)n);
    if (!r->closed) {
      uv_buf_t b = uv_buf_init(r->chunk, sizeof r->chunk);
      r->fs_busy = 1;
      uv_fs_read(vdx__uv_of(r->lp), &r->fsreq, r->fd, &b, 1, r->offset, fs_read_cb);
    }
  } else {
    finish(r);
  }
}

static void reader_teardown(void *data);

static void reader_close(lua_State *L, reader *r) {
  if (r->closed) return;
  r->closed = 1;
  vdx__off_teardown(r->lp, reader_teardown, r);
  if (r->fn_ref != LUA_NOREF) {
    luaL_unref(L, LUA_REGISTRYINDEX, r->fn_ref);
    r->fn_ref = LUA_NOREF;
  }
  if (r->done) {
    vdx_waiter *w = r->done;
    r->done = NULL;
    lua_pushboolean(L, 1);
    vdx__waiter_resolve(w, L);
  }
  if (r->handle_open) uv_close((uv_handle_t *)&r->h, handle_closed);
  else if (!r->fs_busy) { free(r->buf); free(r); }
}

/* reader:close(): stops reading; the callback is called no more. */
static int l_close(lua_State *L) {
  handle *hd = luaL_checkudata(L, 1, READER_MT);
  if (hd->r) { reader_close(L, hd->r); hd->r = NULL; }
  return 0;
}

/* reader:wait(): returns at end of input or when the reader is closed. */
static int l_wait(lua_State *L) {
  handle *hd = luaL_checkudata(L, 1, READER_MT);
  reader *r = hd->r;
  if (r == NULL || r->eof) return 0;
  if (r->done) return vdx__misuse(L, "someone is already waiting on this reader");
  r->done = vdx__waiter_new(r->lp, 0, "reading lines");
  return vdx__await(L, r->done, 0, vdx__k_none);
}

static int l_tostring(lua_State *L) {
  handle *hd = luaL_checkudata(L, 1, READER_MT);
  lua_pushstring(L, hd->r ? "vdx.LineReader" : "vdx.LineReader (closed)");
  return 1;
}

static void reader_teardown(void *data) {
  reader *r = data;
  if (!r->closed) {
    r->closed = 1;
    r->fn_ref = LUA_NOREF;
    if (r->handle_open) uv_close((uv_handle_t *)&r->h, handle_closed);
  }
}

/*
 * vdx.read_lines(fd, fn [, {max_bytes = 16 MiB}]) -> reader.  fn(line) runs
 * as a task for each line (without its newline); fn(nil, "too_long", n) for
 * a line over max_bytes; fn(nil, "eof") once at the end.
 */
int vdx__read_lines(lua_State *L) {
  static const char *const known[] = {"max_bytes", NULL};
  int fd = (int)luaL_checkinteger(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  vdx__check_opts(L, 3, known);
  lua_Integer max = vdx__opt_int(L, 3, "max_bytes", 16 * 1024 * 1024);
  luaL_argcheck(L, max > 0, 3, "max_bytes must be > 0");
  vdx_loop *lp = vdx__loop(L);
  reader *r = calloc(1, sizeof *r);
  if (r == NULL) return luaL_error(L, "out of memory");
  r->lp = lp;
  r->fd = fd;
  r->max = (size_t)max;
  r->h.pipe.data = r;
  r->kind = (int)uv_guess_handle(fd);
  int rc;
  if (r->kind == UV_TTY) {
    rc = uv_tty_init(vdx__uv_of(lp), &r->h.tty, fd, 1);
  } else if (r->kind == UV_NAMED_PIPE || r->kind == UV_TCP) {
    rc = uv_pipe_init(vdx__uv_of(lp), &r->h.pipe, 0);
    if (rc == 0) rc = uv_pipe_open(&r->h.pipe, fd);
  } else if (r->kind == UV_FILE) {
    rc = 0;
  } else {
    rc = UV_EINVAL;
  }
  if (rc != 0) {
    free(r);
    return luaL_error(L, "cannot read lines from fd %d: %s", fd, uv_strerror(rc));
  }
  r->h.pipe.data = r;
  lua_pushvalue(L, 2);
  r->fn_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  if (r->kind == UV_FILE) {
    uv_buf_t b = uv_buf_init(r->chunk, sizeof r->chunk);
    r->fsreq.data = r;
    r->fs_busy = 1;
    uv_fs_read(vdx__uv_of(lp), &r->fsreq, fd, &b, 1, 0, fs_read_cb);
  } else {
    r->handle_open = 1;
    uv_read_start((uv_stream_t *)&r->h, alloc_cb, read_cb);
  }
  vdx__on_teardown(lp, reader_teardown, r);
  handle *hd = lua_newuserdatauv(L, sizeof *hd, 0);
  hd->r = r;
  if (luaL_newmetatable(L, READER_MT)) {
    static const luaL_Reg m[] = {{"close", l_close}, {"wait", l_wait}, {NULL, NULL}};
    luaL_newlib(L, m);
    vdx__error_wrap(L, -1, "lineReader", ":");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_tostring);
    lua_setfield(L, -2, "__tostring");
  }
  lua_setmetatable(L, -2);
  return 1;
}
