/*
 * conn.c -- one CDP connection: request ids, pending calls, flattened
 * target sessions and event subscribers.  Transports (pipe.c, ws.c) hand
 * it whole messages; it decodes them with lua-cjson and routes them.
 *
 * Guarantees: every call completes exactly once (reply, CDP error,
 * timeout, or BrowserClosed when the connection goes); once closed, every
 * later call fails at once with BrowserClosed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"

typedef struct observer {
  char *sid;
  vdx_event_cb cb;
  void *data;
  int dead;
} observer;

struct vdx_conn {
  vdx_loop *lp;
  lua_State *L;
  vdx_transport *t;
  int64_t next_id;
  int pending_ref;       /* id -> lightuserdata(pend) */
  int subs_ref;          /* sid -> { method -> { fn, … } } */
  observer *obs;
  int nobs, capobs, dispatching;
  int timeout_ms;
  int closed;
  char reason[512];
  vdx_conn_lost_cb on_lost;
  void *on_lost_data;
};

typedef struct pend {
  vdx_conn *c;
  int64_t id;
  vdx_waiter *w;
  char method[96];
  char sid[64];          /* the session the call went to ("" for the browser) */
} pend;

vdx_conn *vdx__conn_new(lua_State *L, vdx_transport *t, int timeout_ms) {
  vdx_conn *c = calloc(1, sizeof *c);
  if (c == NULL) return NULL;
  c->lp = vdx__loop(L);
  c->L = vdx__main_state(c->lp);
  c->t = t;
  t->conn = c;
  c->timeout_ms = timeout_ms > 0 ? timeout_ms : VDX_DEFAULT_TIMEOUT_MS;
  lua_newtable(L);
  c->pending_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_newtable(L);
  c->subs_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return c;
}

int vdx__conn_closed(const vdx_conn *c) { return c->closed; }
const char *vdx__conn_close_reason(const vdx_conn *c) { return c->reason; }
int vdx__conn_default_timeout(const vdx_conn *c) { return c->timeout_ms; }

void vdx__conn_on_lost(vdx_conn *c, vdx_conn_lost_cb cb, void *data) {
  c->on_lost = cb;
  c->on_lost_data = data;
}

/* ----------------------------------------------------------- closing */

static void push_closed(lua_State *L, vdx_conn *c) {
  vdx__error_push(L, "BrowserClosed", "the browser connection is closed: %s",
                  c->reason);
  lua_pushstring(L, c->reason);
  lua_setfield(L, -2, "reason");
}

/*
 * Rejects the pending calls of session sid (all of them when sid is NULL)
 * with a new error of type (or BrowserClosed when type is NULL).  Collects
 * first, since rejecting edits the map.
 */
static void fail_pending(lua_State *L, vdx_conn *c, const char *sid,
                         const char *type, const char *msg) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->pending_ref);
  int tbl = lua_gettop(L);
  int n = 0;
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, tbl)) {
    pend *p = lua_touserdata(L, -1);
    if (sid == NULL || strcmp(p->sid, sid) == 0) lua_rawseti(L, tbl + 1, ++n);
    else lua_pop(L, 1);
  }
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, tbl + 1, i);
    pend *p = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (type) vdx__error_push(L, type, "%s", msg);
    else push_closed(L, c);
    lua_pushstring(L, p->method);
    lua_setfield(L, -2, "method");
    vdx__waiter_reject(p->w, L);
  }
  lua_settop(L, tbl - 1);
}

void vdx__conn_fail_session(lua_State *L, vdx_conn *c, const char *sid,
                            const char *type, const char *msg) {
  fail_pending(L, c, sid ? sid : "", type, msg);
}

void vdx__conn_close(vdx_conn *c, const char *reason) {
  lua_State *L = c->L;
  if (c->closed) return;
  c->closed = 1;
  snprintf(c->reason, sizeof c->reason, "%s", reason ? reason : "closed");
  if (c->on_lost) c->on_lost(c->on_lost_data, c->reason, sizeof c->reason);
  if (c->t) {
    vdx_transport *t = c->t;
    c->t = NULL;
    t->conn = NULL;
    t->close(t);
  }
  fail_pending(L, c, NULL, NULL, NULL);
}

static void deliver(lua_State *L, int list, int nargs);

/* The channel dropped (the far end closed it, or the browser died): the
 * connection closes, and its browser-level "disconnected" handlers
 * (browser:on("disconnected", fn)) get { reason = … } as a task each.
 * Not on a close of our own, which may run in __gc. */
void vdx__conn_lost(vdx_conn *c, const char *reason) {
  if (c->closed) return;
  vdx__conn_close(c, reason);
  lua_State *L = c->L;
  int top = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->subs_ref);
  if (lua_getfield(L, -1, "") == LUA_TTABLE && lua_getfield(L, -1, "disconnected") == LUA_TTABLE) {
    int list = lua_gettop(L);
    lua_createtable(L, 0, 1);
    lua_pushstring(L, c->reason);
    lua_setfield(L, -2, "reason");
    deliver(L, list, 1);
  }
  lua_settop(L, top);
}

static void conn_release(vdx_conn *c) {
  if (!vdx__loop_closed(c->lp)) {
    luaL_unref(c->L, LUA_REGISTRYINDEX, c->pending_ref);
    luaL_unref(c->L, LUA_REGISTRYINDEX, c->subs_ref);
  }
  for (int i = 0; i < c->nobs; i++) free(c->obs[i].sid);
  free(c->obs);
  free(c);
}

static void release_timer_closed(uv_handle_t *h) {
  conn_release(h->data);
  free(h);
}

/*
 * Closes c and frees it on a later loop turn: a finalizer may run in the
 * middle of routing a message of this very connection.
 */
void vdx__conn_free(vdx_conn *c) {
  if (c == NULL) return;
  vdx__conn_close(c, "the connection was freed");
  uv_timer_t *tm = vdx__loop_closed(c->lp) ? NULL : malloc(sizeof *tm);
  if (tm == NULL) {
    conn_release(c);
    return;
  }
  uv_timer_init(vdx__uv_of(c->lp), tm);
  tm->data = c;
  uv_close((uv_handle_t *)tm, release_timer_closed);
}

/* -------------------------------------------------------------- calls */

static void pend_done(vdx_waiter *w, void *data) {
  pend *p = data;
  vdx_conn *c = p->c;
  (void)w;
  if (!vdx__loop_closed(c->lp)) {
    lua_State *L = c->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->pending_ref);
    lua_pushnil(L);
    lua_rawseti(L, -2, p->id);
    lua_pop(L, 1);
  }
  free(p);
}

vdx_waiter *vdx__conn_call(lua_State *L, vdx_conn *c, const char *sid,
                           const char *method, int pidx, int timeout_ms) {
  size_t len;
  const char *json;
  luaL_checkstack(L, 12, "vdx: CDP call");
  if (pidx) pidx = lua_absindex(L, pidx);
  if (c->closed) {
    push_closed(L, c);
    return NULL;
  }
  int64_t id = ++c->next_id;
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, id);
  lua_setfield(L, -2, "id");
  lua_pushstring(L, method);
  lua_setfield(L, -2, "method");
  if (pidx && !lua_isnil(L, pidx)) {
    lua_pushvalue(L, pidx);
    lua_setfield(L, -2, "params");
  }
  if (sid && *sid) {
    lua_pushstring(L, sid);
    lua_setfield(L, -2, "sessionId");
  }
  json = vdx__json_encode(L, -1, &len);
  if (len > VDX_MAX_OUTGOING) {
    lua_pop(L, 2);
    vdx__error_push(L, "MessageTooLarge",
                    "%s: the message is %d MiB; the browser drops messages "
                    "over about 100 MiB, so vdx refuses to send more than %d "
                    "MiB (split the data, or pass it by URL or file)",
                    method, (int)(len >> 20), (int)(VDX_MAX_OUTGOING >> 20));
    return NULL;
  }
  int rc = c->t->send(c->t, json, len);
  lua_pop(L, 2);
  if (vdx__trace_on())
    vdx__trace("cdp > %s #%lld%s", method, (long long)id, sid && *sid ? " (page)" : "");
  if (rc < 0) {
    vdx__conn_close(c, uv_strerror(rc));
    push_closed(L, c);
    return NULL;
  }
  pend *p = calloc(1, sizeof *p);
  vdx_waiter *w = p ? vdx__waiter_new(c->lp, timeout_ms > 0 ? timeout_ms
                                                 : c->timeout_ms, method)
                    : NULL;
  if (w == NULL) {
    free(p);
    vdx__error_push(L, "OutOfMemory", "out of memory");
    return NULL;
  }
  p->c = c;
  p->id = id;
  p->w = w;
  snprintf(p->method, sizeof p->method, "%s", method);
  snprintf(p->sid, sizeof p->sid, "%s", sid ? sid : "");
  vdx__waiter_on_done(w, pend_done, p);
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->pending_ref);
  lua_pushlightuserdata(L, p);
  lua_rawseti(L, -2, id);
  lua_pop(L, 1);
  return w;
}

/* Sends a call nobody waits for (setup steps whose reply does not matter). */
void vdx__conn_send_only(lua_State *L, vdx_conn *c, const char *sid,
                         const char *method, int pidx) {
  vdx_waiter *w = vdx__conn_call(L, c, sid, method, pidx, 0);
  if (w == NULL) { lua_pop(L, 1); return; }
  vdx__waiter_abandon(w);
}

/* ------------------------------------------------------------ routing */

static void reply(vdx_conn *c, lua_State *L, int msg, lua_Integer id) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->pending_ref);
  lua_rawgeti(L, -1, id);
  pend *p = lua_touserdata(L, -1);
  lua_pop(L, 2);
  if (p == NULL) return;        /* timed out earlier: drop the late reply */
  if (vdx__trace_on()) vdx__trace("cdp < %s #%lld", p->method, (long long)id);
  lua_getfield(L, msg, "error");
  if (lua_istable(L, -1)) {
    int e = lua_gettop(L);
    lua_getfield(L, e, "message");
    const char *text = lua_isstring(L, -1) ? lua_tostring(L, -1) : "error";
    vdx__error_push(L, "CDPError", "%s: %s", p->method, text);
    int err = lua_gettop(L);
    lua_getfield(L, e, "code");
    int whole = 0;      /* a code that is no integer (1e309, 1.5) is dropped */
    lua_Integer code = lua_type(L, -1) == LUA_TNUMBER ? lua_tointegerx(L, -1, &whole) : 0;
    if (whole) lua_pushinteger(L, code);
    else lua_pushnil(L);
    lua_setfield(L, err, "code");
    lua_pop(L, 1);
    lua_getfield(L, e, "data");
    lua_setfield(L, err, "data");
    lua_pushstring(L, p->method);
    lua_setfield(L, err, "method");
    lua_replace(L, e);        /* the error takes the error table's slot */
    lua_settop(L, e);
    vdx__waiter_reject(p->w, L);
    return;
  }
  lua_pop(L, 1);
  lua_getfield(L, msg, "result");
  if (!lua_istable(L, -1)) { lua_pop(L, 1); lua_newtable(L); }
  vdx__json_normalize(L, -1, 0);
  vdx__waiter_resolve(p->w, L);
}

static void sweep_observers(vdx_conn *c) {
  int j = 0;
  for (int i = 0; i < c->nobs; i++) {
    if (c->obs[i].dead) { free(c->obs[i].sid); continue; }
    c->obs[j++] = c->obs[i];
  }
  c->nobs = j;
}

static void deliver(lua_State *L, int list, int nargs) {
  /* stack: args… ; list: array of handlers */
  int base = lua_gettop(L) - nargs;
  lua_Integer n = luaL_len(L, list);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, list, i);
    for (int a = 1; a <= nargs; a++) lua_pushvalue(L, base + a);
    vdx__spawn(L, nargs);
    lua_pop(L, 1);
  }
}

static void event(vdx_conn *c, lua_State *L, int msg) {
  lua_getfield(L, msg, "method");
  lua_getfield(L, msg, "sessionId");
  lua_getfield(L, msg, "params");
  if (!lua_istable(L, -1)) { lua_pop(L, 1); lua_newtable(L); }
  vdx__json_normalize(L, -1, 0);
  int params = lua_gettop(L);
  const char *method = lua_tostring(L, params - 2);
  const char *sid = lua_isstring(L, params - 1) ? lua_tostring(L, params - 1) : "";
  if (method == NULL) return;
  if (vdx__trace_on()) vdx__trace("cdp ! %s%s", method, *sid ? " (page)" : "");
  c->dispatching++;
  for (int i = 0; i < c->nobs; i++) {
    observer *o = &c->obs[i];
    if (!o->dead && strcmp(o->sid, sid) == 0) {
      o->cb(L, o->data, sid, method, params);
      lua_settop(L, params);
    }
  }
  c->dispatching--;
  if (c->dispatching == 0) sweep_observers(c);
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->subs_ref);
  lua_getfield(L, -1, sid);
  if (lua_istable(L, -1)) {
    int subs = lua_gettop(L);
    lua_getfield(L, subs, method);
    if (lua_istable(L, -1)) {
      lua_pushvalue(L, params);
      deliver(L, subs + 1, 1);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_getfield(L, subs, "*");
    if (lua_istable(L, -1)) {
      lua_pushstring(L, method);
      lua_pushvalue(L, params);
      deliver(L, subs + 1, 2);
      lua_pop(L, 2);
    }
  }
}

typedef struct rx { vdx_conn *c; const char *data; size_t len; } rx;

/* stack: lightuserdata(rx) -> ; runs in a protected call. */
static int receive_protected(lua_State *L) {
  rx *m = lua_touserdata(L, 1);
  vdx_conn *c = m->c;
  const char *data = m->data;
  size_t len = m->len;
  int top = lua_gettop(L);
  if (!vdx__json_decode(L, data, len) || !lua_istable(L, -1)) {
    fprintf(stderr, "vdx: dropped a message from the browser that is not "
            "a JSON object (%zu bytes): %s\n", len,
            lua_isstring(L, -1) ? lua_tostring(L, -1) : "not an object");
    lua_settop(L, top);
    return 0;
  }
  int msg = lua_gettop(L);
  lua_getfield(L, msg, "id");
  int isnum;
  lua_Integer id = lua_tointegerx(L, -1, &isnum);
  lua_pop(L, 1);
  if (isnum) reply(c, L, msg, id);
  else event(c, L, msg);
  lua_settop(L, top);
  return 0;
}

/*
 * Routes one message.  Runs in a protected call: an error while routing
 * (out of memory, a bug) is reported and never unwinds through libuv.
 */
void vdx__conn_receive(vdx_conn *c, const char *data, size_t len) {
  lua_State *L = c->L;
  rx m = {c, data, len};
  if (c->closed || !lua_checkstack(L, 24)) return;
  lua_pushcfunction(L, receive_protected);
  lua_pushlightuserdata(L, &m);
  vdx__pcall_report(L, 1, "routing a message from the browser");
}

/* ---------------------------------------------------------- subscribers */

void vdx__conn_observe(vdx_conn *c, const char *sid, vdx_event_cb cb,
                       void *data) {
  if (c->nobs == c->capobs) {
    int cap = c->capobs ? c->capobs * 2 : 8;
    observer *o = realloc(c->obs, (size_t)cap * sizeof *o);
    if (o == NULL) return;
    c->obs = o;
    c->capobs = cap;
  }
  observer *o = &c->obs[c->nobs++];
  o->sid = strdup(sid ? sid : "");
  o->cb = cb;
  o->data = data;
  o->dead = 0;
}

void vdx__conn_unobserve(vdx_conn *c, const char *sid, void *data) {
  for (int i = 0; i < c->nobs; i++)
    if (strcmp(c->obs[i].sid, sid ? sid : "") == 0 && c->obs[i].data == data)
      c->obs[i].dead = 1;
  if (c->dispatching == 0) sweep_observers(c);
}

void vdx__conn_on(lua_State *L, vdx_conn *c, const char *sid,
                  const char *method, int fidx) {
  fidx = lua_absindex(L, fidx);
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->subs_ref);
  if (lua_getfield(L, -1, sid) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, sid);
  }
  if (lua_getfield(L, -1, method) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, method);
  }
  lua_pushvalue(L, fidx);
  lua_rawseti(L, -2, luaL_len(L, -2) + 1);
  lua_pop(L, 3);
}

/* Removes every Lua handler of session sid (the page closed). */
void vdx__conn_off_session(vdx_conn *c, const char *sid) {
  lua_State *L = c->L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->subs_ref);
  lua_pushnil(L);
  lua_setfield(L, -2, sid);
  lua_pop(L, 1);
}
