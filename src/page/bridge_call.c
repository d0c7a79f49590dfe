/*
 * bridge_call.c -- the one road into a frame's bridge (vdx__bridge_call,
 * vdx__bridge_call_opts) and the embedded files of the bridge.
 *
 * A call sends Runtime.callFunctionOn in the frame's isolated world "vdx"
 * with bridge/host/call.js, which checks the bridge's version and hands the
 * call to the bridge's envelope (__vdxBridge.call, bridge/src/call.js):
 * one method of the frame's bridge instance, an unknown method answered
 * with UnknownMethod.  A frame without a context queues the call until the
 * frame reports one (frames.c restarts the queue); a call that races a
 * navigation is retried on the new context, up to four tries; a missing
 * bridge is injected once.  A call on a frame's owner element (the iframe,
 * as `this` in the parent's bridge) first resolves that element in the
 * parent's world, again on every new context.  Nothing polls.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"

#define MAX_TRIES 4
#define CALL_JS "bridge/host/call.js"

struct bcall {
  vdx_page *p;
  char frame[64];         /* the CDP id, for the frame table only */
  char name[VDX_FRAME_NAME];       /* the frame's name for errors: "f3" */
  char owner_name[VDX_FRAME_NAME]; /* the name of the frame owner_of names */
  char method[40];
  char owner[64];        /* a child frame whose owner element is `this`, or "" */
  char owner_obj[128];   /* that element in the world owner_world */
  int owner_world, by_ref;
  int args_ref;
  vdx_waiter *out;       /* NULL once the caller's waiter has completed */
  int tries, injected, queued, inflight, world;
  uint64_t deadline;
  bcall *next;
};

typedef struct embedded { const char *name, *path; const unsigned char *data; size_t len; } embedded;
extern const embedded vdx_bridge_files[];
static const embedded *embedded_find(const char *path);

static void bc_send(lua_State *L, bcall *bc);
static void bc_start(lua_State *L, bcall *bc);

/* ------------------------------------------------------- bridge calls */

static void bc_free_if_done(bcall *bc) {
  if (bc->out || bc->queued || bc->inflight) return;
  if (!vdx__loop_closed(bc->p->b->lp))
    luaL_unref(vdx__main_state(bc->p->b->lp), LUA_REGISTRYINDEX, bc->args_ref);
  free(bc);
}

static void bc_out_done(vdx_waiter *w, void *data) {
  bcall *bc = data;
  (void)w;
  bc->out = NULL;
  if (bc->queued) {                   /* timed out while waiting: unqueue */
    vdx_frame *f = vdx__frame_find(bc->p, bc->frame);
    for (bcall **pp = f ? &f->waiting : NULL; pp && *pp; pp = &(*pp)->next)
      if (*pp == bc) { *pp = bc->next; break; }
    bc->queued = 0;
  }
  bc_free_if_done(bc);
}

static void bc_reject_top(lua_State *L, bcall *bc) {
  if (bc->out) vdx__waiter_reject(bc->out, L);
  else lua_pop(L, 1);
}

/* Sets the frame fact of the error on top: the frame's name ("main",
 * "f1"), the one frame identity vdx emits, taken when the call began. */
static void bc_set_frame(lua_State *L, bcall *bc) {
  lua_pushstring(L, bc->name);
  lua_setfield(L, -2, "frame");
}

static void bc_fail(lua_State *L, bcall *bc, const char *type,
                    const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  vdx__error_push(L, type, "%s", lua_tostring(L, -1));
  lua_remove(L, -2);
  bc_set_frame(L, bc);
  bc_reject_top(L, bc);
}

/* Copies the typed error the bridge returned ({type, message, fields}). */
static void bc_bridge_error(lua_State *L, bcall *bc, int err) {
  lua_getfield(L, err, "type");
  lua_getfield(L, err, "message");
  const char *type = luaL_optstring(L, -2, "BridgeError");
  const char *msg = luaL_optstring(L, -1, "bridge error");
  vdx__error_push(L, type, "%s", msg);
  int e = lua_gettop(L);
  lua_getfield(L, err, "fields");
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_settable(L, e);
    }
  }
  lua_settop(L, e);
  bc_set_frame(L, bc);
  lua_remove(L, e - 1);
  lua_remove(L, e - 2);
  bc_reject_top(L, bc);
}

static int is_context_loss(lua_State *L, int err) {
  lua_getfield(L, err, "type");
  int cdp = lua_isstring(L, -1) && strcmp(lua_tostring(L, -1), "CDPError") == 0;
  lua_pop(L, 1);
  if (!cdp) return 0;
  lua_getfield(L, err, "message");
  const char *m = lua_tostring(L, -1);
  int lost = m && (strstr(m, "context") || strstr(m, "navigated or closed") ||
                   strstr(m, "No frame"));
  lua_pop(L, 1);
  return lost;
}

/* Sends method with the params at the top of L on session sid for bc;
 * cb gets the answer.  stack: params -> */
static void bc_cdp(lua_State *L, bcall *bc, const char *sid,
                   const char *method, vdx_then_cb cb) {
  vdx_conn *c = bc->p->b->conn;
  if (c == NULL) {
    lua_pop(L, 1);
    bc_fail(L, bc, "BrowserClosed", "the browser is closed");
    return;
  }
  uv_loop_t *uv = vdx__uv_of(bc->p->b->lp);
  int left = (int)(bc->deadline > uv_now(uv) ? bc->deadline - uv_now(uv) : 1);
  vdx_waiter *w = vdx__conn_call(L, c, sid, method, -1, left);
  if (w == NULL) { lua_remove(L, -2); bc_reject_top(L, bc); return; }
  lua_pop(L, 1);
  bc->inflight = 1;
  vdx__waiter_then(w, cb, bc);
}

/* A failed CDP step: tried again on the frame's next context when the
 * context died under it, else the caller gets the error. */
static void bc_retry_or_reject(lua_State *L, bcall *bc) {
  if (is_context_loss(L, 1) && bc->tries < MAX_TRIES) {
    vdx_frame *f = vdx__frame_find(bc->p, bc->frame);
    if (f && f->world == bc->world) f->world = 0;   /* its destroy event is late */
    lua_settop(L, 0);
    bc_start(L, bc);
    return;
  }
  bc_reject_top(L, bc);
}

static void bc_injected(void *data, lua_State *L, int ok) {
  bcall *bc = data;
  (void)ok;
  bc->inflight = 0;
  lua_settop(L, 0);
  if (bc->out == NULL) { bc_free_if_done(bc); return; }
  bc_send(L, bc);
}

static void bc_inject(lua_State *L, bcall *bc, vdx_frame *f) {
  size_t len;
  const char *src = vdx__bridge_source(&len);
  bc->injected = 1;
  lua_createtable(L, 0, 2);
  lua_pushlstring(L, src, len);
  lua_setfield(L, -2, "expression");
  lua_pushinteger(L, f->world);
  lua_setfield(L, -2, "contextId");
  bc_cdp(L, bc, f->sid, "Runtime.evaluate", bc_injected);
}

/* The answer of a by-reference call (result at r): the remote object id
 * of the method's value, or the envelope pushed (its JSON text decoded)
 * when the call did not succeed.  Returns 1 when it resolved bc. */
static int bc_by_ref(lua_State *L, bcall *bc, int r) {
  size_t len;
  lua_getfield(L, r, "type");
  int text = lua_isstring(L, -1) && strcmp(lua_tostring(L, -1), "string") == 0;
  lua_pop(L, 1);
  if (text) {
    lua_getfield(L, r, "value");
    const char *json = lua_tolstring(L, -1, &len);
    if (json && vdx__json_decode(L, json, len)) return 0;
    lua_settop(L, r);
    lua_pushnil(L);                      /* not an envelope: no value */
    return 0;
  }
  if (lua_getfield(L, r, "objectId") != LUA_TSTRING) { lua_pop(L, 1); lua_pushnil(L); }
  vdx__waiter_resolve(bc->out, L);
  return 1;
}

/* The bridge's answer to the call: { ok } / { err } / { missing } /
 * { mismatch } from bridge/host/call.js. */
static void bc_reply(void *data, lua_State *L, int ok) {
  bcall *bc = data;
  bc->inflight = 0;
  if (bc->out == NULL) { bc_free_if_done(bc); return; }
  if (!ok) { bc_retry_or_reject(L, bc); return; }
  lua_getfield(L, 1, "exceptionDetails");
  if (lua_istable(L, -1)) {
    const char *desc = NULL;
    if (lua_getfield(L, -1, "exception") == LUA_TTABLE &&
        lua_getfield(L, -1, "description") == LUA_TSTRING)
      desc = lua_tostring(L, -1);
    bc_fail(L, bc, "BridgeError", "bridge.%s threw: %s", bc->method,
            desc ? desc : "an exception");
    return;
  }
  lua_getfield(L, 1, "result");
  if (bc->by_ref) {
    if (bc_by_ref(L, bc, lua_gettop(L))) return;
  } else {
    lua_getfield(L, -1, "value");
  }
  int v = lua_gettop(L);
  if (!lua_istable(L, v)) {
    bc_fail(L, bc, "BridgeError", "the bridge answered no value");
    return;
  }
  if (lua_getfield(L, v, "missing") != LUA_TNIL) {
    vdx_frame *f = vdx__frame_find(bc->p, bc->frame);
    lua_settop(L, 0);
    if (bc->injected) {
      bc_fail(L, bc, "BridgeError", "the bridge could not be installed in "
              "frame %s", bc->name);
    } else if (f == NULL || f->world != bc->world) {
      bc_start(L, bc);
    } else {
      bc_inject(L, bc, f);
    }
    return;
  }
  lua_settop(L, v);
  if (lua_getfield(L, v, "err") == LUA_TTABLE) {
    bc_bridge_error(L, bc, lua_gettop(L));
    return;
  }
  lua_settop(L, v);
  if (lua_getfield(L, v, "mismatch") == LUA_TNIL) {
    lua_getfield(L, v, "ok");           /* absent: the method returned undefined */
    if (lua_type(L, -1) == LUA_TLIGHTUSERDATA) { lua_pop(L, 1); lua_pushnil(L); }
    vdx__waiter_resolve(bc->out, L);
    return;
  }
  bc_fail(L, bc, "BridgeVersionMismatch", "the frame has bridge %s, this "
          "host needs %s (another vdx version injected it; reload the page)",
          luaL_optstring(L, -1, "?"), vdx__bridge_version());
}

/* Sends bridge/host/call.js to frame f: in its world, or on the owner
 * element resolved there. */
static void bc_call(lua_State *L, bcall *bc, vdx_frame *f) {
  const embedded *fn = embedded_find(CALL_JS);
  lua_createtable(L, 0, 5);
  lua_pushlstring(L, (const char *)fn->data, fn->len);
  lua_setfield(L, -2, "functionDeclaration");
  if (bc->owner[0]) lua_pushstring(L, bc->owner_obj);
  else lua_pushinteger(L, f->world);
  lua_setfield(L, -2, bc->owner[0] ? "objectId" : "executionContextId");
  lua_pushboolean(L, !bc->by_ref);
  lua_setfield(L, -2, "returnByValue");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "awaitPromise");
  lua_createtable(L, 6, 0);
  for (int i = 1; i <= 6; i++) {
    lua_createtable(L, 0, 1);
    switch (i) {
    case 1:
      if (f->ordinal) lua_pushfstring(L, "f%d", f->ordinal);
      else lua_pushliteral(L, "");
      break;
    case 2: lua_pushstring(L, bc->method); break;
    case 3: lua_rawgeti(L, LUA_REGISTRYINDEX, bc->args_ref); break;
    case 4: lua_pushstring(L, vdx__bridge_version()); break;
    case 5: lua_pushboolean(L, bc->owner[0] != '\0'); break;
    default: lua_pushboolean(L, bc->by_ref); break;
    }
    lua_setfield(L, -2, "value");
    lua_rawseti(L, -2, i);
  }
  lua_setfield(L, -2, "arguments");
  bc_cdp(L, bc, f->sid, "Runtime.callFunctionOn", bc_reply);
}

/* The steps that find the owner element of bc->owner in the world of bc's
 * frame: DOM.getFrameOwner answers its node, DOM.resolveNode the object. */
static void bc_owner(void *data, lua_State *L, int ok) {
  bcall *bc = data;
  bc->inflight = 0;
  if (bc->out == NULL) { bc_free_if_done(bc); return; }
  if (!ok) { bc_retry_or_reject(L, bc); return; }
  vdx_frame *f = vdx__frame_find(bc->p, bc->frame);
  if (f == NULL || f->world != bc->world) { lua_settop(L, 0); bc_start(L, bc); return; }
  if (lua_getfield(L, 1, "backendNodeId") != LUA_TNIL) {
    lua_createtable(L, 0, 2);
    lua_insert(L, -2);
    lua_setfield(L, -2, "backendNodeId");
    lua_pushinteger(L, f->world);
    lua_setfield(L, -2, "executionContextId");
    bc_cdp(L, bc, f->sid, "DOM.resolveNode", bc_owner);
    return;
  }
  lua_getfield(L, 1, "object");
  const char *id = lua_istable(L, -1) && lua_getfield(L, -1, "objectId") == LUA_TSTRING
                   ? lua_tostring(L, -1) : NULL;
  if (id == NULL || strlen(id) >= sizeof bc->owner_obj) {
    lua_settop(L, 0);
    bc_fail(L, bc, "FrameDetached", "the owner element of frame %s is gone",
            bc->owner_name);
    return;
  }
  snprintf(bc->owner_obj, sizeof bc->owner_obj, "%s", id);
  bc->owner_world = f->world;
  lua_settop(L, 0);
  bc_call(L, bc, f);
}

/* One try: on the frame's current context, after finding the owner element
 * there when the call is made on one. */
static void bc_send(lua_State *L, bcall *bc) {
  luaL_checkstack(L, 24, "vdx: bridge call");
  vdx_frame *f = vdx__frame_find(bc->p, bc->frame);
  if (f == NULL || f->world == 0) { bc_start(L, bc); return; }
  bc->tries++;
  bc->world = f->world;
  if (bc->owner[0] && bc->owner_world != f->world) {
    lua_createtable(L, 0, 1);
    lua_pushstring(L, bc->owner);
    lua_setfield(L, -2, "frameId");
    bc_cdp(L, bc, f->sid, "DOM.getFrameOwner", bc_owner);
    return;
  }
  bc_call(L, bc, f);
}

/* Sends now, or queues bc on its frame until the frame has a context. */
static void bc_start(lua_State *L, bcall *bc) {
  vdx_page *p = bc->p;
  vdx_frame *f = vdx__frame_find(p, bc->frame);
  if (p->closed) {
    bc_fail(L, bc, p->b->closed ? "BrowserClosed" : "PageClosed",
            "the page is closed (%s)", p->close_reason);
    return;
  }
  if (p->crashed) {
    bc_fail(L, bc, "PageCrashed", "%s", VDX_CRASHED_MSG);
    return;
  }
  if (f == NULL) {
    bc_fail(L, bc, "FrameDetached", "frame %s is detached (it was removed or "
            "navigated away)", bc->name);
    return;
  }
  if (bc->tries >= MAX_TRIES) {
    bc_fail(L, bc, "FrameDetached", "frame %s kept losing its context", bc->name);
    return;
  }
  if (f->world == 0) {
    bc->queued = 1;
    bc->next = f->waiting;
    f->waiting = bc;
    if (!f->world_asked && p->b->conn) {
      /* The world normally comes with the document (the script registered
       * for new documents), but a frame attached after its document had
       * started never gets it: ask for it.  Its executionContextCreated
       * event wakes the queue; a world without the bridge gets it injected. */
      vdx__frames_ask_world(L, p, f);
    }
    return;
  }
  bc_send(L, bc);
}

vdx_waiter *vdx__bridge_call_opts(lua_State *L, vdx_page *p,
                                  const char *frame_id, const char *method,
                                  int args_idx, int timeout_ms,
                                  const vdx_bridge_opts *o) {
  luaL_checkstack(L, 24, "vdx: bridge call");
  args_idx = lua_absindex(L, args_idx);
  if (timeout_ms <= 0) timeout_ms = vdx__conn_default_timeout(p->b->conn);
  bcall *bc = calloc(1, sizeof *bc);
  vdx_waiter *w = bc ? vdx__waiter_new(p->b->lp, timeout_ms, method) : NULL;
  if (w == NULL) { free(bc); return NULL; }
  bc->p = p;
  snprintf(bc->frame, sizeof bc->frame, "%s", frame_id);
  vdx__frame_name(vdx__frame_find(p, frame_id), bc->name, sizeof bc->name);
  snprintf(bc->method, sizeof bc->method, "%s", method);
  if (o && o->owner_of) {
    snprintf(bc->owner, sizeof bc->owner, "%s", o->owner_of);
    vdx__frame_name(vdx__frame_find(p, o->owner_of), bc->owner_name,
                    sizeof bc->owner_name);
  }
  bc->by_ref = o && o->by_ref;
  lua_pushvalue(L, args_idx);
  bc->args_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  bc->out = w;
  uv_update_time(vdx__uv_of(p->b->lp));
  bc->deadline = uv_now(vdx__uv_of(p->b->lp)) + (uint64_t)timeout_ms;
  vdx__waiter_on_done(w, bc_out_done, bc);
  bc_start(L, bc);
  return w;
}

vdx_waiter *vdx__bridge_call(lua_State *L, vdx_page *p, const char *frame_id,
                             const char *method, int args_idx, int timeout_ms) {
  return vdx__bridge_call_opts(L, p, frame_id, method, args_idx, timeout_ms, NULL);
}

void vdx__bridge_restart(lua_State *L, bcall *list) {
  while (list) {
    bcall *bc = list, *next = bc->next;
    bc->queued = 0;
    bc->next = NULL;
    if (bc->out) bc_start(L, bc);
    else bc_free_if_done(bc);
    list = next;
  }
}

/* --------------------------------------------------------- the bundle */

/* The embedded file at path (as the Makefile's BRIDGE list names it). */
static const embedded *embedded_find(const char *path) {
  for (const embedded *e = vdx_bridge_files; e->path; e++)
    if (strcmp(e->path, path) == 0) return e;
  return NULL;
}

const char *vdx__embedded_file(const char *path, size_t *len) {
  const embedded *e = embedded_find(path);
  if (e == NULL) return NULL;
  *len = e->len;
  return (const char *)e->data;
}

const char *vdx__bridge_source(size_t *len) {
  *len = vdx_bridge_files[0].len;
  return (const char *)vdx_bridge_files[0].data;
}

/* vdx.page_script(name [, bare]): the text of bridge/page/NAME.js, a
 * script the build embeds beside the bundle for Lua code to run in a
 * page's main world (the read-only evaluate's wrapper).  bare true drops
 * the file's leading comment lines ("//"), leaving the function
 * expression a caller wraps in a call.  An unknown name raises
 * InvalidArgument. */
int vdx__l_page_script(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  int bare = lua_toboolean(L, 2);
  char path[256];
  int n = snprintf(path, sizeof path, "bridge/page/%s.js", name);
  const embedded *e = n > 0 && (size_t)n < sizeof path ? embedded_find(path) : NULL;
  if (e) {
    const char *s = (const char *)e->data, *end = s + e->len;
    while (bare && end - s >= 2 && s[0] == '/' && s[1] == '/') {
      const char *nl = memchr(s, '\n', (size_t)(end - s));
      s = nl ? nl + 1 : end;
    }
    lua_pushlstring(L, s, (size_t)(end - s));
    return 1;
  }
  return vdx__error_raise(L, "InvalidArgument",
                          "vdx.page_script: no embedded script %s; the names are the files of bridge/page/ "
                          "without .js, e.g. \"evaluate-serialize\"", name);
}

/* The version in the bundle's banner, its first line: vdx-bridge X. */
const char *vdx__bridge_version(void) {
  static char v[32];
  if (!*v) {
    const char *s = (const char *)vdx_bridge_files[0].data;
    const char *at = strstr(s, "vdx-bridge ");
    size_t n = 0;
    if (at) {
      at += strlen("vdx-bridge ");
      while (n < sizeof v - 1 && at[n] && at[n] != ' ' && at[n] != '*') n++;
      memcpy(v, at, n);
    }
    v[n] = '\0';
  }
  return v;
}
