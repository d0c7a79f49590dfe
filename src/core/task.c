/*
 * task.c -- vdx.Task: vdx.spawn, vdx.wait, vdx.sleep and vdx.run.
 *
 * A task is a coroutine anchored in the registry from spawn until it ends.
 * It starts on the next loop turn.  Its results (or its error, with a
 * traceback) are kept for vdx.wait; an error nobody waits for is reported
 * on stderr when it happens, so no failure is silent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "task.h"

#define TASKS_KEY "vdx.tasks" /* thread -> lightuserdata(task) */

enum { T_NEW, T_READY, T_RUNNING, T_WAITING, T_DONE };

typedef struct joiner {
  vdx_waiter *w;
  struct joiner *next;
} joiner;

struct vdx_task {
  vdx_loop *lp;
  lua_State *co;
  int state;
  int failed;
  int nargs;
  int self_ref;     /* anchors the userdata (and so the thread) until done */
  int result_ref;   /* results table {n=…} or the error value */
  int queued;
  vdx_task *next;
  vdx_waiter *waiting;
  vdx_waiter *wake;
  lua_KFunction k;
  lua_KContext kctx;
  joiner *joiners;
};

/* ------------------------------------------------------------ plumbing */

vdx_task *vdx__task_next(vdx_task *t) { return t->next; }
void vdx__task_set_next(vdx_task *t, vdx_task *n) { t->next = n; }
int vdx__task_queued(vdx_task *t) { return t->queued; }
void vdx__task_mark_queued(vdx_task *t) { t->queued = 1; }

vdx_task *vdx__task_of(lua_State *L) {
  vdx_task *t;
  lua_getfield(L, LUA_REGISTRYINDEX, TASKS_KEY);
  if (lua_isnil(L, -1)) { lua_pop(L, 1); return NULL; }
  lua_pushthread(L);
  lua_rawget(L, -2);
  t = lua_touserdata(L, -1);
  lua_pop(L, 2);
  return t;
}

static void map_thread(lua_State *L, lua_State *co, vdx_task *t) {
  lua_getfield(L, LUA_REGISTRYINDEX, TASKS_KEY);
  lua_pushthread(co);
  lua_xmove(co, L, 1);
  if (t) lua_pushlightuserdata(L, t); else lua_pushnil(L);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void vdx__task_set_continuation(vdx_task *t, vdx_waiter *w, lua_KFunction k,
                                lua_KContext ctx) {
  t->waiting = w;
  t->k = k;
  t->kctx = ctx;
  t->state = T_WAITING;
}

void vdx__task_continuation(vdx_task *t, lua_KFunction *k, lua_KContext *ctx) {
  *k = t->k;
  *ctx = t->kctx;
  t->waiting = NULL;
}

void vdx__task_wake(vdx_task *t, vdx_waiter *w) {
  t->wake = w;
  t->state = T_READY;
}

/* ------------------------------------------------------------- finish */

static void joiners_settle(vdx_task *t, lua_State *L) {
  joiner *j = t->joiners;
  t->joiners = NULL;
  while (j) {
    joiner *next = j->next;
    vdx_waiter *w = j->w;
    free(j);
    vdx__waiter_on_done(w, NULL, NULL);
    lua_rawgeti(L, LUA_REGISTRYINDEX, t->result_ref);
    if (t->failed) vdx__waiter_reject(w, L); else vdx__waiter_resolve(w, L);
    j = next;
  }
}

static void finish(vdx_task *t, lua_State *L, int failed) {
  /* stack of L: the results table or the error value */
  int had_joiners = t->joiners != NULL;
  t->failed = failed;
  t->state = T_DONE;
  t->result_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  map_thread(L, t->co, NULL);
  (*vdx__loop_live_tasks(t->lp))--;
  if (failed && !had_joiners) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, t->result_ref);
    vdx__report_error(L, "a task nobody waited for");
    lua_pop(L, 1);
  }
  joiners_settle(t, L);
  /* Drop the coroutine: its results live on in result_ref. */
  lua_rawgeti(L, LUA_REGISTRYINDEX, t->self_ref);
  lua_pushnil(L);
  lua_setiuservalue(L, -2, 1);
  lua_pop(L, 1);
  t->co = NULL;
  luaL_unref(L, LUA_REGISTRYINDEX, t->self_ref);
  t->self_ref = LUA_NOREF;
}

/* Turns the error at the top of co into the value kept for vdx.wait. */
static void error_with_traceback(lua_State *L, lua_State *co) {
  if (lua_type(co, -1) == LUA_TTABLE) {
    lua_getfield(co, -1, "traceback");
    int has = !lua_isnil(co, -1);
    lua_pop(co, 1);
    if (!has) {
      luaL_traceback(co, co, NULL, 0);
      lua_setfield(co, -2, "traceback");
    }
    lua_xmove(co, L, 1);
    return;
  }
  const char *msg = luaL_tolstring(co, -1, NULL);
  luaL_traceback(L, co, msg, 0);
  lua_pop(co, 2);
}

void vdx__task_resume(vdx_task *t) {
  lua_State *L = vdx__main_state(t->lp);
  lua_State *co = t->co;
  int nargs = 0, nres = 0, st;
  t->queued = 0;
  if (co == NULL) return;
  if (t->state == T_NEW) {
    nargs = t->nargs;
  } else if (t->wake) {
    vdx_waiter *w = t->wake;
    t->wake = NULL;
    int ok = vdx__waiter_take(w, co);
    lua_pushboolean(co, ok);
    nargs = 2;
  }
  t->state = T_RUNNING;
  st = lua_resume(co, L, nargs, &nres);
  if (st == LUA_YIELD) {
    lua_pop(co, nres);
    if (t->waiting == NULL) {       /* a bare coroutine.yield: run again */
      t->state = T_READY;
      vdx__ready(t->lp, t);
    }
    return;
  }
  if (st == LUA_OK) {
    lua_createtable(L, nres, 1);
    for (int i = nres; i >= 1; i--) {
      lua_xmove(co, L, 1);
      lua_rawseti(L, -2, i);
    }
    lua_pushinteger(L, nres);
    lua_setfield(L, -2, "n");
    finish(t, L, 0);
    return;
  }
  error_with_traceback(L, co);
  finish(t, L, 1);
}

/* ----------------------------------------------------------- Lua API */

static vdx_task *check_task(lua_State *L, int idx) {
  return luaL_checkudata(L, idx, VDX_TASK_MT);
}

/* Makes fn (below its nargs arguments) a new task, not yet queued.
 * stack: fn, args... -> task */
static vdx_task *task_new(lua_State *L, int nargs) {
  vdx_loop *lp = vdx__loop(L);
  vdx_task *t = lua_newuserdatauv(L, sizeof *t, 1);
  memset(t, 0, sizeof *t);
  t->lp = lp;
  t->self_ref = t->result_ref = LUA_NOREF;
  luaL_setmetatable(L, VDX_TASK_MT);
  lua_State *co = lua_newthread(L);
  lua_setiuservalue(L, -2, 1);
  lua_insert(L, -(nargs + 2));      /* task, fn, args… */
  lua_xmove(L, co, nargs + 1);
  t->co = co;
  t->nargs = nargs;
  t->state = T_NEW;
  lua_pushvalue(L, -1);
  t->self_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  map_thread(L, co, t);
  (*vdx__loop_live_tasks(lp))++;
  return t;
}

void vdx__spawn(lua_State *L, int nargs) {
  vdx_task *t = task_new(L, nargs);
  vdx__ready(t->lp, t);
}

static void joiner_dropped(vdx_waiter *w, void *data);

/* Adds a joiner to t: a waiter that completes with t's results table
 * {n=...} or its error when t ends. */
static vdx_waiter *join(vdx_task *t, int timeout_ms, const char *what) {
  joiner *j = malloc(sizeof *j);
  if (j == NULL) return NULL;
  vdx_waiter *w = vdx__waiter_new(t->lp, timeout_ms, what);
  if (w == NULL) { free(j); return NULL; }
  j->w = w;
  j->next = t->joiners;
  t->joiners = j;
  vdx__waiter_on_done(w, joiner_dropped, t);
  return w;
}

void vdx__spawn_then(lua_State *L, int nargs, const char *what,
                     vdx_then_cb done, void *data) {
  vdx_task *t = task_new(L, nargs);
  lua_pop(L, 1);
  vdx_waiter *w = join(t, 0, what);
  if (w == NULL) luaL_error(L, "out of memory");
  vdx__waiter_then(w, done, data);
  vdx__task_resume(t);
}

/* vdx.spawn(fn, ...) -> task.  fn runs as a task from the next loop turn. */
int vdx__l_spawn(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  vdx__spawn(L, lua_gettop(L) - 1);
  return 1;
}

static int push_results(lua_State *L, vdx_task *t) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, t->result_ref);
  if (t->failed) return lua_error(L);
  lua_getfield(L, -1, "n");
  int n = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  luaL_checkstack(L, n, "too many results");
  int tbl = lua_gettop(L);
  for (int i = 1; i <= n; i++) lua_rawgeti(L, tbl, i);
  return n;
}

static int wait_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  lua_settop(L, 1);
  return push_results(L, check_task(L, 1));
}

static void joiner_dropped(vdx_waiter *w, void *data) {
  vdx_task *t = data;
  joiner **pp = &t->joiners;
  while (*pp) {
    if ((*pp)->w == w) {
      joiner *j = *pp;
      *pp = j->next;
      free(j);
      return;
    }
    pp = &(*pp)->next;
  }
}

/*
 * vdx.wait(task [, timeout_ms]) -> the task's results.  Raises the task's
 * error (with its traceback) if it failed, or a Timeout error.
 */
int vdx__l_wait(lua_State *L) {
  vdx_task *t = check_task(L, 1);
  lua_Integer timeout = luaL_optinteger(L, 2, 0);
  lua_settop(L, 1);
  if (t->state == T_DONE) return push_results(L, t);
  if (t == vdx__task_of(L)) return vdx__misuse(L, "a task cannot wait for itself");
  vdx_waiter *w = join(t, (int)timeout, "vdx.wait");
  if (w == NULL) return luaL_error(L, "out of memory");
  return vdx__await(L, w, 0, wait_k);
}

/* vdx.sleep(ms): lets the loop run for ms milliseconds. */
int vdx__l_sleep(lua_State *L) {
  lua_Integer ms = luaL_checkinteger(L, 1);
  luaL_argcheck(L, ms >= 0, 1, "ms must be >= 0");
  vdx_waiter *w = vdx__waiter_sleep(vdx__loop(L), (int)ms);
  if (w == NULL) return luaL_error(L, "out of memory");
  return vdx__await(L, w, 0, vdx__k_none);
}

/*
 * vdx.run() runs the loop until every spawned task has ended.  For hosts
 * whose main chunk is not a task (stock lua5.4); raises inside a task.
 */
int vdx__l_run(lua_State *L) {
  vdx_loop *lp = vdx__loop(L);
  if (vdx__task_of(L) != NULL || vdx__loop_depth(lp) > 0)
    return vdx__misuse(L, "vdx.run() is for the main chunk; inside a task "
                      "use vdx.wait(task)");
  int *live = vdx__loop_live_tasks(lp);
  while (*live > 0) {
    if (!uv_run(vdx__uv_of(lp), UV_RUN_ONCE) && *live > 0) break;
  }
  lua_pushinteger(L, *live);
  return 1;
}

/* vdx.current_task() -> the running vdx.Task, or nil outside a task. */
int vdx__l_current(lua_State *L) {
  vdx_task *t = vdx__task_of(L);
  if (t == NULL || t->self_ref == LUA_NOREF) return 0;
  lua_rawgeti(L, LUA_REGISTRYINDEX, t->self_ref);
  return 1;
}

static int task_tostring(lua_State *L) {
  vdx_task *t = check_task(L, 1);
  const char *s = t->state == T_DONE ? (t->failed ? "failed" : "done")
                : t->state == T_WAITING ? "waiting"
                : t->state == T_NEW ? "new" : "running";
  lua_pushfstring(L, "vdx.Task (%s)", s);
  return 1;
}

/* task:done() -> true when the task has ended (returned or failed). */
static int task_done(lua_State *L) {
  lua_pushboolean(L, check_task(L, 1)->state == T_DONE);
  return 1;
}

/* task:status() -> "new" | "running" | "waiting" | "done" | "failed". */
static int task_status(lua_State *L) {
  task_tostring(L);
  const char *s = lua_tostring(L, -1);
  const char *open = strchr(s, '(');
  lua_pushlstring(L, open + 1, strlen(open + 1) - 1);
  return 1;
}

/*
 * task:cancel([reason]) -> true if the task was waiting and is now woken
 * with a Cancelled error (which it may catch), false if it had already
 * ended or is not waiting.  The thing it waited for is abandoned cleanly:
 * a pending CDP call's late reply is dropped.
 */
static int task_cancel(lua_State *L) {
  vdx_task *t = check_task(L, 1);
  const char *reason = luaL_optstring(L, 2, "the task was cancelled");
  if (t->state != T_WAITING || t->waiting == NULL) {
    lua_pushboolean(L, 0);
    return 1;
  }
  vdx__error_push(L, "Cancelled", "%s", reason);
  vdx__waiter_reject(t->waiting, L);
  lua_pushboolean(L, 1);
  return 1;
}

static int task_gc(lua_State *L) {
  vdx_task *t = check_task(L, 1);
  /* Joiners left only when the state closes while someone waits for t
   * (os.exit(code, true) in a task): the loop frees their waiters. */
  while (t->joiners) {
    joiner *j = t->joiners;
    t->joiners = j->next;
    free(j);
  }
  if (t->result_ref != LUA_NOREF) {
    luaL_unref(L, LUA_REGISTRYINDEX, t->result_ref);
    t->result_ref = LUA_NOREF;
  }
  return 0;
}

int vdx__task_open(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"done", task_done}, {"status", task_status}, {"cancel", task_cancel},
    {NULL, NULL}};
  lua_getfield(L, LUA_REGISTRYINDEX, TASKS_KEY);
  if (lua_isnil(L, -1)) {
    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, TASKS_KEY);
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, VDX_TASK_MT)) {
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, task_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushcfunction(L, task_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  return 0;
}
