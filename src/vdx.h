/*
 * vdx.h -- internal interfaces shared by the files of the C core.
 *
 * Public names carry the vdx_ prefix, internal ones vdx__; everything else
 * in a .c file is static.  The only public symbol of the module is
 * luaopen_vdx_core (and luaopen_vdx, which only says how to load the Lua
 * layer).  Each object type lives in its own file; the map of the files is
 * in docs/architecture.md ("Map").
 */
#ifndef VDX_H
#define VDX_H

#include <stddef.h>
#include <stdint.h>

#include <lua.h>
#include <lauxlib.h>
#include <uv.h>

#define VDX_VERSION "0.1.0"

/* The largest message sent to the browser.  Chromium drops the channel on
 * messages of about 100 MiB, so anything larger fails before it is sent. */
#define VDX_MAX_OUTGOING (96u * 1024u * 1024u)

/* Default timeout of a CDP call, in milliseconds. */
#define VDX_DEFAULT_TIMEOUT_MS 30000

/* Metatable names. */
#define VDX_BROWSER_MT "vdx.Browser"
#define VDX_CONTEXT_MT "vdx.Context"
#define VDX_PAGE_MT    "vdx.Page"
#define VDX_TASK_MT    "vdx.Task"
#define VDX_ERROR_MT   "vdx.Error"

/* ------------------------------------------------------------------ loop */

typedef struct vdx_loop vdx_loop;
typedef struct vdx_waiter vdx_waiter;

/* The loop that belongs to this Lua state (created by luaopen_vdx_core). */
vdx_loop *vdx__loop(lua_State *L);
uv_loop_t *vdx__uv(lua_State *L);
/* The main Lua state of the loop (the one luaopen_vdx_core ran in). */
lua_State *vdx__main_state(vdx_loop *lp);
uv_loop_t *vdx__uv_of(vdx_loop *lp);
/* ws.c's per-loop state (its lws context), NULL until made. */
void **vdx__loop_ws(vdx_loop *lp);

/*
 * Calls the function at the top of L's stack, with nargs arguments below it,
 * in a protected call with a traceback.  An error is reported on stderr and
 * never propagates into the loop.  Returns 1 on success (results dropped).
 */
int vdx__pcall_report(lua_State *L, int nargs, const char *what);

/*
 * Starts fn (at index fidx, with nargs arguments above it) as a new task.
 * Pops the function and arguments; pushes the vdx.Task userdata.  The task
 * begins running on the next loop turn, never inside the caller.
 */
void vdx__spawn(lua_State *L, int nargs);
/*
 * Like vdx__spawn, but runs the task at once until it first waits or
 * ends, and pushes nothing: done(data, L, ok) is called exactly once when
 * it ends (perhaps before this returns) with its results table {n=...} or
 * its error at index 1 (see vdx__waiter_then).  what names it in reports.
 * For code the loop calls (an HTTP request), never from inside a task.
 */
typedef void (*vdx_then_cb)(void *data, lua_State *L, int ok);
void vdx__spawn_then(lua_State *L, int nargs, const char *what,
                     vdx_then_cb done, void *data);

/*
 * Waiters.  A waiter is one thing a coroutine (or the blocking main chunk)
 * waits for.  It completes exactly once: with a value (vdx__waiter_resolve)
 * or an error object (vdx__waiter_reject), or by its timeout, which rejects
 * it with a Timeout error.  A waiter is freed by the loop after completion;
 * whoever tracks it must drop their pointer in the on_done hook.
 */
typedef void (*vdx_waiter_cb)(vdx_waiter *w, void *data);

vdx_waiter *vdx__waiter_new(vdx_loop *lp, int timeout_ms, const char *what);
/* Called once when the waiter completes (any way), before it is freed. */
void vdx__waiter_on_done(vdx_waiter *w, vdx_waiter_cb cb, void *data);
/* Pops the value at the top of L (any Lua state of the loop). */
void vdx__waiter_resolve(vdx_waiter *w, lua_State *L);
/* Pops the error object at the top of L. */
void vdx__waiter_reject(vdx_waiter *w, lua_State *L);
int vdx__waiter_done(const vdx_waiter *w);
/*
 * Instead of a coroutine, cb consumes w's value: when w completes,
 * cb(data, L, ok) runs (in a protected call, on a fresh stack holding only
 * the value or error object at index 1), and w is then freed.
 */
void vdx__waiter_then(vdx_waiter *w, vdx_then_cb cb, void *data);
/* Nobody will read w's value: it frees itself when it completes. */
void vdx__waiter_abandon(vdx_waiter *w);
/* True once the loop is being torn down (no Lua calls allowed). */
int vdx__loop_closed(vdx_loop *lp);
vdx_loop *vdx__waiter_loop(vdx_waiter *w);

/*
 * Waits for w in L.  When L is a task, it yields and the loop resumes it;
 * when L is the main state outside the loop, it runs the loop until w
 * completes.  Either way k(L, status, ctx) is then called with the value
 * pushed on the stack, or an error is raised in L.  Must be used as
 * `return vdx__await(L, w, ctx, k);`.
 */
int vdx__await(lua_State *L, vdx_waiter *w, lua_KContext ctx, lua_KFunction k);

/* Ready-made continuations for vdx__await: return the awaited value as it
 * is (vdx__k_value), return true in its place (vdx__k_true), or return
 * nothing (vdx__k_none). */
int vdx__k_value(lua_State *L, int status, lua_KContext ctx);
int vdx__k_true(lua_State *L, int status, lua_KContext ctx);
int vdx__k_none(lua_State *L, int status, lua_KContext ctx);

/* Registers fn to run when the loop is torn down (Lua state closing). */
typedef void (*vdx_teardown_fn)(void *data);
void vdx__on_teardown(vdx_loop *lp, vdx_teardown_fn fn, void *data);

/* --------------------------------------------------------------- errors */

/*
 * Pushes a new vdx.Error: { type = type, message = msg } with the
 * vdx.Error metatable.  More fields may be set on it afterwards.
 */
void vdx__error_push(lua_State *L, const char *type, const char *fmt, ...);
/* Pushes a new error and raises it. */
int vdx__error_raise(lua_State *L, const char *type, const char *fmt, ...);
/*
 * Misuse of a binding (a wrong argument or option): pushes (or raises) an
 * InvalidArgument whose message the binding's wrapper (vdx__error_wrap)
 * prefixes with the binding's name, "page:snapshot: " + msg, unless msg
 * starts with a name already.
 */
void vdx__misuse_push(lua_State *L, const char *fmt, ...);
int vdx__misuse(lua_State *L, const char *fmt, ...);
/*
 * Wraps each C function of the table at idx so that its misuse arrives as
 * a typed InvalidArgument naming it (owner sep key: "page" ":" "snapshot")
 * instead of lauxlib's untyped "bad argument #2 to '?'".  Wrapped calls
 * may still yield.  vdx__error_wrap_all wraps the vdx table at idx, its
 * sub-tables and the methods (__index tables) of every "vdx.*" metatable.
 */
void vdx__error_wrap(lua_State *L, int idx, const char *owner, const char *sep);
void vdx__error_wrap_all(lua_State *L, int idx);
void vdx__error_open(lua_State *L);

/* ----------------------------------------------------------------- json */

/* The text of a file vdx.so embeds (a path of the BRIDGE list in the
 * Makefile, e.g. "lua/vdx/json.lua"), or NULL. */
const char *vdx__embedded_file(const char *path, size_t *len);

/* Encodes the value at idx; returns a pointer valid while the string that
 * is left on top of the stack lives.  Raises on values JSON cannot hold. */
const char *vdx__json_encode(lua_State *L, int idx, size_t *len);
/* Decodes buf; pushes the value, or returns 0 and pushes an error message. */
int vdx__json_decode(lua_State *L, const char *buf, size_t len);
/* Turns integral floats into integers in the table at idx, recursively. */
void vdx__json_normalize(lua_State *L, int idx, int depth);

/* ------------------------------------------------------------ transport */

typedef struct vdx_conn vdx_conn;

typedef struct vdx_transport {
  /* Sends one complete message; returns 0 or a negative libuv-style code. */
  int (*send)(struct vdx_transport *t, const char *data, size_t len);
  /* Closes the transport; no callbacks into the conn follow. Frees t later. */
  void (*close)(struct vdx_transport *t);
  vdx_conn *conn;
} vdx_transport;

/*
 * A transport calls these.  receive hands over one complete message (not
 * NUL-terminated); lost reports that the channel is gone for good (once).
 */
void vdx__conn_receive(vdx_conn *c, const char *data, size_t len);
void vdx__conn_lost(vdx_conn *c, const char *reason);

/* pipe.c: a transport over the two pipes of a launched browser. */
vdx_transport *vdx__pipe_transport(uv_loop_t *loop, uv_pipe_t *to_browser,
                                   uv_pipe_t *from_browser);

/*
 * ws.c: how a client connection reaches a remote browser: extra handshake
 * headers ("Name: value\r\n" lines, e.g. a farm's Authorization), and for
 * wss:// and https:// the CA file to trust instead of the system's, or
 * insecure (any certificate).  NULL means none of them.
 */
typedef struct vdx_ws_opts {
  const char *headers;
  const char *ca;
  int insecure;
} vdx_ws_opts;
/*
 * ws.c: connects a WebSocket transport to url (ws:// or wss://).  On
 * success calls done(data, t, 101, NULL); on failure done(data, NULL,
 * status, message), status being the HTTP status the server refused the
 * upgrade with, or 0.  done is called exactly once, later.
 */
typedef void (*vdx_ws_done)(void *data, vdx_transport *t, int status,
                            const char *err);
int vdx__ws_connect(vdx_loop *lp, const char *url, const vdx_ws_opts *o,
                    vdx_ws_done done, void *data);
/*
 * ws.c: GETs url (http:// or https://, e.g. …/json/version) and calls
 * done(data, body, len, 200, NULL) or done(data, NULL, 0, status, message)
 * (status 0 when no answer came), exactly once, later.
 */
typedef void (*vdx_http_done)(void *data, const char *body, size_t len,
                              int status, const char *err);
int vdx__http_get(vdx_loop *lp, const char *url, const vdx_ws_opts *o,
                  vdx_http_done done, void *data);

/* ------------------------------------------------------------------ conn */

vdx_conn *vdx__conn_new(lua_State *L, vdx_transport *t, int timeout_ms);
int vdx__conn_closed(const vdx_conn *c);
/* Called when the connection closes, before pending calls fail; may
 * rewrite the reason (e.g. with the browser's exit status). */
typedef void (*vdx_conn_lost_cb)(void *data, char *reason, size_t size);
void vdx__conn_on_lost(vdx_conn *c, vdx_conn_lost_cb cb, void *data);
/* Sends a call nobody waits for. */
void vdx__conn_send_only(lua_State *L, vdx_conn *c, const char *sid,
                         const char *method, int pidx);
void vdx__conn_off_session(vdx_conn *c, const char *sid);
const char *vdx__conn_close_reason(const vdx_conn *c);
/* Rejects every call pending on session sid with a new error of the given
 * type and message (the session's target crashed). */
void vdx__conn_fail_session(lua_State *L, vdx_conn *c, const char *sid,
                            const char *type, const char *msg);
/* Closes the transport and fails everything pending with BrowserClosed. */
void vdx__conn_close(vdx_conn *c, const char *reason);
void vdx__conn_free(vdx_conn *c);

/*
 * Sends method with the params table at pidx (0 for none) on session sid
 * (NULL for the browser) and returns a waiter that resolves with the
 * result table or rejects with a CDPError / BrowserClosed / Timeout error.
 * On a synchronous failure pushes an error object and returns NULL.
 */
vdx_waiter *vdx__conn_call(lua_State *L, vdx_conn *c, const char *sid,
                           const char *method, int pidx, int timeout_ms);
int vdx__conn_default_timeout(const vdx_conn *c);

/*
 * Event subscribers.  The conn keeps, in the registry, a table per session
 * id ("" for the browser) of Lua handler lists keyed by method name, plus
 * an optional C observer per session that sees every event first.
 */
typedef void (*vdx_event_cb)(lua_State *L, void *data, const char *sid,
                             const char *method, int params_idx);
void vdx__conn_observe(vdx_conn *c, const char *sid, vdx_event_cb cb,
                       void *data);
void vdx__conn_unobserve(vdx_conn *c, const char *sid, void *data);
/* Adds the function at fidx as a handler of method on session sid. */
void vdx__conn_on(lua_State *L, vdx_conn *c, const char *sid,
                  const char *method, int fidx);

/* ---------------------------------------------------------------- process */

typedef struct vdx_proc vdx_proc;
/* Ends the whole process tree of p now (SIGKILL), idempotent. */
void vdx__proc_kill(vdx_proc *p);

/* ----------------------------------------------------------------- module */

int vdx__browser_open(lua_State *L);
int vdx__context_open(lua_State *L);
int vdx__page_open(lua_State *L);

int vdx__launch(lua_State *L);
int vdx__find_browser(lua_State *L);
int vdx__connect(lua_State *L);
int vdx__read_lines(lua_State *L);        /* lines.c: vdx.read_lines */
int vdx__read_file(lua_State *L);         /* fsread.c: vdx.read_file */
/* fsread.c: the read options at idx (max_bytes, timeout), checked. */
void vdx__read_opts(lua_State *L, int idx, lua_Integer *max, lua_Integer *timeout);
/* fsread.c: reads the regular file open at fd (taken over and closed)
 * without blocking the loop; one_link refuses a file with more than one
 * hard link.  Must be used as `return vdx__read_fd(...)`.
 * stack: -> text | nil, message, code */
int vdx__read_fd(lua_State *L, int fd, lua_Integer max, lua_Integer timeout,
                 int one_link);
void vdx__fsbeneath_open(lua_State *L);   /* fsbeneath.c: vdx.open_dir */
/* fsbeneath.c: writes n bytes of data to path through a temporary file
 * renamed over it; 0, or the errno (nothing partial left under path). */
int vdx__write_replace(const char *path, const void *data, size_t n);
int vdx__watch(lua_State *L);             /* watch.c: vdx.watch */
int vdx__l_trace(lua_State *L);           /* trace.c: vdx.trace */

/* trace.c: with VDX_TRACE_START set, vdx__trace writes one timeline line
 * (ms since the process started) to stderr; vdx__trace_on says whether. */
int vdx__trace_on(void);
void vdx__trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* opts.c.  Strict options: raises InvalidArgument naming the first key of
 * the table at idx that is not in the NULL-terminated list. */
void vdx__check_opts(lua_State *L, int idx, const char *const *known);
/* Integer option or default; InvalidArgument when it is not an integer. */
lua_Integer vdx__opt_int(lua_State *L, int idx, const char *key,
                         lua_Integer def);
/* Raises unless option key of the table at idx is nil or of Lua type type
 * (LUA_TBOOLEAN, …): "option 'headless' must be a boolean, got string". */
void vdx__opt_type(lua_State *L, int idx, const char *key, int type);

LUALIB_API int luaopen_vdx_core(lua_State *L);
LUALIB_API int luaopen_vdx(lua_State *L);
/* serve.c: the fixture HTTP server, a module of its own (vdx.serve). */
LUALIB_API int luaopen_vdx_serve(lua_State *L);

#endif
