/*
 * watch.c -- vdx.watch: file-system change events (libuv uv_fs_event) for
 * the MCP server's hot reload of tool files and skill folders.
 *
 * Guarantees: fn(name, event) runs as a new task for each event libuv
 * reports (name: the entry that changed, relative to the watched path, or
 * nil; event: "change" or "rename"), never inside libuv's callback; a
 * watcher does not keep the loop alive on its own (its handle is unref'd);
 * after close(), __gc, __close or the loop's teardown no callback runs, and
 * close is safe to call twice.  The handle's memory outlives the userdata
 * until libuv's close callback.
 */
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "task.h"

#define WATCHER_MT "vdx.Watcher"

typedef struct watcher {
  vdx_loop *lp;
  uv_fs_event_t h;
  int fn_ref;
  int closed;                /* stopped; uv_close called */
  int handle_done;           /* libuv's close callback ran */
  int ud_gone;               /* the userdata let go of it */
} watcher;

typedef struct handle { watcher *w; } handle;

/* The memory goes when both libuv and the userdata are done with it. */
static void handle_closed(uv_handle_t *h) {
  watcher *w = h->data;
  w->handle_done = 1;
  if (w->ud_gone) free(w);
}

static void event_cb(uv_fs_event_t *h, const char *name, int events,
                     int status) {
  watcher *w = h->data;
  if (w->closed || w->fn_ref == LUA_NOREF || vdx__loop_closed(w->lp)) return;
  lua_State *L = vdx__main_state(w->lp);
  lua_rawgeti(L, LUA_REGISTRYINDEX, w->fn_ref);
  if (name) lua_pushstring(L, name);
  else lua_pushnil(L);
  if (status < 0) lua_pushstring(L, uv_strerror(status));
  else lua_pushstring(L, (events & UV_RENAME) ? "rename" : "change");
  vdx__spawn(L, 2);
  lua_pop(L, 1);
}

static void watcher_stop(watcher *w) {
  if (w->closed) return;
  w->closed = 1;
  uv_fs_event_stop(&w->h);
  uv_close((uv_handle_t *)&w->h, handle_closed);
}

static void watcher_teardown(void *data) {
  watcher *w = data;
  w->fn_ref = LUA_NOREF;       /* the registry goes with the state */
  watcher_stop(w);
}

/* L is any thread of the state. */
static void watcher_close(lua_State *L, handle *hd) {
  watcher *w = hd->w;
  if (w == NULL) return;
  hd->w = NULL;
  if (!w->closed) vdx__off_teardown(w->lp, watcher_teardown, w);
  if (w->fn_ref != LUA_NOREF) {
    luaL_unref(L, LUA_REGISTRYINDEX, w->fn_ref);
    w->fn_ref = LUA_NOREF;
  }
  watcher_stop(w);
  w->ud_gone = 1;
  if (w->handle_done) free(w);
}

/* watcher:close() -> true; also __gc and __close.  Idempotent. */
static int l_close(lua_State *L) {
  watcher_close(L, luaL_checkudata(L, 1, WATCHER_MT));
  lua_pushboolean(L, 1);
  return 1;
}

static int l_tostring(lua_State *L) {
  handle *hd = luaL_checkudata(L, 1, WATCHER_MT);
  lua_pushstring(L, hd->w ? "vdx.Watcher" : "vdx.Watcher (closed)");
  return 1;
}

/*
 * vdx.watch(path, fn) -> watcher, or nil and a message when path cannot be
 * watched (it does not exist, too many watches).  fn(name, event) runs as
 * a task for every change under path (a file, or the entries of a folder;
 * not recursive).
 * stack: path, fn -> watcher | nil, message
 */
int vdx__watch(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  vdx_loop *lp = vdx__loop(L);
  watcher *w = calloc(1, sizeof *w);
  if (w == NULL) return luaL_error(L, "out of memory");
  w->lp = lp;
  w->fn_ref = LUA_NOREF;
  int rc = uv_fs_event_init(vdx__uv_of(lp), &w->h);
  if (rc == 0) {
    w->h.data = w;
    rc = uv_fs_event_start(&w->h, event_cb, path, 0);
    if (rc != 0) {
      w->closed = 1;
      w->ud_gone = 1;
      uv_close((uv_handle_t *)&w->h, handle_closed);
      lua_pushnil(L);
      lua_pushfstring(L, "cannot watch %s: %s", path, uv_strerror(rc));
      return 2;
    }
  } else {
    free(w);
    lua_pushnil(L);
    lua_pushfstring(L, "cannot watch %s: %s", path, uv_strerror(rc));
    return 2;
  }
  uv_unref((uv_handle_t *)&w->h);
  lua_pushvalue(L, 2);
  w->fn_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  vdx__on_teardown(lp, watcher_teardown, w);
  handle *hd = lua_newuserdatauv(L, sizeof *hd, 0);
  hd->w = w;
  if (luaL_newmetatable(L, WATCHER_MT)) {
    static const luaL_Reg m[] = {{"close", l_close}, {NULL, NULL}};
    luaL_newlib(L, m);
    vdx__error_wrap(L, -1, "watcher", ":");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_close);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, l_close);
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, l_tostring);
    lua_setfield(L, -2, "__tostring");
  }
  lua_setmetatable(L, -2);
  return 1;
}
