/*
 * fsread.c -- vdx.read_file: reads a whole regular file through libuv fs
 * requests, so a slow disk, a FIFO or a device never blocks the loop.
 *
 * Guarantees: the file is opened with O_NONBLOCK (opening a FIFO does not
 * wait for a writer) and checked with fstat before any byte is read; only
 * a regular file of at most max_bytes is read.  Any other outcome is a
 * failure the world caused, returned as nil, message, code, where code is
 * "NotRegular", "TooLarge", "Timeout" or the libuv error name ("ENOENT").
 * A read still running when the timeout fires is abandoned: its fs
 * requests finish on their own and close the file.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vdx.h"

#define DEFAULT_MAX (16 * 1024 * 1024)
#define DEFAULT_TIMEOUT 10000

typedef struct freq {
  uv_fs_t fs;
  uv_timer_t timer;
  vdx_loop *lp;
  vdx_waiter *w;       /* NULL once the waiter completed */
  int fs_done, timer_closed;
  int one_link;        /* refuse a file with more than one hard link */
  uint64_t timeout_ms;
  uv_file fd;
  char *buf;
  size_t len, cap, max;
  const char *fail_code;
  char fail_msg[200];
} freq;

static void finish(freq *r);
static void answer(freq *r);
static void fail(freq *r, const char *code, const char *msg);

/* The waiter is gone (its task was cancelled): stop caring. */
static void on_waiter_done(vdx_waiter *w, void *data) {
  (void)w;
  ((freq *)data)->w = NULL;
}

static void maybe_free(freq *r) {
  if (!r->fs_done || !r->timer_closed) return;
  free(r->buf);
  free(r);
}

static void timer_close_cb(uv_handle_t *h) {
  freq *r = h->data;
  r->timer_closed = 1;
  maybe_free(r);
}

/* The read took too long: answer Timeout now; the fs requests finish on
 * their own later and only close the file. */
static void timeout_cb(uv_timer_t *t) {
  freq *r = t->data;
  char msg[120];
  snprintf(msg, sizeof msg, "the file could not be read within %llu ms",
           (unsigned long long)r->timeout_ms);
  fail(r, "Timeout", msg);
  answer(r);
}

static void fail(freq *r, const char *code, const char *msg) {
  if (r->fail_code == NULL) {
    r->fail_code = code;
    snprintf(r->fail_msg, sizeof r->fail_msg, "%s", msg);
  }
}

static void fail_uv(freq *r, const char *what, int status) {
  char msg[160];
  snprintf(msg, sizeof msg, "cannot %s the file: %s", what, uv_strerror(status));
  fail(r, uv_err_name(status), msg);
}

static void close_cb(uv_fs_t *req) {
  freq *r = req->data;
  uv_fs_req_cleanup(req);
  finish(r);
}

/* Closes the file (when open), then completes the waiter. */
static void close_file(freq *r) {
  if (r->fd >= 0) {
    uv_file fd = r->fd;
    r->fd = -1;
    if (uv_fs_close(r->fs.loop, &r->fs, fd, close_cb) == 0) return;
  }
  finish(r);
}

static void read_cb(uv_fs_t *req) {
  freq *r = req->data;
  ssize_t n = req->result;
  uv_fs_req_cleanup(req);
  if (n < 0) { fail_uv(r, "read", (int)n); close_file(r); return; }
  r->len += (size_t)n;
  if (r->len > r->max) {
    fail(r, "TooLarge", "the file grew over the size limit while it was read");
    close_file(r);
    return;
  }
  if (n == 0 || r->w == NULL) { close_file(r); return; }
  if (r->len == r->cap) {
    size_t cap = r->cap * 2 > r->max + 1 ? r->max + 1 : r->cap * 2;
    char *nb = realloc(r->buf, cap);
    if (nb == NULL) { fail(r, "ENOMEM", "out of memory"); close_file(r); return; }
    r->buf = nb;
    r->cap = cap;
  }
  uv_buf_t b = uv_buf_init(r->buf + r->len, (unsigned)(r->cap - r->len));
  int rc = uv_fs_read(req->loop, req, r->fd, &b, 1, (int64_t)r->len, read_cb);
  if (rc < 0) { fail_uv(r, "read", rc); close_file(r); }
}

static void fstat_cb(uv_fs_t *req) {
  freq *r = req->data;
  int status = (int)req->result;
  uv_stat_t st = req->statbuf;
  uv_fs_req_cleanup(req);
  if (status < 0) { fail_uv(r, "inspect", status); close_file(r); return; }
  if (!S_ISREG(st.st_mode)) {
    fail(r, "NotRegular", "not a regular file (a FIFO, socket or device cannot be read)");
    close_file(r);
    return;
  }
  if (r->one_link && st.st_nlink != 1) {
    fail(r, "HardLink", "the file has more than one hard link (a link to a file "
         "elsewhere is refused)");
    close_file(r);
    return;
  }
  if (st.st_size > (uint64_t)r->max) {
    char msg[160];
    snprintf(msg, sizeof msg, "the file has %llu bytes, over the limit of %zu bytes",
             (unsigned long long)st.st_size, r->max);
    fail(r, "TooLarge", msg);
    close_file(r);
    return;
  }
  r->cap = (size_t)st.st_size + 1;
  if (r->cap < 4096) r->cap = 4096;
  if (r->cap > r->max + 1) r->cap = r->max + 1;
  r->buf = malloc(r->cap);
  if (r->buf == NULL) { fail(r, "ENOMEM", "out of memory"); close_file(r); return; }
  uv_buf_t b = uv_buf_init(r->buf, (unsigned)r->cap);
  int rc = uv_fs_read(req->loop, req, r->fd, &b, 1, 0, read_cb);
  if (rc < 0) { fail_uv(r, "read", rc); close_file(r); }
}

static void open_cb(uv_fs_t *req) {
  freq *r = req->data;
  int fd = (int)req->result;
  uv_fs_req_cleanup(req);
  if (fd < 0) { fail_uv(r, "open", fd); finish(r); return; }
  r->fd = fd;
  if (r->w == NULL) { close_file(r); return; }
  int rc = uv_fs_fstat(req->loop, req, fd, fstat_cb);
  if (rc < 0) { fail_uv(r, "inspect", rc); close_file(r); }
}

/* Resolves the waiter (if still wanted) with the text or a failure
 * table, and stops the timer. */
static void answer(freq *r) {
  if (!uv_is_closing((uv_handle_t *)&r->timer))
    uv_close((uv_handle_t *)&r->timer, timer_close_cb);
  if (r->w != NULL && !vdx__loop_closed(r->lp)) {
    vdx_waiter *w = r->w;
    vdx__waiter_on_done(w, NULL, NULL);
    r->w = NULL;
    lua_State *L = vdx__main_state(vdx__waiter_loop(w));
    if (r->fail_code) {
      lua_createtable(L, 0, 2);
      lua_pushstring(L, r->fail_msg);
      lua_setfield(L, -2, "message");
      lua_pushstring(L, r->fail_code);
      lua_setfield(L, -2, "code");
    } else {
      lua_pushlstring(L, r->buf ? r->buf : "", r->len);
    }
    vdx__waiter_resolve(w, L);
  }
  r->w = NULL;
}

/* The fs requests are over: answer (unless the timer did) and free. */
static void finish(freq *r) {
  answer(r);
  r->fs_done = 1;
  maybe_free(r);
}

/* stack: … value -> text | nil, message, code */
static int k_result(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  (void)ctx;
  if (lua_type(L, -1) == LUA_TSTRING) return 1;
  if (lua_type(L, -1) != LUA_TTABLE) return luaL_error(L, "vdx.read_file: bad result");
  int t = lua_gettop(L);
  lua_pushnil(L);
  lua_getfield(L, t, "message");
  lua_getfield(L, t, "code");
  return 3;
}

/* A request with its waiter and timer started; NULL when out of memory. */
static freq *start(lua_State *L, lua_Integer max, lua_Integer timeout) {
  vdx_loop *lp = vdx__loop(L);
  freq *r = calloc(1, sizeof *r);
  if (r == NULL) return NULL;
  r->fd = -1;
  r->max = (size_t)max;
  r->fs.data = r;
  vdx_waiter *w = vdx__waiter_new(lp, 0, "a file read");
  if (w == NULL) { free(r); return NULL; }
  r->w = w;
  r->lp = lp;
  r->timeout_ms = (uint64_t)timeout;
  uv_timer_init(vdx__uv_of(lp), &r->timer);
  r->timer.data = r;
  uv_timer_start(&r->timer, timeout_cb, r->timeout_ms, 0);
  vdx__waiter_on_done(w, on_waiter_done, r);
  return r;
}

/* Checks the read options at idx (max_bytes, timeout). */
void vdx__read_opts(lua_State *L, int idx, lua_Integer *max, lua_Integer *timeout) {
  *max = vdx__opt_int(L, idx, "max_bytes", DEFAULT_MAX);
  *timeout = vdx__opt_int(L, idx, "timeout", DEFAULT_TIMEOUT);
  luaL_argcheck(L, *max >= 0 && *max < (lua_Integer)1 << 40, idx, "max_bytes out of range");
  luaL_argcheck(L, *timeout > 0 && *timeout <= 600000, idx, "timeout must be 1..600000 ms");
}

/*
 * Reads the file open at fd (which it takes over and closes) as
 * vdx.read_file does from its fstat on; with one_link, a file with more
 * than one hard link fails with code "HardLink".
 * stack: -> text | nil, message, code
 */
int vdx__read_fd(lua_State *L, int fd, lua_Integer max, lua_Integer timeout,
                 int one_link) {
  freq *r = start(L, max, timeout);
  if (r == NULL) { close(fd); return luaL_error(L, "out of memory"); }
  vdx_waiter *w = r->w;
  r->fd = fd;
  r->one_link = one_link;
  int rc = uv_fs_fstat(vdx__uv_of(r->lp), &r->fs, fd, fstat_cb);
  if (rc < 0) {
    uv_fs_req_cleanup(&r->fs);
    fail_uv(r, "inspect", rc);
    close_file(r);
  }
  lua_settop(L, 0);
  return vdx__await(L, w, 0, k_result);
}

/*
 * vdx.read_file(path[, {max_bytes=, timeout=}]) -> text
 *   | nil, message, code
 * Reads the regular file at path without blocking the loop.
 */
int vdx__read_file(lua_State *L) {
  static const char *const known[] = {"max_bytes", "timeout", NULL};
  const char *path = luaL_checkstring(L, 1);
  vdx__check_opts(L, 2, known);
  lua_Integer max, timeout;
  vdx__read_opts(L, 2, &max, &timeout);
  freq *r = start(L, max, timeout);
  if (r == NULL) return luaL_error(L, "out of memory");
  vdx_waiter *w = r->w;
  int rc = uv_fs_open(vdx__uv_of(r->lp), &r->fs, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0, open_cb);
  if (rc < 0) {
    /* Nothing started: complete the waiter at once with the failure. */
    uv_fs_req_cleanup(&r->fs);
    fail_uv(r, "open", rc);
    finish(r);
  }
  lua_settop(L, 0);
  return vdx__await(L, w, 0, k_result);
}
