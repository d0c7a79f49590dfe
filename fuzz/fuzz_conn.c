/*
 * fuzz_conn.c -- libFuzzer target for the CDP message framing and routing
 * of the C core: the pipe transport's read path (src/cdp/pipe.c: NUL-delimited
 * messages arriving in arbitrary chunks, buffer growth and compaction) and
 * the routing of each decoded message (src/cdp/conn.c, vdx__conn_receive:
 * replies to pending calls on the browser and on a session, CDP errors,
 * events to C observers and to Lua handlers, garbage).
 *
 * pipe.c is included here so the harness can drive its static read path
 * with a fake stream instead of a browser; every other core object is
 * linked as built (with the sanitizers).  Input layout: byte 0 chooses the
 * chunk sizes the bytes arrive in, byte 1 how many calls are pending and
 * whether the stream ends with EOF; the rest is the byte stream.
 *
 * Guarantees checked: no crash, no sanitizer report, no leak; every
 * pending call completes exactly once (reply, error or BrowserClosed);
 * the loop ends with nothing of the connection left behind.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lualib.h>
#include <lua-cjson.h>

#include "../src/cdp/pipe.c"
#include "../src/core/task.h"

static lua_State *L;
static int handler_ref = LUA_NOREF;
static int completed;
static int events_seen;

static int fake_send(vdx_transport *t, const char *data, size_t len) {
  (void)t; (void)data; (void)len;
  return 0;
}

/* The fake transport's close: no handles to close, nothing to free yet. */
static void fake_close(vdx_transport *t) {
  pipe_transport *p = (pipe_transport *)t;
  p->closing = 1;
  p->base.conn = NULL;
}

static int errors_seen;

static void on_done(void *data, lua_State *Ls, int ok) {
  (void)data; (void)Ls;
  completed++;
  if (!ok) errors_seen++;
}

static void observer_cb(lua_State *Ls, void *data, const char *sid,
                        const char *method, int params_idx) {
  (void)data; (void)sid; (void)method;
  /* Touch the params the way the frame tracker does. */
  lua_getfield(Ls, params_idx, "frameId");
  lua_pop(Ls, 1);
  events_seen++;
}

static void setup(void) {
  L = luaL_newstate();
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_cjson);
  lua_setfield(L, -2, "cjson");
  lua_pop(L, 1);
  /* The C primitives alone: their JSON codec is the copy vdx.so embeds. */
  luaL_requiref(L, "vdx.core", luaopen_vdx_core, 1);
  lua_pop(L, 1);
  luaL_dostring(L, "return function(...) local n = select('#', ...) end");
  handler_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

static void run_loop(void) {
  for (int i = 0; i < 4; i++) uv_run(vdx__uv(L), UV_RUN_NOWAIT);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (L == NULL) setup();
  if (size < 2) return 0;
  unsigned chunk_mode = data[0], flags = data[1];
  data += 2;
  size -= 2;
  int top = lua_gettop(L);

  pipe_transport *p = calloc(1, sizeof *p);
  uv_pipe_t *fake = calloc(1, sizeof *fake);
  assert(p && fake);
  p->base.send = fake_send;
  p->base.close = fake_close;
  fake->data = p;
  vdx_conn *c = vdx__conn_new(L, &p->base, 60000);
  assert(c);

  /* Pending calls with ids 1..n: on the browser and on session "S1". */
  int npending = 1 + (flags & 7);
  completed = 0;
  for (int i = 0; i < npending; i++) {
    lua_newtable(L);
    lua_pushinteger(L, i);
    lua_setfield(L, -2, "n");
    vdx_waiter *w = vdx__conn_call(L, c, (i & 1) ? "S1" : NULL,
                                   "Fuzz.method", -1, 60000);
    lua_pop(L, 1);
    assert(w != NULL);
    vdx__waiter_then(w, on_done, NULL);
  }
  vdx__conn_observe(c, "", observer_cb, NULL);
  vdx__conn_observe(c, "S1", observer_cb, NULL);
  lua_rawgeti(L, LUA_REGISTRYINDEX, handler_ref);
  vdx__conn_on(L, c, "", "Target.attachedToTarget", -1);
  vdx__conn_on(L, c, "S1", "*", -1);
  lua_pop(L, 1);

  /* Feed the bytes in chunks of the chosen shape. */
  size_t off = 0;
  unsigned k = 0;
  while (off < size && !p->closing) {
    size_t want;
    switch (chunk_mode & 3) {
    case 0: want = size - off; break;                       /* all at once */
    case 1: want = 1; break;                                /* byte by byte */
    case 2: want = 1 + ((chunk_mode >> 2) + k * 7) % 61; break;
    default: want = 1 + (data[off] % 200); break;
    }
    k++;
    if (want > size - off) want = size - off;
    uv_buf_t b;
    alloc_cb((uv_handle_t *)fake, 65536, &b);
    if (b.base == NULL) break;
    if (want > b.len) want = b.len;
    memcpy(b.base, data + off, want);
    read_cb((uv_stream_t *)fake, (ssize_t)want, &b);
    off += want;
  }
  if ((flags & 8) && !p->closing) {
    uv_buf_t b = uv_buf_init(NULL, 0);
    read_cb((uv_stream_t *)fake, UV_EOF, &b);
  }
  run_loop();

  vdx__conn_unobserve(c, "", NULL);
  vdx__conn_unobserve(c, "S1", NULL);
  vdx__conn_free(c);    /* fails what is still pending with BrowserClosed */
  run_loop();
  if (completed != npending) {
    fprintf(stderr, "fuzz_conn: %d of %d calls completed\n", completed, npending);
    abort();
  }
  free(p->buf);
  free(p);
  free(fake);
  lua_settop(L, top);
  static unsigned runs;
  if (++runs % 64 == 0) lua_gc(L, LUA_GCCOLLECT);
  return 0;
}
