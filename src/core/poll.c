/*
 * poll.c -- vdx as a pollable object, for hosts that own their event loop
 * (luv, cqueues, copas, a select loop):
 *
 *   vdx.pollfd()         the fd to watch for reading: libuv's backend fd
 *   vdx.events()         "r"
 *   vdx.timeout()        seconds until vdx must step even if the fd is
 *                        quiet, or nil when only the fd can wake it
 *   vdx.step([timeout])  one turn of the loop, never blocking past timeout
 *   vdx.set_host{...}    the adapter through which a vdx call made in one
 *                        of the host's coroutines waits in the host's way
 *
 * These are the methods cqueues.poll() reads, so `cqueues.poll(vdx)` works,
 * and they ignore a leading self argument for that reason.
 *
 * The backend fd is readable when an fd vdx watches is, but timers do not
 * make it readable.  So from the first call of pollfd, timeout or step on,
 * a timerfd armed to vdx's next timer is one of the fds vdx watches: a host
 * that can only watch fds (copas 1.x, a select without a timeout) still
 * wakes in time.  Nothing here runs until a host calls it: vdxlua and plain
 * lua5.4 scripts never create it.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/timerfd.h>
#endif

#include "vdx.h"
#include "task.h"

#define HOST_KEY "vdx.host"   /* registry: { name = ..., wait = fn } */

typedef struct pollable {
  uv_poll_t wake;
  int tfd;          /* the timerfd, or -1 where there is none */
} pollable;

/* ------------------------------------------------------------ timerfd */

static void wake_cb(uv_poll_t *h, int status, int events) {
  pollable *p = h->data;
  uint64_t n;
  (void)status; (void)events;
  while (p->tfd >= 0 && read(p->tfd, &n, sizeof n) == (ssize_t)sizeof n) {}
}

static void pollable_free(uv_handle_t *h) {
  pollable *p = h->data;
  if (p->tfd >= 0) close(p->tfd);
  free(p);
}

static void pollable_teardown(void *data) {
  pollable *p = data;
  if (p->tfd >= 0) uv_close((uv_handle_t *)&p->wake, pollable_free);
  else free(p);
}

/* Milliseconds until the loop must turn, 0 for now, -1 for never (only
 * the fd can wake it), as uv_backend_timeout counts them. */
static int due_ms(vdx_loop *lp) {
  uv_loop_t *uv = vdx__uv_of(lp);
  if (vdx__loop_touched(lp)) return 0;
  if (!uv_loop_alive(uv)) return -1;
  uv_update_time(uv);
  return uv_backend_timeout(uv);
}

/* Arms the timerfd to fire when the loop must turn next. */
static void arm(vdx_loop *lp) {
#ifdef __linux__
  pollable *p = *vdx__loop_pollable(lp);
  if (p == NULL || p->tfd < 0) return;
  int ms = due_ms(lp);
  struct itimerspec its;
  memset(&its, 0, sizeof its);
  if (ms == 0) {
    its.it_value.tv_nsec = 1;
  } else if (ms > 0) {
    its.it_value.tv_sec = ms / 1000;
    its.it_value.tv_nsec = (long)(ms % 1000) * 1000000L;
  }
  timerfd_settime(p->tfd, 0, &its, NULL);
#else
  (void)lp;
#endif
}

/*
 * Puts the timerfd into the backend's epoll set now: libuv would only add
 * it on its next turn, and a host that watches the fd alone would never
 * make that turn happen.  libuv adopts the entry when it turns (it answers
 * EEXIST with a modify), and the entry's data is the fd, as libuv's is.
 */
static void watch_now(uv_loop_t *uv, int fd) {
#ifdef __linux__
  struct epoll_event e;
  memset(&e, 0, sizeof e);
  e.events = EPOLLIN;
  e.data.fd = fd;
  epoll_ctl(uv_backend_fd(uv), EPOLL_CTL_ADD, fd, &e);
#else
  (void)uv; (void)fd;
#endif
}

/* The loop of L, made pollable on first use.  Calls made before it may
 * have started watchers libuv has not registered yet, so the loop is
 * marked to turn once at once (the timerfd fires at once). */
static vdx_loop *pollable_loop(lua_State *L) {
  vdx_loop *lp = vdx__loop_quiet(L);
  void **slot = vdx__loop_pollable(lp);
  if (*slot != NULL) return lp;
  pollable *p = calloc(1, sizeof *p);
  if (p == NULL) luaL_error(L, "vdx: out of memory");
  p->tfd = -1;
#ifdef __linux__
  p->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
#endif
  p->wake.data = p;
  /* Without a timerfd the host must honour vdx.timeout(). */
  if (p->tfd >= 0) {
    uv_poll_init(vdx__uv_of(lp), &p->wake, p->tfd);
    uv_poll_start(&p->wake, UV_READABLE, wake_cb);
    uv_unref((uv_handle_t *)&p->wake);
    watch_now(vdx__uv_of(lp), p->tfd);
  }
  *slot = p;
  vdx__on_teardown(lp, pollable_teardown, p);
  vdx__loop(L);  /* marks the loop: step once before blocking */
  return lp;
}

/* --------------------------------------------------------- the contract */

/* The first argument may be vdx itself (obj:pollfd() style). */
static int first_arg(lua_State *L) {
  return lua_istable(L, 1) ? 2 : 1;
}

/* vdx.pollfd() -> the fd a host watches for reading (libuv's backend fd). */
static int l_pollfd(lua_State *L) {
  vdx_loop *lp = pollable_loop(L);
  arm(lp);
  lua_pushinteger(L, uv_backend_fd(vdx__uv_of(lp)));
  return 1;
}

/* vdx.events() -> "r": vdx's fd is only ever watched for reading. */
static int l_events(lua_State *L) {
  lua_pushliteral(L, "r");
  return 1;
}

/* vdx.timeout() -> seconds until vdx must step even if its fd stays quiet
 * (0: step now), or nil when only its fd can wake it. */
static int l_timeout(lua_State *L) {
  vdx_loop *lp = pollable_loop(L);
  int ms = due_ms(lp);
  arm(lp);
  if (ms < 0) lua_pushnil(L);
  else lua_pushnumber(L, (lua_Number)ms / 1000.0);
  return 1;
}

/*
 * vdx.step([timeout]) -> true.  Runs what is due on vdx's loop: tasks,
 * browser messages, timers, the servers.  First waits, at most timeout
 * seconds (default: as long as vdx needs; 0: not at all), for the fd or
 * the next timer.  Raises when called from inside vdx's own loop (a task
 * or a vdx callback), where the loop is already turning.
 */
static int l_step(lua_State *L) {
  int a = first_arg(L);
  lua_Number limit = luaL_optnumber(L, a, -1);
  vdx_loop *lp = pollable_loop(L);
  if (vdx__loop_depth(lp) > 0)
    return vdx__misuse(L, "vdx.step() is for a host that polls vdx; inside a "
                      "task or a vdx callback the loop is already turning (a "
                      "script vdxlua runs is a task: run a program with a "
                      "loop of its own with lua5.4, see docs/install.md)");
  int ms = due_ms(lp);
  if (limit >= 0) {
    int cap = limit * 1000.0 > 2e9 ? 2000000000 : (int)(limit * 1000.0 + 0.5);
    if (ms < 0 || ms > cap) ms = cap;
  } else if (!uv_loop_alive(vdx__uv_of(lp))) {
    ms = 0;  /* nothing could ever wake it */
  }
  if (ms != 0) {
    struct pollfd pfd = {uv_backend_fd(vdx__uv_of(lp)), POLLIN, 0};
    while (poll(&pfd, 1, ms) < 0 && errno == EINTR) {}
  }
  vdx__loop_step(lp);
  arm(lp);
  lua_pushboolean(L, 1);
  return 1;
}

/* --------------------------------------------------------- host adapters */

/*
 * vdx.set_host{ name = "copas", wait = fn } installs the adapter of a
 * host scheduler; vdx.set_host(nil) removes it.  When a vdx call made in a
 * coroutine that is not a vdx task must wait, vdx turns its loop once and,
 * until what the call waits for is done, calls wait() (in that coroutine)
 * and turns the loop again.  wait yields to the host until vdx.pollfd() is
 * readable or vdx.timeout() has passed, in the host's own way.
 */
static int l_set_host(lua_State *L) {
  static const char *const known[] = {"name", "wait", NULL};
  int a = 1;
  if (lua_isnoneornil(L, a)) {
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, HOST_KEY);
    lua_pushboolean(L, 1);
    return 1;
  }
  vdx__check_opts(L, a, known);
  lua_getfield(L, a, "wait");
  luaL_argcheck(L, lua_isfunction(L, -1), a, "'wait' must be a function");
  lua_getfield(L, a, "name");
  luaL_argcheck(L, lua_type(L, -1) == LUA_TSTRING, a,
                "'name' must be a string (the host's name)");
  lua_createtable(L, 0, 2);
  lua_insert(L, -3);
  lua_setfield(L, -3, "name");
  lua_setfield(L, -2, "wait");
  lua_setfield(L, LUA_REGISTRYINDEX, HOST_KEY);
  lua_pushboolean(L, 1);
  return 1;
}

/* vdx.host() -> the name of the installed host adapter, or nil. */
static int l_host(lua_State *L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, HOST_KEY) != LUA_TTABLE) return 0;
  lua_getfield(L, -1, "name");
  return 1;
}

typedef struct host_wait {
  vdx_waiter *w;
  lua_KFunction k;
  lua_KContext ctx;
} host_wait;

/* Pushes the adapter's wait function; 0 when no adapter is installed. */
static int push_host_wait(lua_State *L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, HOST_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    return 0;
  }
  lua_getfield(L, -1, "wait");
  lua_remove(L, -2);
  return 1;
}

/* stack: ..., host_wait (at kctx) -> ..., value; then k continues. */
static int host_wait_k(lua_State *L, int status, lua_KContext kctx) {
  int idx = (int)kctx;
  host_wait *hw = lua_touserdata(L, idx);
  vdx_waiter *w = hw->w;
  vdx_loop *lp = vdx__waiter_loop(w);
  (void)status;
  for (;;) {
    if (!vdx__waiter_done(w) && vdx__loop_depth(lp) == 0) {
      vdx__loop_step(lp);
      arm(lp);
    }
    if (vdx__waiter_done(w)) break;
    if (!push_host_wait(L)) {
      vdx__waiter_abandon(w);
      return luaL_error(L, "vdx: the host adapter was removed while a call "
                        "waited in it");
    }
    lua_callk(L, 0, 0, kctx, host_wait_k);
  }
  lua_KFunction k = hw->k;
  lua_KContext ctx = hw->ctx;
  lua_settop(L, idx - 1);
  if (!vdx__waiter_take(w, L)) return lua_error(L);
  return k(L, LUA_OK, ctx);
}

int vdx__host_wait(lua_State *L, vdx_waiter *w, lua_KContext ctx,
                   lua_KFunction k) {
  if (!push_host_wait(L)) {
    vdx__waiter_abandon(w);
    return vdx__error_raise(
        L, "NoHostAdapter",
        "this call cannot wait in a plain coroutine: run it as a vdx "
        "task (vdx.spawn), or install the adapter of the scheduler that runs "
        "this coroutine first: require('vdx.copas').install(copas), "
        "require('vdx.cqueues').install(cq) or require('vdx.luv').install(uv)");
  }
  lua_pop(L, 1);
  host_wait *hw = lua_newuserdatauv(L, sizeof *hw, 0);
  hw->w = w;
  hw->k = k;
  hw->ctx = ctx;
  pollable_loop(L);
  return host_wait_k(L, LUA_OK, (lua_KContext)lua_gettop(L));
}

/* Adds the pollable functions to the vdx table at the top of L. */
int vdx__poll_open(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"pollfd", l_pollfd}, {"events", l_events}, {"timeout", l_timeout},
    {"step", l_step}, {"set_host", l_set_host}, {"host", l_host},
    {NULL, NULL}};
  luaL_setfuncs(L, fns, 0);
  return 0;
}
