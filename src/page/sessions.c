/*
 * sessions.c -- the child sessions of a page: out-of-process frames and
 * dedicated workers, attached as flattened sessions while paused
 * (frames.c), and what Lua may do with them.
 *
 * page:sessions() lists them; page:on(ev, fn, {sessions=}) sees their
 * events as fn(params, sid); page:session_setup(key, commands) names CDP
 * commands that every NEW child session gets before it is resumed, so a
 * domain such as Fetch is in force before its first request.  Handlers
 * belong to the page, not to one child: a detached child simply stops
 * sending events, and its entry is dropped from the list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"

/* ------------------------------------------------------------ the list */

void vdx__sessions_attached(lua_State *L, vdx_page *p, const char *sid,
                            const char *type, const char *target,
                            const char *url) {
  (void)L;
  if (p->nchild == p->capchild) {
    int cap = p->capchild ? p->capchild * 2 : 8;
    vdx_child *nc = realloc(p->children, (size_t)cap * sizeof *nc);
    if (nc == NULL) return;
    p->children = nc;
    p->capchild = cap;
  }
  vdx_child *c = &p->children[p->nchild++];
  snprintf(c->sid, sizeof c->sid, "%s", sid);
  snprintf(c->type, sizeof c->type, "%s", type ? type : "");
  snprintf(c->target, sizeof c->target, "%s", target ? target : "");
  snprintf(c->url, sizeof c->url, "%s", url ? url : "");
  c->deferred = 0;
}

vdx_child *vdx__sessions_find(vdx_page *p, const char *sid) {
  for (int i = 0; sid && i < p->nchild; i++)
    if (strcmp(p->children[i].sid, sid) == 0) return &p->children[i];
  return NULL;
}

void vdx__sessions_navigated(vdx_page *p, const char *sid,
                             const char *frame_id, const char *url) {
  for (int i = 0; sid && frame_id && url && i < p->nchild; i++) {
    vdx_child *c = &p->children[i];
    if (strcmp(c->sid, sid) == 0 && strcmp(c->target, frame_id) == 0)
      snprintf(c->url, sizeof c->url, "%s", url);
  }
}

int vdx__sessions_detached(vdx_page *p, const char *sid) {
  for (int i = 0; sid && i < p->nchild; i++)
    if (strcmp(p->children[i].sid, sid) == 0) {
      p->children[i] = p->children[--p->nchild];
      return 1;
    }
  return 0;
}

const char *vdx__sessions_check(lua_State *L, vdx_page *p, const char *sid) {
  if (strcmp(sid, p->session_id) == 0) return p->session_id;
  for (int i = 0; i < p->nchild; i++)
    if (strcmp(p->children[i].sid, sid) == 0) return p->children[i].sid;
  vdx__error_raise(L, "InvalidArgument", "session %s is not this page's nor "
                   "one of its child sessions (page:sessions() lists them; "
                   "it may have detached)", sid);
  return NULL;
}

void vdx__sessions_free(lua_State *L, vdx_page *p) {
  free(p->children);
  p->children = NULL;
  p->nchild = p->capchild = 0;
  if (L && p->on_ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, p->on_ref);
  if (L && p->setup_ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, p->setup_ref);
  p->on_ref = p->setup_ref = LUA_NOREF;
}

/* ------------------------------------------------------------ set-up */

/* Sends every command of the set-up list on sid, in registration order.
 * stack: -> (balanced) */
void vdx__sessions_setup(lua_State *L, vdx_page *p, const char *sid) {
  if (p->setup_ref == LUA_NOREF || p->b->conn == NULL) return;
  lua_rawgeti(L, LUA_REGISTRYINDEX, p->setup_ref);
  int list = lua_gettop(L);
  lua_Integer n = luaL_len(L, list);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, list, i);              /* { key, cmds } */
    lua_rawgeti(L, -1, 2);
    int cmds = lua_gettop(L);
    lua_Integer m = luaL_len(L, cmds);
    for (lua_Integer k = 1; k <= m; k++) {
      lua_rawgeti(L, cmds, k);            /* { method, params? } */
      lua_rawgeti(L, -1, 1);
      lua_rawgeti(L, -2, 2);
      vdx__conn_send_only(L, p->b->conn, sid, lua_tostring(L, -2),
                          lua_istable(L, -1) ? lua_gettop(L) : 0);
      lua_pop(L, 3);
    }
    lua_pop(L, 2);
  }
  lua_pop(L, 1);
}

/* Checks a list of { method, params? } at idx (positional). */
static void check_commands(lua_State *L, int idx) {
  luaL_checktype(L, idx, LUA_TTABLE);
  lua_Integer n = luaL_len(L, idx);
  for (lua_Integer i = 1; i <= n; i++) {
    int ok = lua_rawgeti(L, idx, i) == LUA_TTABLE;
    if (ok) {
      ok = lua_rawgeti(L, -1, 1) == LUA_TSTRING;
      int t = lua_rawgeti(L, -2, 2);
      ok = ok && (t == LUA_TNIL || t == LUA_TTABLE);
      lua_pop(L, 2);
    }
    lua_pop(L, 1);
    if (!ok)
      vdx__error_raise(L, "InvalidArgument", "session_setup: command %d must be "
                       "{ \"Domain.method\", params_table_or_nil }", (int)i);
  }
}

/*
 * page:session_setup(key, commands_or_nil) -> true.  commands (a list of
 * { method, params }) are sent, in order, on every child session that
 * attaches from now on, before it runs; a later call with the same key
 * replaces them, nil removes them.  Existing children are not touched:
 * page:sessions() lists them for the caller to do the same there.
 * stack: page, key, commands -> true
 */
static int page_session_setup(lua_State *L) {
  vdx_page *p = vdx__check_open_page(L, 1);
  luaL_checkstring(L, 2);
  if (!lua_isnil(L, 3)) check_commands(L, 3);
  if (p->setup_ref == LUA_NOREF) {
    lua_newtable(L);
    p->setup_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, p->setup_ref);
  int list = lua_gettop(L);
  lua_Integer n = luaL_len(L, list), at = n + 1;
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, list, i);
    lua_rawgeti(L, -1, 1);
    if (lua_rawequal(L, -1, 2)) at = i;
    lua_pop(L, 2);
  }
  if (lua_isnil(L, 3)) {
    if (at <= n) {                          /* remove, keeping the order */
      for (lua_Integer i = at; i < n; i++) {
        lua_rawgeti(L, list, i + 1);
        lua_rawseti(L, list, i);
      }
      lua_pushnil(L);
      lua_rawseti(L, list, n);
    }
  } else {
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, 3);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, list, at);
  }
  lua_pushboolean(L, 1);
  return 1;
}

/*
 * page:frame_bridge([mode]) -> mode.  When an out-of-process frame's
 * document gets the bridge: "deferred" (the default), once the page has
 * loaded or a call needs it, so the bundle's start-up is not part of the
 * page's load; "eager", at the document's start, before its own scripts,
 * as the page's own frames get it.  A mode applies to the child sessions
 * that attach from then on.  stack: page, mode? -> mode
 */
static int page_frame_bridge(lua_State *L) {
  static const char *const modes[] = {"deferred", "eager", NULL};
  vdx_page *p = vdx__check_open_page(L, 1);
  if (!lua_isnoneornil(L, 2)) {
    const char *m = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    int k = -1;
    for (int i = 0; m && modes[i]; i++)
      if (strcmp(m, modes[i]) == 0) k = i;
    if (k < 0)
      vdx__error_raise(L, "InvalidArgument", "page:frame_bridge: mode must be "
                       "\"deferred\" or \"eager\"; got %s",
                       m ? m : luaL_typename(L, 2));
    p->frame_bridge_eager = k == 1;
  }
  lua_pushstring(L, modes[p->frame_bridge_eager ? 1 : 0]);
  return 1;
}

/* page:sessions() -> { { session_id, type, target_id, url }, … }: the
 * page's current child sessions (an out-of-process frame's url is the last
 * its document committed, a worker's its script's). */
static int page_sessions(lua_State *L) {
  vdx_page *p = vdx__check_page(L, 1);
  lua_createtable(L, p->nchild, 0);
  for (int i = 0; i < p->nchild; i++) {
    vdx_child *c = &p->children[i];
    lua_createtable(L, 0, 4);
    lua_pushstring(L, c->sid);
    lua_setfield(L, -2, "session_id");
    lua_pushstring(L, c->type);
    lua_setfield(L, -2, "type");
    lua_pushstring(L, c->target);
    lua_setfield(L, -2, "target_id");
    lua_pushstring(L, c->url);
    lua_setfield(L, -2, "url");
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* ------------------------------------------------------------ events */

void vdx__sessions_on(lua_State *L, vdx_page *p, const char *ev, int fidx,
                      int all) {
  fidx = lua_absindex(L, fidx);
  if (p->on_ref == LUA_NOREF) {
    lua_newtable(L);
    p->on_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, p->on_ref);
  const char *which = all ? "all" : "children";
  if (lua_getfield(L, -1, which) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, which);
  }
  if (lua_getfield(L, -1, ev) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, ev);
  }
  lua_pushvalue(L, fidx);
  lua_rawseti(L, -2, luaL_len(L, -2) + 1);
  lua_pop(L, 3);
}

/* Spawns every function of the list at the top with the nargs values
 * below it.  stack: args…, list -> args… */
static void spawn_all(lua_State *L, int nargs) {
  int list = lua_gettop(L), base = list - nargs - 1;
  lua_Integer n = luaL_len(L, list);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, list, i);
    for (int a = 1; a <= nargs; a++) lua_pushvalue(L, base + a);
    vdx__spawn(L, nargs);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* Delivers method to the handlers of one group ("children" or "all"):
 * fn(params, sid), and "*" handlers fn(method, params, sid).
 * stack: group -> group */
static void deliver(lua_State *L, const char *method, const char *sid,
                    int params) {
  int group = lua_gettop(L);
  if (lua_getfield(L, group, method) == LUA_TTABLE) {
    lua_pushvalue(L, params);
    lua_pushstring(L, sid);
    lua_rotate(L, -3, 2);
    spawn_all(L, 2);
    lua_pop(L, 2);
  } else {
    lua_pop(L, 1);
  }
  if (lua_getfield(L, group, "*") == LUA_TTABLE) {
    lua_pushstring(L, method);
    lua_pushvalue(L, params);
    lua_pushstring(L, sid);
    lua_rotate(L, -4, 3);
    spawn_all(L, 3);
    lua_pop(L, 3);
  } else {
    lua_pop(L, 1);
  }
}

/* The frame of an event with a frameId (Fetch.requestPaused, Network.*)
 * is named for Lua, as everywhere else: params.frame = "main" / "f<K>". */
static void name_frame(lua_State *L, vdx_page *p, int params) {
  if (lua_getfield(L, params, "frameId") == LUA_TSTRING) {
    vdx_frame *f = vdx__frame_find(p, lua_tostring(L, -1));
    if (f) {
      vdx__frame_push_name(L, f);
      lua_setfield(L, params, "frame");
    }
  }
  lua_pop(L, 1);
}

void vdx__sessions_event(lua_State *L, vdx_page *p, const char *sid,
                         const char *method, int params) {
  if (p->on_ref == LUA_NOREF) return;
  int own = strcmp(sid, p->session_id) == 0;
  if (!own) {
    int known = 0;
    for (int i = 0; i < p->nchild && !known; i++)
      known = strcmp(p->children[i].sid, sid) == 0;
    if (!known) return;
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, p->on_ref);
  int tab = lua_gettop(L);
  name_frame(L, p, params);
  if (!own && lua_getfield(L, tab, "children") == LUA_TTABLE)
    deliver(L, method, sid, params);
  lua_settop(L, tab);
  if (lua_getfield(L, tab, "all") == LUA_TTABLE)
    deliver(L, method, sid, params);
  lua_settop(L, tab - 1);
}

void vdx__sessions_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"frame_bridge", page_frame_bridge},
    {"session_setup", page_session_setup},
    {"sessions", page_sessions},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
