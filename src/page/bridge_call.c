/*
 * bridge_call.c -- calls into a frame's bridge (vdx__bridge_call) and the
 * embedded bundle.
 *
 * A call sends Runtime.callFunctionOn in the frame's isolated world "vdx"
 * with a small function that checks the bridge's version and calls one
 * method of the frame's bridge instance.  A frame without a context queues
 * the call until the frame reports one (frames.c restarts the queue); a
 * call that races a navigation is retried on the new context, up to four
 * tries; a missing bridge is injected once.  Nothing polls.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"

#define WORLD "vdx"
#define MAX_TRIES 4

/* Runs in the isolated world: version check, then one bridge method. */
static const char CALL_FN[] =
  "function (prefix, method, args, version) {\n"
  "  const B = globalThis.__vdxBridge;\n"
  "  if (!B) return { missing: true };\n"
  "  if (B.version !== version) return { mismatch: B.version };\n"
  "  const fail = (e) => {\n"
  "    return { err: { type: (e && e.vdxType) || 'BridgeError',\n"
  "                    message: String(e && e.message || e),\n"
  "                    fields: (e && e.vdxFields) || null } };\n"
  "  };\n"
  "  try {\n"
  "    const inst = B.instance(prefix);\n"
  "    const r = inst[method].apply(inst, Array.isArray(args) ? args : []);\n"
  "    /* An asynchronous method (waits in the page): its settled value. */\n"
  "    if (r instanceof Promise) return r.then((v) => ({ ok: v }), fail);\n"
  "    return { ok: r };\n"
  "  } catch (e) {\n"
  "    return fail(e);\n"
  "  }\n"
  "}";

struct bcall {
  vdx_page *p;
  char frame[64];
  char method[40];
  int args_ref;
  vdx_waiter *out;       /* NULL once the caller's waiter has completed */
  int tries, injected, queued, inflight, ctx;
  uint64_t deadline;
  bcall *next;
};

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

/* Sets the frame facts of the error on top: frame, the name refs and
 * page:bridge{frame=} use ("main", "f1"), and frame_id, the CDP id, which
 * means nothing to a reader. */
static void bc_set_frame(lua_State *L, bcall *bc) {
  vdx_frame *f = vdx__frame_find(bc->p, bc->frame);
  if (f && f->ordinal) lua_pushfstring(L, "f%d", f->ordinal);
  else if (f) lua_pushliteral(L, "main");
  else lua_pushnil(L);
  lua_setfield(L, -2, "frame");
  lua_pushstring(L, bc->frame);
  lua_setfield(L, -2, "frame_id");
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
  lua_pushinteger(L, f->ctx);
  lua_setfield(L, -2, "contextId");
  vdx_waiter *w = vdx__conn_call(L, bc->p->b->conn, f->sid, "Runtime.evaluate",
                                 -1, 0);
  if (w == NULL) { lua_remove(L, -2); bc_reject_top(L, bc); return; }
  lua_pop(L, 1);
  bc->inflight = 1;
  vdx__waiter_then(w, bc_injected, bc);
}

static void bc_reply(void *data, lua_State *L, int ok) {
  bcall *bc = data;
  bc->inflight = 0;
  if (bc->out == NULL) { bc_free_if_done(bc); return; }
  if (!ok) {
    if (is_context_loss(L, 1) && bc->tries < MAX_TRIES) {
      vdx_frame *f = vdx__frame_find(bc->p, bc->frame);
      if (f && f->ctx == bc->ctx) f->ctx = 0;   /* its destroy event is late */
      lua_settop(L, 0);
      bc_start(L, bc);
      return;
    }
    bc_reject_top(L, bc);
    return;
  }
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
  lua_getfield(L, -1, "value");
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
              "frame %s", bc->frame);
    } else if (f == NULL || f->ctx != bc->ctx) {
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

static void bc_send(lua_State *L, bcall *bc) {
  luaL_checkstack(L, 24, "vdx: bridge call");
  vdx_page *p = bc->p;
  vdx_frame *f = vdx__frame_find(p, bc->frame);
  if (f == NULL || f->ctx == 0) { bc_start(L, bc); return; }
  uv_loop_t *uv = vdx__uv_of(p->b->lp);
  int left = (int)(bc->deadline > uv_now(uv) ? bc->deadline - uv_now(uv) : 1);
  bc->tries++;
  bc->ctx = f->ctx;
  lua_createtable(L, 0, 5);
  lua_pushstring(L, CALL_FN);
  lua_setfield(L, -2, "functionDeclaration");
  lua_pushinteger(L, f->ctx);
  lua_setfield(L, -2, "executionContextId");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "returnByValue");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "awaitPromise");
  lua_createtable(L, 4, 0);
  for (int i = 1; i <= 4; i++) {
    lua_createtable(L, 0, 1);
    if (i == 1) {
      if (f->ordinal) lua_pushfstring(L, "f%d_", f->ordinal);
      else lua_pushliteral(L, "");
    } else if (i == 2) {
      lua_pushstring(L, bc->method);
    } else if (i == 3) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, bc->args_ref);
    } else {
      lua_pushstring(L, vdx__bridge_version());
    }
    lua_setfield(L, -2, "value");
    lua_rawseti(L, -2, i);
  }
  lua_setfield(L, -2, "arguments");
  if (p->b->conn == NULL) { lua_pop(L, 1); bc_fail(L, bc, "BrowserClosed", "the browser is closed"); return; }
  vdx_waiter *w = vdx__conn_call(L, p->b->conn, f->sid, "Runtime.callFunctionOn",
                                 -1, left);
  if (w == NULL) { lua_remove(L, -2); bc_reject_top(L, bc); return; }
  lua_pop(L, 1);
  bc->inflight = 1;
  vdx__waiter_then(w, bc_reply, bc);
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
            "navigated away); take a new snapshot", bc->frame);
    return;
  }
  if (bc->tries >= MAX_TRIES) {
    bc_fail(L, bc, "FrameDetached", "frame %s kept losing its context", bc->frame);
    return;
  }
  if (f->ctx == 0) {
    bc->queued = 1;
    bc->next = f->waiting;
    f->waiting = bc;
    if (!f->world_asked && p->b->conn) {
      /* The world normally comes with the document (the script registered
       * for new documents), but a frame attached after its document had
       * started never gets it: ask for it.  Its executionContextCreated
       * event wakes the queue; a world without the bridge gets it injected. */
      f->world_asked = 1;
      lua_createtable(L, 0, 2);
      lua_pushstring(L, f->id);
      lua_setfield(L, -2, "frameId");
      lua_pushliteral(L, WORLD);
      lua_setfield(L, -2, "worldName");
      vdx__conn_send_only(L, p->b->conn, f->sid, "Page.createIsolatedWorld", -1);
      lua_pop(L, 1);
    }
    return;
  }
  bc_send(L, bc);
}

vdx_waiter *vdx__bridge_call(lua_State *L, vdx_page *p, const char *frame_id,
                             const char *method, int args_idx, int timeout_ms) {
  luaL_checkstack(L, 24, "vdx: bridge call");
  args_idx = lua_absindex(L, args_idx);
  if (timeout_ms <= 0) timeout_ms = vdx__conn_default_timeout(p->b->conn);
  bcall *bc = calloc(1, sizeof *bc);
  vdx_waiter *w = bc ? vdx__waiter_new(p->b->lp, timeout_ms, method) : NULL;
  if (w == NULL) { free(bc); return NULL; }
  bc->p = p;
  snprintf(bc->frame, sizeof bc->frame, "%s", frame_id);
  snprintf(bc->method, sizeof bc->method, "%s", method);
  lua_pushvalue(L, args_idx);
  bc->args_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  bc->out = w;
  uv_update_time(vdx__uv_of(p->b->lp));
  bc->deadline = uv_now(vdx__uv_of(p->b->lp)) + (uint64_t)timeout_ms;
  vdx__waiter_on_done(w, bc_out_done, bc);
  bc_start(L, bc);
  return w;
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

typedef struct { const char *name, *path; const unsigned char *data; size_t len; } embedded;
extern const embedded vdx_bridge_files[];

const char *vdx__bridge_source(size_t *len) {
  *len = vdx_bridge_files[0].len;
  return (const char *)vdx_bridge_files[0].data;
}

/* vdx.page_script(name): the text of bridge/page/NAME.js, a script the
 * build embeds beside the bundle for Lua code to run in a page's main
 * world (the evaluate effect watch).  An unknown name raises InvalidArgument. */
int vdx__l_page_script(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  char path[256];
  int n = snprintf(path, sizeof path, "bridge/page/%s.js", name);
  if (n > 0 && (size_t)n < sizeof path) {
    for (const embedded *e = vdx_bridge_files; e->path; e++) {
      if (strcmp(e->path, path) == 0) {
        lua_pushlstring(L, (const char *)e->data, e->len);
        return 1;
      }
    }
  }
  return vdx__error_raise(L, "InvalidArgument",
                          "vdx.page_script: no embedded script %s; the names are the files of bridge/page/ "
                          "without .js, e.g. \"effects-watch\"", name);
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
