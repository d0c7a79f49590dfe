/*
 * browser.c -- vdx.Browser: vdx.launch, vdx.connect and the browser methods.
 *
 * A launched browser talks over the pipe transport and opens no TCP port
 * (unless opts.port asks for one); a connected browser is reached over a
 * WebSocket.  Either way the browser's process tree is ended on close(),
 * on garbage collection and when the Lua state closes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vdx.h"
#include "objects.h"
#include "events.h"
#include "task.h"

extern char **environ;

vdx_browser *vdx__check_browser(lua_State *L, int idx) {
  return luaL_checkudata(L, idx, VDX_BROWSER_MT);
}

vdx_browser *vdx__check_open_browser(lua_State *L, int idx) {
  vdx_browser *b = vdx__check_browser(L, idx);
  if (b->closed)
    vdx__error_raise(L, "BrowserClosed", "the browser is closed (%s)",
                     b->closed_why);
  return b;
}

vdx_conn *vdx__browser_conn(lua_State *L, vdx_browser *b) {
  if (b->conn == NULL || vdx__conn_closed(b->conn)) {
    vdx__error_raise(L, "BrowserClosed", "the browser connection is closed: %s",
                     b->conn ? vdx__conn_close_reason(b->conn)
                             : "browser:close() was called");
  }
  return b->conn;
}

/* ------------------------------------------------------------- events */

/* Remembers the about:blank tab a launched browser opens with, so that the
 * first page of the default context takes it instead of starting another
 * renderer (the first target the browser reports; a browser vdx connected
 * to keeps its tabs). */
static void note_blank(lua_State *L, vdx_browser *b, int params) {
  if (b->proc == NULL || b->blank_done || *b->blank) return;
  lua_getfield(L, params, "targetInfo");
  lua_getfield(L, -1, "type");
  lua_getfield(L, -2, "url");
  lua_getfield(L, -3, "targetId");
  lua_getfield(L, -4, "openerId");
  const char *type = lua_tostring(L, -4), *url = lua_tostring(L, -3);
  const char *target = lua_tostring(L, -2);
  if (type && url && target && lua_isnil(L, -1) && strcmp(type, "page") == 0 &&
      strcmp(url, "about:blank") == 0) {
    snprintf(b->blank, sizeof b->blank, "%s", target);
  }
  lua_pop(L, 5);
}

/* Browser-level events: a target (page) went away. */
static void browser_event(lua_State *L, void *data, const char *sid0,
                          const char *method, int params) {
  vdx_browser *b = data;
  (void)sid0;
  if (strcmp(method, "Target.detachedFromTarget") == 0) {
    lua_getfield(L, params, "sessionId");
    const char *sid = lua_tostring(L, -1);
    for (vdx_page *p = b->pages; p && sid; p = p->next)
      if (strcmp(p->session_id, sid) == 0) {
        vdx__page_detached(L, p, "the page was closed");
        break;
      }
    lua_pop(L, 1);
  } else if (strcmp(method, "Target.targetCreated") == 0) {
    note_blank(L, b, params);
    vdx__tabs_target_created(L, b, params);        /* popups: tabs.c */
  } else if (strcmp(method, "Target.targetDestroyed") == 0) {
    lua_getfield(L, params, "targetId");
    if (lua_isstring(L, -1) && strcmp(lua_tostring(L, -1), b->blank) == 0) *b->blank = '\0';
    lua_pop(L, 1);
    vdx__tabs_target_destroyed(L, b, params);
  }
}

static void browser_lost(void *data, char *reason, size_t size) {
  vdx_browser *b = data;
  lua_State *L = vdx__main_state(b->lp);
  if (b->proc && b->proc->exited) {
    char tail[600];
    const char *err = vdx__proc_stderr(b->proc);
    size_t n = strlen(err);
    snprintf(tail, sizeof tail, "%s", n > 500 ? err + n - 500 : err);
    snprintf(reason, size, "chromium exited (status %d, signal %d)%s%s",
             (int)b->proc->exit_status, b->proc->term_signal,
             *tail ? "; its last output: " : "", tail);
  }
  for (vdx_page *p = b->pages; p; p = p->next)
    vdx__page_detached(L, p, reason);
}

static void proc_exited(void *data, vdx_proc *p) {
  vdx_browser *b = data;
  (void)p;
  if (b->conn) vdx__conn_close(b->conn, "chromium exited");
}

/* ------------------------------------------------------------ closing */

static void browser_teardown(void *data);

/* How long a browser gets to exit after Browser.close before SIGTERM, and
 * after SIGTERM before SIGKILL. */
#define STOP_GRACE_MS 3000

/* Ends the browser now, without waiting: safe in __gc and __close. */
static void browser_shutdown(vdx_browser *b, const char *why) {
  if (b->closed) return;
  b->closed = 1;
  snprintf(b->closed_why, sizeof b->closed_why, "%s", why);
  vdx__off_teardown(b->lp, browser_teardown, b);
  if (b->conn) {
    vdx__conn_close(b->conn, why);
    vdx__conn_free(b->conn);
    b->conn = NULL;
  }
  if (b->proc) {
    /* A temporary profile is not worth a graceful exit (browser_close). */
    if (b->proc->owns_dir) vdx__proc_kill(b->proc);
    else vdx__proc_stop(b->proc, STOP_GRACE_MS);
    vdx__proc_release(b->proc);
    b->proc = NULL;
  }
}

static void browser_teardown(void *data) {
  vdx_browser *b = data;
  if (b->proc) vdx__proc_finish(b->proc);
  browser_shutdown(b, "the Lua state is closing");
}

static int browser_gc(lua_State *L) {
  browser_shutdown(vdx__check_browser(L, 1), "the browser was garbage collected");
  return 0;
}

static void close_exited(void *data, vdx_proc *p) {
  vdx_waiter *w = data;
  lua_State *L = vdx__main_state(p->lp);
  p->on_exit = NULL;
  lua_pushboolean(L, 1);
  vdx__waiter_resolve(w, L);
}

static void close_done(vdx_waiter *w, void *data) {
  vdx_proc *p = data;
  (void)w;
  p->on_exit = NULL;
  vdx__proc_release(p);
}

/*
 * browser:close() -> true.  Ends the launched browser's process tree and
 * waits until it has exited (its profile directory is then removed); for a
 * connected browser, disconnects.  Calling it again is a no-op.
 *
 * A browser on a temporary profile is killed at once: the profile is
 * removed right after the exit, so a graceful shutdown (Browser.close,
 * 100-400 ms of saving state) would save nothing, and it is most of the
 * end of a short run.  A browser on opts.user_data_dir is asked to close
 * (Browser.close), so its profile is written out, and killed only when it
 * outlasts the grace periods.
 */
static int browser_close(lua_State *L) {
  vdx_browser *b = vdx__check_browser(L, 1);
  vdx_proc *p = b->proc;
  lua_settop(L, 1);
  if (!b->closed && p && !p->exited) {
    vdx_waiter *w = vdx__waiter_new(b->lp, 4 * STOP_GRACE_MS, "browser:close()");
    if (w == NULL) return luaL_error(L, "out of memory");
    /* The request is written before the connection closes, and its answer
     * is not awaited (the process exit is). */
    if (b->conn && !p->owns_dir) {
      vdx_waiter *bc = vdx__conn_call(L, b->conn, NULL, "Browser.close", 0, 0);
      if (bc) vdx__waiter_abandon(bc);
      else lua_pop(L, 1);
    }
    vdx__trace("closing the browser");
    b->proc = NULL;
    p->lp = b->lp;
    p->on_exit = close_exited;
    p->cb_data = w;
    vdx__waiter_on_done(w, close_done, p);
    /* A browser to kill is killed before its pipe closes: a closed pipe
     * starts Chromium's own shutdown, which unlinks the profile's
     * SingletonSocket link first, and that link is the only name of the
     * ProcessSingleton folder it leaves in TMPDIR when killed. */
    if (p->owns_dir) vdx__proc_kill(p);
    browser_shutdown(b, "browser:close() was called");
    if (!p->owns_dir) vdx__proc_stop(p, STOP_GRACE_MS);
    return vdx__await(L, w, 0, vdx__k_true);
  }
  browser_shutdown(b, "browser:close() was called");
  lua_pushboolean(L, 1);
  return 1;
}

static int browser_tostring(lua_State *L) {
  vdx_browser *b = vdx__check_browser(L, 1);
  if (b->closed) lua_pushliteral(L, "vdx.Browser (closed)");
  else if (b->proc) lua_pushfstring(L, "vdx.Browser (pid %d)", b->proc->pid);
  else lua_pushfstring(L, "vdx.Browser (%s)", b->endpoint);
  return 1;
}

/* ------------------------------------------------------------ methods */

/* browser:version() -> { product=, protocolVersion=, userAgent=, … }. */
static int browser_version(lua_State *L) {
  vdx_browser *b = vdx__check_open_browser(L, 1);
  vdx_waiter *w = vdx__conn_call(L, vdx__browser_conn(L, b), NULL,
                                 "Browser.getVersion", 0, 0);
  if (w == NULL) return lua_error(L);
  lua_settop(L, 1);
  return vdx__await(L, w, 0, vdx__k_value);
}

/* Shared by browser:send and page:send: method, params, opts at 2..4;
 * the options allowed are known (NULL: timeout_ms only). */
int vdx__send(lua_State *L, vdx_conn *c, const char *sid,
              const char *const *known) {
  static const char *const plain[] = {"timeout_ms", NULL};
  const char *method = luaL_checkstring(L, 2);
  if (!lua_isnoneornil(L, 3)) luaL_checktype(L, 3, LUA_TTABLE);
  vdx__check_opts(L, 4, known ? known : plain);
  int timeout = (int)vdx__opt_int(L, 4, "timeout_ms", 0);
  vdx_waiter *w = vdx__conn_call(L, c, sid, method,
                                 lua_istable(L, 3) ? 3 : 0, timeout);
  if (w == NULL) return lua_error(L);
  lua_settop(L, 1);
  return vdx__await(L, w, 0, vdx__k_value);
}

/* The session option at idx (a flattened session the caller attached
 * with Target.attachToTarget), or NULL for the browser target. */
static const char *session_opt(lua_State *L, int idx) {
  if (!lua_istable(L, idx)) return NULL;
  lua_getfield(L, idx, "session");
  const char *sid = lua_isnil(L, -1) ? NULL : luaL_checkstring(L, -1);
  lua_pop(L, 1);                 /* the options table still holds it */
  return sid;
}

/* browser:send(method [, params [, {timeout_ms=, session=}]]) -> result
 * table.  Raw CDP on the browser target, or on session, a flattened
 * session the caller attached itself (vdx sets nothing up there); a CDP
 * error raises a CDPError. */
static int browser_send(lua_State *L) {
  static const char *const known[] = {"timeout_ms", "session", NULL};
  vdx_browser *b = vdx__check_open_browser(L, 1);
  vdx__check_opts(L, 4, known);
  return vdx__send(L, vdx__browser_conn(L, b), session_opt(L, 4), known);
}

/* browser:on(event, fn [, {session=}]): fn(params) runs as a task for each
 * browser-level event of that name, or each event of session ("*"
 * receives every event as fn(method, params)). */
static int browser_on(lua_State *L) {
  static const char *const known[] = {"session", NULL};
  vdx_browser *b = vdx__check_open_browser(L, 1);
  const char *ev = luaL_checkstring(L, 2);
  luaL_checktype(L, 3, LUA_TFUNCTION);
  vdx__check_opts(L, 4, known);
  const char *sid = session_opt(L, 4);
  vdx__conn_on(L, vdx__browser_conn(L, b), sid ? sid : "", ev, 3);
  return 0;
}

/* browser:pid() -> the browser's process id, or nil when connected. */
static int browser_pid(lua_State *L) {
  vdx_browser *b = vdx__check_browser(L, 1);
  if (b->proc == NULL) return 0;
  lua_pushinteger(L, b->proc->pid);
  return 1;
}

/* browser:endpoint() -> the ws:// URL, or nil for a pipe connection. */
static int browser_endpoint(lua_State *L) {
  vdx_browser *b = vdx__check_browser(L, 1);
  if (!*b->endpoint) return 0;
  lua_pushstring(L, b->endpoint);
  return 1;
}

/* browser:is_closed() -> true after close() or when the browser went away. */
static int browser_is_closed(lua_State *L) {
  vdx_browser *b = vdx__check_browser(L, 1);
  lua_pushboolean(L, b->closed || b->conn == NULL || vdx__conn_closed(b->conn));
  return 1;
}


/* ------------------------------------------------------------- create */

/* Pushes a new vdx.Browser around conn; registers teardown and events. */
vdx_browser *vdx__browser_push(lua_State *L, vdx_conn *conn, vdx_proc *proc,
                               int timeout_ms) {
  vdx_browser *b = lua_newuserdatauv(L, sizeof *b, 1);
  memset(b, 0, sizeof *b);
  b->lp = vdx__loop(L);
  b->conn = conn;
  b->proc = proc;
  b->timeout_ms = timeout_ms;
  luaL_setmetatable(L, VDX_BROWSER_MT);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  vdx__on_teardown(b->lp, browser_teardown, b);
  vdx__conn_on_lost(conn, browser_lost, b);
  vdx__conn_observe(conn, "", browser_event, b);
  /* Target.targetCreated for popups and tabs that pages open. */
  lua_createtable(L, 0, 1);
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "discover");
  vdx__conn_send_only(L, conn, NULL, "Target.setDiscoverTargets", -1);
  lua_pop(L, 1);
  if (proc) {
    proc->cb_data = b;
    proc->on_exit = proc_exited;
  }
  return b;
}

int vdx__browser_open(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"close", browser_close},
    {"version", browser_version},
    {"send", browser_send},
    {"on", browser_on},
    {"pid", browser_pid},
    {"endpoint", browser_endpoint},
    {"is_closed", browser_is_closed},
    {NULL, NULL}};
  luaL_newmetatable(L, VDX_BROWSER_MT);
  luaL_newlib(L, methods);
  vdx__context_browser_methods(L);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, browser_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, browser_gc);
  lua_setfield(L, -2, "__close");
  lua_pushcfunction(L, browser_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  return 0;
}
