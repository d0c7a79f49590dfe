/*
 * frames.c -- the frame lifecycle of a page and calls into each frame's
 * bridge.
 *
 * Every frame's document gets the bridge in an isolated world named "vdx"
 * (Page.addScriptToEvaluateOnNewDocument with runImmediately, registered
 * once per target session).  Contexts are tracked from Runtime events;
 * out-of-process frames are auto-attached as flattened child sessions,
 * set up while paused, then resumed.  A bridge call (bridge_call.c) that
 * finds no context waits for the executionContextCreated event;
 * frameDetached fails it with FrameDetached.  Nothing polls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "nav.h"

#define WORLD "vdx"

/* ------------------------------------------------------------- table */

vdx_frame *vdx__frame_find(vdx_page *p, const char *id) {
  for (int i = 0; id && i < p->nframes; i++)
    if (strcmp(p->frames[i].id, id) == 0) return &p->frames[i];
  return NULL;
}

vdx_frame *vdx__frame_by_ordinal(vdx_page *p, int ordinal) {
  for (int i = 0; i < p->nframes; i++)
    if (p->frames[i].ordinal == ordinal) return &p->frames[i];
  return NULL;
}

const char *vdx__frame_name(const vdx_frame *f, char *buf, size_t n) {
  if (f == NULL) snprintf(buf, n, "?");
  else if (f->ordinal) snprintf(buf, n, "f%d", f->ordinal);
  else snprintf(buf, n, "main");
  return buf;
}

void vdx__frame_push_name(lua_State *L, const vdx_frame *f) {
  char buf[VDX_FRAME_NAME];
  lua_pushstring(L, vdx__frame_name(f, buf, sizeof buf));
}

vdx_frame *vdx__frame_named(lua_State *L, vdx_page *p, int idx) {
  const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
  if (s && strcmp(s, "main") == 0) return &p->frames[0];
  if (s && s[0] == 'f' && s[1] >= '1' && s[1] <= '9') {
    char *end;
    long k = strtol(s + 1, &end, 10);
    vdx_frame *f = *end == '\0' && k < 100000000L ? vdx__frame_by_ordinal(p, (int)k) : NULL;
    if (f) return f;
    if (*end == '\0') {
      vdx__error_push(L, "FrameDetached", "there is no frame %s in this page "
                      "(it was removed or navigated away)", s);
      lua_pushstring(L, s);
      lua_setfield(L, -2, "frame");
      lua_error(L);
    }
  }
  if (s && vdx__ref_parse(s, NULL)) return vdx__ref_frame(L, p, s);
  vdx__error_raise(L, "InvalidArgument", "frame must be a frame's name, "
                   "\"main\" or \"f<K>\" as page:frames() and refs say, or a "
                   "ref (its frame); got %s", s ? s : luaL_typename(L, idx));
  return NULL;
}

static vdx_frame *frame_add(vdx_page *p, const char *id, const char *parent,
                            const char *sid) {
  vdx_frame *f = vdx__frame_find(p, id);
  if (f) {
    if (parent && *parent) snprintf(f->parent, sizeof f->parent, "%s", parent);
    return f;
  }
  if (p->nframes == p->capframes) {
    int cap = p->capframes ? p->capframes * 2 : 8;
    vdx_frame *nf = realloc(p->frames, (size_t)cap * sizeof *nf);
    if (nf == NULL) return NULL;
    p->frames = nf;
    p->capframes = cap;
  }
  f = &p->frames[p->nframes++];
  memset(f, 0, sizeof *f);
  snprintf(f->id, sizeof f->id, "%s", id);
  snprintf(f->parent, sizeof f->parent, "%s", parent ? parent : "");
  snprintf(f->sid, sizeof f->sid, "%s", sid);
  /* Only the page's own frame is 0: a child frame may be reported by its
   * target (attachedToTarget) before its parent says it attached it. */
  f->ordinal = strcmp(id, p->target_id) == 0 ? 0 : ++p->next_ordinal;
  return f;
}

/* ------------------------------------------------------------ events */

static void wake(lua_State *L, vdx_frame *f) {
  bcall *list = f->waiting;
  f->waiting = NULL;
  vdx__bridge_restart(L, list);
}

/* Removes frame id and its descendants, failing what waits on them. */
static void frame_remove(lua_State *L, vdx_page *p, const char *id) {
  char gone[64];
  vdx_frame *f = vdx__frame_find(p, id);
  if (f == NULL || f->ordinal == 0) return;
  snprintf(gone, sizeof gone, "%s", id);
  bcall *list = f->waiting;
  f->waiting = NULL;
  *f = p->frames[--p->nframes];
  vdx__bridge_restart(L, list);   /* the frame is gone: FrameDetached */
  for (int i = 0; i < p->nframes; i++)
    if (strcmp(p->frames[i].parent, gone) == 0) {
      frame_remove(L, p, p->frames[i].id);
      i = -1;                 /* the table changed: start over */
    }
}

static void frame_remove_children(lua_State *L, vdx_page *p, const char *id) {
  for (int i = 0; i < p->nframes; i++)
    if (strcmp(p->frames[i].parent, id) == 0) {
      frame_remove(L, p, p->frames[i].id);
      i = -1;
    }
}

/* Evaluates the bundle in world (a vdx world of a deferred child
 * session, which has no bridge script): sent before any call that wakes
 * on the world, and a session runs its commands in order. */
static void install(lua_State *L, vdx_page *p, const char *sid, int world) {
  size_t len;
  const char *src = vdx__bridge_source(&len);
  lua_createtable(L, 0, 2);
  lua_pushlstring(L, src, len);
  lua_setfield(L, -2, "expression");
  lua_pushinteger(L, world);
  lua_setfield(L, -2, "contextId");
  vdx__conn_send_only(L, p->b->conn, sid, "Runtime.evaluate", -1);
  lua_pop(L, 1);
}

/* A document has loaded (sid's, or the page's when sid is NULL): every
 * frame of a deferred child session there gets its vdx world now
 * (on_context installs the bundle), off the load's path and before the
 * first snapshot asks. */
static void on_loaded(lua_State *L, vdx_page *p, const char *sid) {
  for (int i = 0; i < p->nframes && p->b->conn; i++) {
    vdx_frame *f = &p->frames[i];
    vdx_child *c = f->ordinal ? vdx__sessions_find(p, f->sid) : NULL;
    if (c == NULL || !c->deferred || f->world || f->world_asked) continue;
    if (sid && strcmp(f->sid, sid) != 0) continue;
    vdx__frames_ask_world(L, p, f);
  }
}

/* Asks f's session for f's vdx world (Page.createIsolatedWorld), once:
 * its executionContextCreated event wakes the calls queued on it. */
void vdx__frames_ask_world(lua_State *L, vdx_page *p, vdx_frame *f) {
  f->world_asked = 1;
  lua_createtable(L, 0, 2);
  lua_pushstring(L, f->id);
  lua_setfield(L, -2, "frameId");
  lua_pushliteral(L, WORLD);
  lua_setfield(L, -2, "worldName");
  vdx__conn_send_only(L, p->b->conn, f->sid, "Page.createIsolatedWorld", -1);
  lua_pop(L, 1);
}

static void on_context(lua_State *L, vdx_page *p, const char *sid, int params) {
  lua_getfield(L, params, "context");
  lua_getfield(L, -1, "name");
  const char *name = lua_tostring(L, -1);
  if (name && strcmp(name, WORLD) == 0) {
    lua_getfield(L, -2, "auxData");
    lua_getfield(L, -1, "frameId");
    lua_getfield(L, -4, "id");
    vdx_frame *f = vdx__frame_find(p, lua_tostring(L, -2));
    if (f) {
      f->world = (int)lua_tointeger(L, -1);
      f->world_asked = 0;
      f->doc++;
      snprintf(f->sid, sizeof f->sid, "%s", sid);
      vdx_child *c = vdx__sessions_find(p, sid);
      if (c && c->deferred) install(L, p, sid, f->world);
      wake(L, f);
    }
    lua_pop(L, 3);
  }
  lua_pop(L, 2);
}

static void forget_contexts(vdx_page *p, const char *sid, int id) {
  for (int i = 0; i < p->nframes; i++)
    if (strcmp(p->frames[i].sid, sid) == 0 && (id == 0 || p->frames[i].world == id)) {
      p->frames[i].world = 0;
      p->frames[i].world_asked = 0;
    }
}

static void on_attached(lua_State *L, vdx_page *p, const char *sid, int params) {
  lua_getfield(L, params, "sessionId");
  lua_getfield(L, params, "targetInfo");
  lua_getfield(L, -1, "type");
  lua_getfield(L, -2, "targetId");
  lua_getfield(L, -3, "url");
  const char *child = lua_tostring(L, -5), *type = lua_tostring(L, -3);
  const char *target = lua_tostring(L, -2), *url = lua_tostring(L, -1);
  if (child && type && target && strcmp(type, "iframe") == 0) {
    vdx__sessions_attached(L, p, child, type, target, url);
    vdx_frame *f = frame_add(p, target, NULL, child);
    if (f) {
      snprintf(f->sid, sizeof f->sid, "%s", child);
      f->world = 0;
      f->world_asked = 0;
    }
    vdx__frames_setup(L, p, child, VDX_SETUP_CHILD);
  } else if (child && type && strcmp(type, "worker") == 0) {
    /* A dedicated worker: observed, so Lua handlers of child sessions see
     * its events, and given the page's set-up (Fetch for routes) before
     * it runs. */
    vdx__sessions_attached(L, p, child, type, target, url);
    vdx__page_observe(p, child);
    vdx__sessions_setup(L, p, child);
    vdx__conn_send_only(L, p->b->conn, child, "Runtime.runIfWaitingForDebugger", 0);
  } else if (child) {
    /* Other targets: let them run, we do not drive them. */
    vdx__conn_send_only(L, p->b->conn, child, "Runtime.runIfWaitingForDebugger", 0);
  }
  (void)sid;
  lua_pop(L, 5);
}

static void on_detached_session(lua_State *L, vdx_page *p, int params) {
  lua_getfield(L, params, "sessionId");
  const char *child = lua_tostring(L, -1);
  if (child && vdx__sessions_detached(p, child)) {
    forget_contexts(p, child, 0);
    /* The target is gone, and so are the frames it still owns.  One that
     * attached after its parent had already reported it removed would
     * otherwise stay in the table for good. */
    for (int k = 0; k < p->nframes; k++)
      if (p->frames[k].ordinal != 0 && strcmp(p->frames[k].sid, child) == 0) {
        frame_remove(L, p, p->frames[k].id);
        k = -1;               /* the table changed: start over */
      }
    vdx__conn_unobserve(p->b->conn, child, p);
  }
  lua_pop(L, 1);
}

void vdx__frames_event(lua_State *L, vdx_page *p, const char *sid,
                       const char *method, int params) {
  if (strncmp(method, "Runtime.executionContext", 24) == 0) {
    const char *rest = method + 24;
    if (strcmp(rest, "Created") == 0) {
      on_context(L, p, sid, params);
    } else if (strcmp(rest, "Destroyed") == 0) {
      lua_getfield(L, params, "executionContextId");
      forget_contexts(p, sid, (int)lua_tointeger(L, -1));
      lua_pop(L, 1);
    } else if (strcmp(rest, "sCleared") == 0) {
      forget_contexts(p, sid, 0);
    }
  } else if (strcmp(method, "Page.frameAttached") == 0) {
    lua_getfield(L, params, "frameId");
    lua_getfield(L, params, "parentFrameId");
    vdx_frame *f = lua_isstring(L, -2) ? frame_add(p, lua_tostring(L, -2), lua_tostring(L, -1), sid) : NULL;
    lua_pop(L, 2);
    if (f) vdx__snapshot_tag_early(L, p, f);
  } else if (strcmp(method, "Page.frameNavigated") == 0) {
    lua_getfield(L, params, "frame");
    lua_getfield(L, -1, "id");
    lua_getfield(L, -2, "parentId");
    if (lua_isstring(L, -2)) {
      /* A new document starts without child frames: drop the old ones.
       * A new main document also starts the frame numbering again, as
       * its refs start again at e1. */
      frame_remove_children(L, p, lua_tostring(L, -2));
      vdx_frame *f = frame_add(p, lua_tostring(L, -2), lua_tostring(L, -1), sid);
      if (f && f->ordinal == 0 && p->nframes == 1) p->next_ordinal = 0;
      lua_getfield(L, -3, "url");        /* an out-of-process frame's URL */
      vdx__sessions_navigated(p, sid, lua_tostring(L, -3), lua_tostring(L, -1));
      lua_pop(L, 1);
    }
    lua_pop(L, 3);
  } else if (strcmp(method, "Page.frameDetached") == 0) {
    lua_getfield(L, params, "frameId");
    lua_getfield(L, params, "reason");
    const char *reason = lua_tostring(L, -1);
    if (reason && strcmp(reason, "swap") == 0) {
      /* It moves to its own process and session.  That session may have
       * reported the frame's new context already (the two sessions' events
       * are not ordered): only a context of this session is gone. */
      vdx_frame *f = vdx__frame_find(p, lua_tostring(L, -2));
      if (f && strcmp(f->sid, sid) == 0) f->world = 0;
    } else if (lua_isstring(L, -2)) {
      frame_remove(L, p, lua_tostring(L, -2));
    }
    lua_pop(L, 2);
  } else if (strcmp(method, "Page.loadEventFired") == 0) {
    on_loaded(L, p, strcmp(sid, p->session_id) == 0 ? NULL : sid);
  } else if (strcmp(method, "Target.attachedToTarget") == 0) {
    on_attached(L, p, sid, params);
  } else if (strcmp(method, "Target.detachedFromTarget") == 0) {
    on_detached_session(L, p, params);
  }
}

/* ------------------------------------------------------------- setup */


/*
 * The bridge is registered for every new document of the session.  A
 * session that may have a document already gets it run there too
 * (runImmediately); a blank tab does not: running 160 KB of script in an
 * empty document that the first navigate replaces costs the renderer tens
 * of milliseconds right when the first page loads, and a call made before
 * any navigate gets the bridge injected on demand (bridge_call.c).
 */
void vdx__frames_setup(lua_State *L, vdx_page *p, const char *sid, int what) {
  int child = what == VDX_SETUP_CHILD;
  vdx_conn *c = p->b->conn;
  size_t len;
  const char *src = vdx__bridge_source(&len);
  if (c == NULL) return;
  if (child) vdx__page_observe(p, sid);
  vdx__conn_send_only(L, c, sid, "Page.enable", 0);
  vdx__conn_send_only(L, c, sid, "Runtime.enable", 0);
  vdx_child *deferred = child && !p->frame_bridge_eager ? vdx__sessions_find(p, sid) : NULL;
  if (deferred) {
    deferred->deferred = 1;           /* its worlds get the bundle when made */
  } else {
    lua_createtable(L, 0, 3);
    lua_pushlstring(L, src, len);
    lua_setfield(L, -2, "source");
    lua_pushliteral(L, WORLD);
    lua_setfield(L, -2, "worldName");
    lua_pushboolean(L, what != VDX_SETUP_BLANK);
    lua_setfield(L, -2, "runImmediately");
    vdx__conn_send_only(L, c, sid, "Page.addScriptToEvaluateOnNewDocument", -1);
    lua_pop(L, 1);
  }
  if (!child) {
    lua_createtable(L, 0, 2);
    lua_pushliteral(L, VDX_LOADED_BINDING);
    lua_setfield(L, -2, "name");
    lua_pushliteral(L, WORLD);
    lua_setfield(L, -2, "executionContextName");
    vdx__conn_send_only(L, c, sid, "Runtime.addBinding", -1);
    lua_pop(L, 1);
  }
  lua_createtable(L, 0, 3);
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "autoAttach");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "waitForDebuggerOnStart");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "flatten");
  vdx__conn_send_only(L, c, sid, "Target.setAutoAttach", -1);
  lua_pop(L, 1);
  if (child) {
    vdx__sessions_setup(L, p, sid);      /* before its first request */
    vdx__conn_send_only(L, c, sid, "Runtime.runIfWaitingForDebugger", 0);
  }
}

void vdx__frames_clear(lua_State *L, vdx_page *p, const char *why) {
  (void)why;
  for (int i = 0; i < p->nframes; i++) {
    bcall *list = p->frames[i].waiting;
    p->frames[i].waiting = NULL;
    vdx__bridge_restart(L, list);   /* closed or crashed: fails them */
  }
}
