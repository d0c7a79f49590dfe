/*
 * loop.c -- the event loop of one Lua state: waiters, the ready queue that
 * resumes tasks, blocking waits for the main chunk, and teardown.
 *
 * A waiter completes exactly once.  If a task waits on it, the task is put
 * on the ready queue and resumed from an idle handle on the next loop turn,
 * never from inside the code that completed the waiter.  If the main state
 * waits on it outside the loop, the loop runs until the waiter completes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "task.h"

#define LOOP_KEY "vdx.loop"     /* registry: the loop userdata */
#define LOOP_MT "vdx.Loop"      /* its metatable */

struct vdx_waiter {
  vdx_loop *lp;
  uv_timer_t timer;
  int has_timer;
  int done;          /* completed: value_ref holds the value or error */
  int ok;
  int value_ref;
  int abandoned;     /* nobody will read the value: free on completion */
  int resolve_on_timeout;
  int timeout_ms;
  char *what;
  vdx_task *task;    /* the task waiting, if any */
  vdx_then_cb then;  /* or a callback that consumes the value */
  void *then_data;
  vdx_waiter_cb on_done;
  void *on_done_data;
  vdx_waiter *prev, *next;  /* live waiters of the loop */
};

typedef struct teardown {
  vdx_teardown_fn fn;
  void *data;
  struct teardown *next;
} teardown;

struct vdx_loop {
  uv_loop_t uv;
  lua_State *L;
  uv_idle_t idle;
  vdx_task *ready_head, *ready_tail;
  int depth;                /* > 0 while inside uv_run */
  int tearing;              /* teardown hooks are running: resume nothing */
  vdx_waiter *waiters;      /* live waiters */
  teardown *teardowns;
  int closed;
  int touched;              /* vdx was called from outside the loop since
                             * the last step: watchers may be unregistered */
  void *pollable;           /* poll.c's state, once a host polls vdx */
  int live_tasks;           /* task.c: tasks spawned and not yet ended */
  void *ws;                 /* ws.c's lws context, once made */
};

/* ------------------------------------------------------------- access */

vdx_loop *vdx__loop_quiet(lua_State *L) {
  vdx_loop *lp;
  lua_getfield(L, LUA_REGISTRYINDEX, LOOP_KEY);
  lp = *(vdx_loop **)luaL_checkudata(L, -1, LOOP_MT);
  lua_pop(L, 1);
  if (lp == NULL || lp->closed) luaL_error(L, "vdx: the event loop is closed");
  return lp;
}

/* Every binding reaches the loop through here, so a call from outside the
 * loop (a host polling vdx, a plain script) marks it: the host must step
 * once before it blocks, or libuv would not yet watch what the call
 * started.  Its clock is refreshed too: the host may have spent a while
 * away, and deadlines count from uv_now. */
vdx_loop *vdx__loop(lua_State *L) {
  vdx_loop *lp = vdx__loop_quiet(L);
  if (lp->depth == 0) {
    lp->touched = 1;
    uv_update_time(&lp->uv);
  }
  return lp;
}

uv_loop_t *vdx__uv(lua_State *L) { return &vdx__loop(L)->uv; }
uv_loop_t *vdx__uv_of(vdx_loop *lp) { return &lp->uv; }
lua_State *vdx__main_state(vdx_loop *lp) { return lp->L; }
int vdx__loop_depth(vdx_loop *lp) { return lp->depth; }
int vdx__loop_touched(vdx_loop *lp) { return lp->touched; }
void **vdx__loop_pollable(vdx_loop *lp) { return &lp->pollable; }
int *vdx__loop_live_tasks(vdx_loop *lp) { return &lp->live_tasks; }
void **vdx__loop_ws(vdx_loop *lp) { return &lp->ws; }

/* One turn of the loop for a host that polls it: runs what is due and
 * never blocks.  Returns whether the loop still has work. */
int vdx__loop_step(vdx_loop *lp) {
  lp->depth++;
  lp->touched = 0;
  int alive = uv_run(&lp->uv, UV_RUN_NOWAIT);
  lp->depth--;
  return alive || lp->ready_head != NULL;
}

/* ------------------------------------------------------ protected call */

static int traceback(lua_State *L) {
  if (lua_type(L, 1) == LUA_TTABLE) {
    /* A typed error: keep the object, attach the traceback once. */
    lua_getfield(L, 1, "traceback");
    if (lua_isnil(L, -1)) {
      luaL_traceback(L, L, NULL, 1);
      lua_setfield(L, 1, "traceback");
    }
    lua_settop(L, 1);
    return 1;
  }
  const char *msg = luaL_tolstring(L, 1, NULL);
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/* Writes the error at the top of L to stderr, with its traceback. */
void vdx__report_error(lua_State *L, const char *what) {
  const char *msg = luaL_tolstring(L, -1, NULL);
  fprintf(stderr, "vdx: error in %s: %s\n", what, msg);
  lua_pop(L, 1);
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_getfield(L, -1, "traceback");
    if (lua_isstring(L, -1)) fprintf(stderr, "%s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  fflush(stderr);
}

int vdx__pcall_report(lua_State *L, int nargs, const char *what) {
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, traceback);
  lua_insert(L, base);
  int st = lua_pcall(L, nargs, 0, base);
  if (st != LUA_OK) {
    vdx__report_error(L, what);
    lua_pop(L, 1);
  }
  lua_remove(L, base);
  return st == LUA_OK;
}

/* ------------------------------------------------------------ waiters */

static void waiter_free_cb(uv_handle_t *h) {
  vdx_waiter *w = h->data;
  free(w->what);
  free(w);
}

static void waiter_free(vdx_waiter *w) {
  vdx_loop *lp = w->lp;
  if (w->prev) w->prev->next = w->next; else lp->waiters = w->next;
  if (w->next) w->next->prev = w->prev;
  w->prev = w->next = NULL;
  if (w->value_ref != LUA_NOREF && !lp->closed) {
    luaL_unref(lp->L, LUA_REGISTRYINDEX, w->value_ref);
    w->value_ref = LUA_NOREF;
  }
  if (w->has_timer) {
    w->timer.data = w;
    uv_close((uv_handle_t *)&w->timer, waiter_free_cb);
  } else {
    free(w->what);
    free(w);
  }
}

static void timeout_cb(uv_timer_t *t);

vdx_waiter *vdx__waiter_new(vdx_loop *lp, int timeout_ms, const char *what) {
  vdx_waiter *w = calloc(1, sizeof *w);
  if (w == NULL) return NULL;
  w->lp = lp;
  w->value_ref = LUA_NOREF;
  w->what = what ? strdup(what) : NULL;
  w->timeout_ms = timeout_ms;
  w->next = lp->waiters;
  if (lp->waiters) lp->waiters->prev = w;
  lp->waiters = w;
  if (timeout_ms > 0) {
    /* libuv caches the time at the start of a loop turn; after the host
     * spent a while outside the loop (a plain lua5.4 script between
     * calls), a stale clock would make this timeout fire at once. */
    uv_update_time(&lp->uv);
    uv_timer_init(&lp->uv, &w->timer);
    w->timer.data = w;
    w->has_timer = 1;
    uv_timer_start(&w->timer, timeout_cb, (uint64_t)timeout_ms, 0);
  }
  return w;
}

/* A sleep: a waiter whose timer resolves it instead of rejecting it. */
vdx_waiter *vdx__waiter_sleep(vdx_loop *lp, int ms) {
  vdx_waiter *w = vdx__waiter_new(lp, ms > 0 ? ms : 1, "sleep");
  if (w) w->resolve_on_timeout = 1;
  return w;
}

void vdx__waiter_on_done(vdx_waiter *w, vdx_waiter_cb cb, void *data) {
  w->on_done = cb;
  w->on_done_data = data;
}

int vdx__waiter_done(const vdx_waiter *w) { return w->done; }

int vdx__loop_closed(vdx_loop *lp) { return lp->closed; }

vdx_loop *vdx__waiter_loop(vdx_waiter *w) { return w->lp; }

void vdx__waiter_abandon(vdx_waiter *w) {
  if (w->done) waiter_free(w);
  else w->abandoned = 1;
}

static void ready_push(vdx_loop *lp, vdx_task *t);

typedef struct then_call { vdx_waiter *w; } then_call;

/* stack: lightuserdata(then_call) -> ; the callback in a protected call. */
static int then_protected(lua_State *L) {
  vdx_waiter *w = ((then_call *)lua_touserdata(L, 1))->w;
  lua_settop(L, 0);
  lua_rawgeti(L, LUA_REGISTRYINDEX, w->value_ref);
  w->then(w->then_data, L, w->ok);
  return 0;
}

/* Runs w's then-callback with its value; errors are reported, not raised. */
static void run_then(vdx_waiter *w, lua_State *L) {
  then_call tc = {w};
  lua_State *co = lua_newthread(L);   /* a fresh stack for the callback */
  lua_pushcfunction(co, then_protected);
  lua_pushlightuserdata(co, &tc);
  vdx__pcall_report(co, 1, w->what ? w->what : "a callback");
  lua_pop(L, 1);
}

void vdx__waiter_then(vdx_waiter *w, vdx_then_cb cb, void *data) {
  w->then = cb;
  w->then_data = data;
}

static void complete(vdx_waiter *w, lua_State *L, int ok) {
  w->value_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  w->ok = ok;
  w->done = 1;
  if (w->has_timer) uv_timer_stop(&w->timer);
  if (w->on_done) {
    vdx_waiter_cb cb = w->on_done;
    w->on_done = NULL;
    cb(w, w->on_done_data);
  }
  if (w->then) {
    run_then(w, L);
    waiter_free(w);
  } else if (w->abandoned) {
    waiter_free(w);
  } else if (w->task) {
    vdx__task_wake(w->task, w);
    ready_push(w->lp, w->task);
  }
  /* Otherwise the blocking main state notices w->done in its loop. */
}

void vdx__waiter_resolve(vdx_waiter *w, lua_State *L) {
  if (w->done) { lua_pop(L, 1); return; }
  complete(w, L, 1);
}

void vdx__waiter_reject(vdx_waiter *w, lua_State *L) {
  if (w->done) { lua_pop(L, 1); return; }
  complete(w, L, 0);
}

static void timeout_cb(uv_timer_t *t) {
  vdx_waiter *w = t->data;
  lua_State *L = w->lp->L;
  if (w->done || w->lp->tearing) return;
  if (w->resolve_on_timeout) {
    lua_pushboolean(L, 1);
    vdx__waiter_resolve(w, L);
    return;
  }
  vdx__error_push(L, "Timeout", "%s timed out after %d ms",
                  w->what ? w->what : "wait", w->timeout_ms);
  lua_pushinteger(L, w->timeout_ms);
  lua_setfield(L, -2, "timeout_ms");
  vdx__waiter_reject(w, L);
}

/* Pushes the waiter's value on L and frees the waiter; returns its ok flag. */
int vdx__waiter_take(vdx_waiter *w, lua_State *L) {
  int ok = w->ok;
  lua_rawgeti(L, LUA_REGISTRYINDEX, w->value_ref);
  waiter_free(w);
  return ok;
}

/* ---------------------------------------------------------- ready queue */

static void idle_cb(uv_idle_t *h) {
  vdx_loop *lp = h->data;
  vdx_task *t = lp->ready_head;
  lp->ready_head = lp->ready_tail = NULL;
  uv_idle_stop(&lp->idle);
  while (t) {
    vdx_task *next = vdx__task_next(t);
    vdx__task_set_next(t, NULL);
    vdx__task_resume(t);
    t = next;
  }
}

static void ready_push(vdx_loop *lp, vdx_task *t) {
  if (lp->tearing || vdx__task_queued(t)) return;
  vdx__task_mark_queued(t);
  if (lp->ready_tail) vdx__task_set_next(lp->ready_tail, t);
  else lp->ready_head = t;
  lp->ready_tail = t;
  uv_idle_start(&lp->idle, idle_cb);
}

void vdx__ready(vdx_loop *lp, vdx_task *t) { ready_push(lp, t); }

/* ------------------------------------------------------------- await */

static int await_k(lua_State *L, int status, lua_KContext ctx) {
  vdx_task *t = (vdx_task *)ctx;
  lua_KFunction k;
  lua_KContext kctx;
  (void)status;
  vdx__task_continuation(t, &k, &kctx);
  /* stack: ..., value, ok */
  int ok = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (!ok) return lua_error(L);
  return k(L, LUA_YIELD, kctx);
}

/* Runs the loop until w completes; for the main state outside the loop. */
static void run_until(lua_State *L, vdx_loop *lp, vdx_waiter *w) {
  lp->depth++;
  while (!w->done) {
    int alive = uv_run(&lp->uv, UV_RUN_ONCE);
    if (!alive && !w->done && lp->ready_head == NULL) {
      lp->depth--;
      w->abandoned = 1;
      luaL_error(L, "vdx: nothing left that could complete %s (deadlock)",
                 w->what ? w->what : "the wait");
    }
  }
  lp->depth--;
}

int vdx__k_value(lua_State *L, int status, lua_KContext ctx) {
  (void)L; (void)status; (void)ctx;
  return 1;
}

int vdx__k_true(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  lua_pushboolean(L, 1);
  return 1;
}

int vdx__k_none(lua_State *L, int status, lua_KContext ctx) {
  (void)L; (void)status; (void)ctx;
  return 0;
}

int vdx__await(lua_State *L, vdx_waiter *w, lua_KContext ctx,
               lua_KFunction k) {
  vdx_loop *lp = w->lp;
  luaL_checkstack(L, 8, "vdx: await");
  vdx_task *t = vdx__task_of(L);
  if (w->done) {
    if (!vdx__waiter_take(w, L)) return lua_error(L);
    return k(L, LUA_OK, ctx);
  }
  if (t != NULL && lua_isyieldable(L)) {
    w->task = t;
    vdx__task_set_continuation(t, w, k, ctx);
    return lua_yieldk(L, 0, (lua_KContext)t, await_k);
  }
  if (lp->depth == 0 && L != lp->L && lua_isyieldable(L))
    return vdx__host_wait(L, w, ctx, k);  /* a coroutine of a host */
  if (lp->depth > 0 || L != lp->L) {
    w->abandoned = 1;
    return vdx__misuse(L, "vdx: cannot wait for %s here: call it from a task "
                      "(vdx.spawn) or from the main chunk, not from a plain "
                      "coroutine or a callback", w->what ? w->what : "this");
  }
  run_until(L, lp, w);
  if (!vdx__waiter_take(w, L)) return lua_error(L);
  return k(L, LUA_OK, ctx);
}

/* ---------------------------------------------------------- teardown */

void vdx__on_teardown(vdx_loop *lp, vdx_teardown_fn fn, void *data) {
  teardown *td = malloc(sizeof *td);
  if (td == NULL) return;
  td->fn = fn;
  td->data = data;
  td->next = lp->teardowns;
  lp->teardowns = td;
}

void vdx__off_teardown(vdx_loop *lp, vdx_teardown_fn fn, void *data) {
  teardown **pp = &lp->teardowns;
  while (*pp) {
    if ((*pp)->fn == fn && (*pp)->data == data) {
      teardown *td = *pp;
      *pp = td->next;
      free(td);
      return;
    }
    pp = &(*pp)->next;
  }
}

static void close_any(uv_handle_t *h, void *arg) {
  (void)arg;
  if (!uv_is_closing(h)) uv_close(h, NULL);
}

static int loop_gc(lua_State *L) {
  vdx_loop **pp = luaL_checkudata(L, 1, LOOP_MT);
  vdx_loop *lp = *pp;
  if (lp == NULL) return 0;
  *pp = NULL;
  /* Hooks may turn the loop (libwebsockets closes over several turns):
   * from here on no task is resumed and no timeout fires into Lua. */
  lp->tearing = 1;
  uv_idle_stop(&lp->idle);
  while (lp->teardowns) {
    teardown *td = lp->teardowns;
    lp->teardowns = td->next;
    td->fn(td->data);
    free(td);
  }
  lp->closed = 1;
  while (lp->waiters) {
    vdx_waiter *w = lp->waiters;
    w->value_ref = LUA_NOREF;
    waiter_free(w);
  }
  uv_close((uv_handle_t *)&lp->idle, NULL);
  uv_run(&lp->uv, UV_RUN_NOWAIT);
  uv_walk(&lp->uv, close_any, NULL);
  uv_run(&lp->uv, UV_RUN_DEFAULT);
  if (uv_loop_close(&lp->uv) != 0)
    fprintf(stderr, "vdx: event loop closed with handles still open\n");
  free(lp);
  return 0;
}

/* Creates the loop of L (once) and stores it in the registry. */
void vdx__loop_open(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, LOOP_KEY);
  int exists = !lua_isnil(L, -1);
  lua_pop(L, 1);
  if (exists) return;
  vdx_loop *lp = calloc(1, sizeof *lp);
  if (lp == NULL) luaL_error(L, "vdx: out of memory");
  if (uv_loop_init(&lp->uv) != 0) {
    free(lp);
    luaL_error(L, "vdx: cannot create the event loop");
  }
  lua_State *main;
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  main = lua_tothread(L, -1);
  lua_pop(L, 1);
  lp->L = main;
  uv_idle_init(&lp->uv, &lp->idle);
  lp->idle.data = lp;
  vdx_loop **pp = lua_newuserdatauv(L, sizeof *pp, 0);
  *pp = lp;
  luaL_newmetatable(L, LOOP_MT);
  lua_pushcfunction(L, loop_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, LOOP_KEY);
}
