/*
 * tabs.c -- the tabs of a context: popups and tabs a page opens are
 * adopted as vdx.Page objects of the opener's context as soon as the
 * browser reports them (Target.targetCreated with an opener), so they show
 * up in ctx:pages(); page:bring_to_front().
 *
 * An adopted page is held in the registry until its target is destroyed,
 * so it stays the same object however often ctx:pages() is called.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "events.h"
#include "task.h"

#define POPUPS_KEY "vdx.popups"   /* registry: targetId -> adopted page */

typedef struct adopt {
  vdx_browser *b;
  int ctx_ref;
  char target[64];
} adopt;

/* The adoptions under way and the ctx:pages() calls waiting for them to
 * end are the browser's (b->adopting, b->awaiting). */
static void waiter_gone(vdx_waiter *w, void *data) {
  vdx_browser *b = data;
  for (int i = 0; i < b->nawaiting; i++)
    if (b->awaiting[i] == w) { b->awaiting[i] = b->awaiting[--b->nawaiting]; return; }
}

static void adoption_over(lua_State *L, vdx_browser *b) {
  if (--b->adopting > 0) return;
  while (b->nawaiting > 0) {
    lua_pushboolean(L, 1);
    vdx__waiter_resolve(b->awaiting[0], L);   /* waiter_gone edits the array */
  }
}

static void push_popups(lua_State *L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, POPUPS_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, POPUPS_KEY);
  }
}

static void adopt_attached(void *data, lua_State *L, int ok) {
  adopt *a = data;
  vdx_conn *c = a->b->conn;
  if (ok && c && !a->b->closed) {
    lua_getfield(L, 1, "sessionId");
    const char *sid = lua_tostring(L, -1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, a->ctx_ref);
    if (sid && vdx__check_context(L, -1)) {
      int ctx = lua_gettop(L);
      vdx_page *p = vdx__page_push(L, ctx, a->target, sid);
      push_popups(L);
      lua_pushvalue(L, -2);
      lua_setfield(L, -2, a->target);
      lua_pop(L, 1);
      vdx__frames_setup(L, p, p->session_id, VDX_SETUP_TAB);
      lua_createtable(L, 0, 1);
      lua_pushboolean(L, 1);
      lua_setfield(L, -2, "enabled");
      vdx__conn_send_only(L, c, p->session_id, "Page.setLifecycleEventsEnabled", -1);
      lua_pop(L, 1);
      vdx__conn_send_only(L, c, p->session_id, "Network.enable", 0);
    }
  }
  luaL_unref(L, LUA_REGISTRYINDEX, a->ctx_ref);
  vdx_browser *b = a->b;
  free(a);
  adoption_over(L, b);
}

void vdx__tabs_target_created(lua_State *L, vdx_browser *b, int params) {
  int top = lua_gettop(L);
  lua_getfield(L, params, "targetInfo");
  lua_getfield(L, -1, "type");
  lua_getfield(L, -2, "openerId");
  lua_getfield(L, -3, "targetId");
  const char *type = lua_tostring(L, -3), *opener = lua_tostring(L, -2);
  const char *target = lua_tostring(L, -1);
  vdx_page *op = NULL;
  if (type && opener && target && strcmp(type, "page") == 0)
    for (vdx_page *q = b->pages; q; q = q->next)
      if (!q->closed && strcmp(q->target_id, opener) == 0) { op = q; break; }
  for (vdx_page *q = b->pages; op && q; q = q->next)
    if (strcmp(q->target_id, target) == 0) op = NULL;   /* known already */
  adopt *a = op ? calloc(1, sizeof *a) : NULL;
  if (a) {
    vdx__page_push_existing(L, op);
    if (lua_isuserdata(L, -1)) {
      lua_getiuservalue(L, -1, 1);
      a->b = b;
      a->ctx_ref = luaL_ref(L, LUA_REGISTRYINDEX);
      snprintf(a->target, sizeof a->target, "%s", target);
      lua_createtable(L, 0, 2);
      lua_pushstring(L, target);
      lua_setfield(L, -2, "targetId");
      lua_pushboolean(L, 1);
      lua_setfield(L, -2, "flatten");
      vdx_waiter *w = vdx__conn_call(L, b->conn, NULL, "Target.attachToTarget", -1, 0);
      if (w) {
        b->adopting++;
        vdx__waiter_then(w, adopt_attached, a);
        a = NULL;
      } else {
        luaL_unref(L, LUA_REGISTRYINDEX, a->ctx_ref);
      }
    }
    free(a);
  }
  lua_settop(L, top);
}

void vdx__tabs_target_destroyed(lua_State *L, vdx_browser *b, int params) {
  (void)b;
  lua_getfield(L, params, "targetId");
  if (lua_isstring(L, -1)) {
    push_popups(L);
    lua_pushvalue(L, -2);
    lua_pushnil(L);
    lua_rawset(L, -3);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* ------------------------------------------------------------- pages */

static int pages_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  vdx_context *c = vdx__check_context(L, 1);
  lua_settop(L, 1);
  lua_newtable(L);
  int n = 0;
  vdx_page *last = NULL;
  for (vdx_page *q = c->b->pages; q; q = q->next) last = q;
  for (vdx_page *q = last; q; q = q->prev) {      /* oldest first */
    if (q->closed || strcmp(q->ctx->id, c->id) != 0) continue;
    vdx__page_push_existing(L, q);
    if (lua_isuserdata(L, -1)) lua_rawseti(L, 2, ++n);
    else lua_pop(L, 1);
  }
  return 1;
}

/*
 * ctx:pages() -> { vdx.Page… }: the open tabs of the context, oldest
 * first, including the popups and tabs its pages opened (waiting briefly
 * for a popup that is still being attached).
 */
static int context_pages(lua_State *L) {
  vdx_context *c = vdx__check_context(L, 1);
  lua_settop(L, 1);
  vdx_browser *b = c->b;
  int room = b->nawaiting < (int)(sizeof b->awaiting / sizeof *b->awaiting);
  if (b->adopting > 0 && room && !b->closed) {
    vdx_waiter *w = vdx__waiter_sleep(b->lp, 5000);
    b->awaiting[b->nawaiting++] = w;
    vdx__waiter_on_done(w, waiter_gone, b);
    return vdx__await(L, w, 0, pages_k);
  }
  return pages_k(L, LUA_OK, 0);
}

/* page:bring_to_front() -> true: makes the tab the active one. */
static int page_bring_to_front(lua_State *L) {
  vdx_page *p = vdx__check_open_page(L, 1);
  lua_settop(L, 1);
  vdx_waiter *w = vdx__conn_call(L, vdx__browser_conn(L, p->b), p->session_id,
                                 "Page.bringToFront", 0, 0);
  if (w == NULL) return lua_error(L);
  return vdx__await(L, w, 0, vdx__k_true);
}

void vdx__tabs_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"bring_to_front", page_bring_to_front},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}

void vdx__tabs_context_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"pages", context_pages},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
