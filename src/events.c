/*
 * events.c -- what a page logs, requests and opens, captured from the
 * moment the page exists: console messages and uncaught exceptions,
 * network requests (both bounded rings), JavaScript dialogs (answered by a
 * policy, so a dialog never hangs a call), downloads, popups (adopted as
 * pages of the opener's context), and the main frame's navigations, which
 * the actions and back/forward/reload wait on.
 *
 * The records are Lua tables in one registry table per page; the counters
 * and waits are in the C struct that p->events points to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "events.h"
#include "task.h"

#define CONSOLE_CAP 500
#define REQUEST_CAP 1000
#define LIST_CAP 100
#define QUIET_MS 500
#define PAGES_KEY "vdx.page_objects"   /* registry: weak lightuserdata -> page */
#define POPUPS_KEY "vdx.popups"        /* registry: targetId -> adopted page */

typedef struct navwait {
  lua_Integer base;       /* wait for navigation number base + 1 or later */
  lua_Integer stopped;    /* soft: frameStoppedLoading count at the mark */
  int flag;
  int soft;
  vdx_waiter *w;
} navwait;

typedef struct events {
  vdx_page *p;
  vdx_loop *lp;
  int ref;                /* { console, requests, byid, dialogs, popups, downloads } */
  lua_Integer console_seq, console_seen, errors;
  lua_Integer req_seq, dialogs, popups, downloads;
  int next_set, next_accept;
  char *next_prompt;
  lua_Integer nav_seq, nav_req, nav_stopped;
  int same_doc, life;
  char loader[64];
  char *url;
  uint64_t last_net;
  vdx_waiter *quiet;
  navwait waits[8];
  int nwaits;
  double px, py;
} events;

static void settle(lua_State *L, events *ev);

/* ------------------------------------------------------------ state */

static events *ev_of(lua_State *L, vdx_page *p) {
  if (p->events) return p->events;
  events *ev = calloc(1, sizeof *ev);
  if (ev == NULL) luaL_error(L, "out of memory");
  ev->p = p;
  ev->lp = p->b->lp;
  ev->url = strdup("");
  lua_createtable(L, 0, 6);
  static const char *const lists[] = {"console", "requests", "byid", "dialogs",
                                      "popups", "downloads", NULL};
  for (int i = 0; lists[i]; i++) {
    lua_newtable(L);
    lua_setfield(L, -2, lists[i]);
  }
  ev->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  p->events = ev;
  return ev;
}

/* Pushes the list `name` of ev's record table. */
static void push_list(lua_State *L, events *ev, const char *name) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, ev->ref);
  lua_getfield(L, -1, name);
  lua_remove(L, -2);
}

/* Stores the table on top as record seq of list name, dropping the record
 * that falls out of a ring of cap. */
static void ring_put(lua_State *L, events *ev, const char *name,
                     lua_Integer seq, int cap) {
  push_list(L, ev, name);
  lua_insert(L, -2);
  lua_rawseti(L, -2, seq);
  lua_pushnil(L);
  lua_rawseti(L, -2, seq - cap);
  lua_pop(L, 1);
}

static void navwait_removed(vdx_waiter *w, void *data) {
  events *ev = data;
  for (int i = 0; i < ev->nwaits; i++)
    if (ev->waits[i].w == w) {
      ev->waits[i] = ev->waits[--ev->nwaits];
      return;
    }
}

void vdx__page_events_free(vdx_page *p) {
  events *ev = p->events;
  if (ev == NULL) return;
  p->events = NULL;
  int closed = vdx__loop_closed(ev->lp);
  if (!closed) {
    luaL_unref(vdx__main_state(ev->lp), LUA_REGISTRYINDEX, ev->ref);
    if (ev->quiet) {
      vdx__waiter_then(ev->quiet, NULL, NULL);
      vdx__waiter_abandon(ev->quiet);
    }
    for (int i = 0; i < ev->nwaits; i++)
      vdx__waiter_on_done(ev->waits[i].w, NULL, NULL);
  }
  free(ev->next_prompt);
  free(ev->url);
  free(ev);
}

/* ---------------------------------------------------------- console */

static const char *console_level(const char *type) {
  if (strcmp(type, "error") == 0 || strcmp(type, "assert") == 0) return "error";
  if (strcmp(type, "warning") == 0) return "warning";
  if (strcmp(type, "debug") == 0) return "debug";
  if (strcmp(type, "info") == 0) return "info";
  return "log";
}

static int level_rank(const char *level) {
  if (strcmp(level, "debug") == 0) return 0;
  if (strcmp(level, "log") == 0 || strcmp(level, "info") == 0) return 1;
  if (strcmp(level, "warning") == 0) return 2;
  if (strcmp(level, "error") == 0) return 3;
  return -1;
}

/* Sets url, line and column of the entry on top from a stackTrace. */
static void set_location(lua_State *L, int stack) {
  if (!lua_istable(L, stack)) return;
  lua_getfield(L, stack, "callFrames");
  if (lua_rawgeti(L, -1, 1) == LUA_TTABLE) {
    lua_getfield(L, -1, "url");
    lua_setfield(L, -4, "url");
    lua_getfield(L, -1, "lineNumber");
    if (lua_isinteger(L, -1)) lua_pushinteger(L, lua_tointeger(L, -1) + 1);
    else lua_pushnil(L);
    lua_setfield(L, -5, "line");
    lua_pop(L, 1);
    lua_getfield(L, -1, "columnNumber");
    if (lua_isinteger(L, -1)) lua_pushinteger(L, lua_tointeger(L, -1) + 1);
    else lua_pushnil(L);
    lua_setfield(L, -5, "column");
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
}

static void add_console(lua_State *L, events *ev, const char *level,
                        const char *source, int text_idx, int stack) {
  lua_createtable(L, 0, 7);
  lua_pushinteger(L, ++ev->console_seq);
  lua_setfield(L, -2, "seq");
  lua_pushstring(L, level);
  lua_setfield(L, -2, "level");
  lua_pushstring(L, source);
  lua_setfield(L, -2, "source");
  lua_pushvalue(L, text_idx);
  lua_setfield(L, -2, "text");
  set_location(L, stack);
  if (strcmp(level, "error") == 0) ev->errors++;
  ring_put(L, ev, "console", ev->console_seq, CONSOLE_CAP);
}

static void on_console(lua_State *L, events *ev, int params) {
  luaL_checkstack(L, 20, "vdx: console");
  int top = lua_gettop(L);
  lua_getfield(L, params, "type");
  const char *level = console_level(luaL_optstring(L, -1, "log"));
  luaL_Buffer b;
  lua_getfield(L, params, "args");
  int args = lua_gettop(L);
  luaL_buffinit(L, &b);
  lua_Integer n = lua_istable(L, args) ? (lua_Integer)luaL_len(L, args) : 0;
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, args, i);
    int a = lua_gettop(L);
    if (i > 1) luaL_addchar(&b, ' ');
    if (lua_getfield(L, a, "value") == LUA_TSTRING || lua_isnumber(L, -1) ||
        lua_isboolean(L, -1)) {
      luaL_tolstring(L, -1, NULL);
    } else {
      lua_pop(L, 1);
      if (lua_getfield(L, a, "unserializableValue") != LUA_TSTRING) {
        lua_pop(L, 1);
        if (lua_getfield(L, a, "description") != LUA_TSTRING) {
          lua_pop(L, 1);
          lua_getfield(L, a, "type");
        }
      }
      luaL_tolstring(L, -1, NULL);
    }
    lua_remove(L, -2);         /* the raw field; the string stays on top */
    lua_remove(L, a);          /* the argument */
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  lua_getfield(L, params, "stackTrace");
  add_console(L, ev, level, "console", lua_gettop(L) - 1, lua_gettop(L));
  lua_settop(L, top);
}

static void on_exception(lua_State *L, events *ev, int params) {
  int top = lua_gettop(L);
  lua_getfield(L, params, "exceptionDetails");
  int d = lua_gettop(L);
  if (!lua_istable(L, d)) { lua_settop(L, top); return; }
  const char *text = NULL;
  if (lua_getfield(L, d, "exception") == LUA_TTABLE &&
      lua_getfield(L, -1, "description") == LUA_TSTRING)
    text = lua_tostring(L, -1);
  if (text == NULL) {
    lua_getfield(L, d, "text");
    text = luaL_optstring(L, -1, "uncaught exception");
  }
  lua_pushstring(L, text);
  int t = lua_gettop(L);
  lua_getfield(L, d, "stackTrace");
  add_console(L, ev, "error", "exception", t, lua_gettop(L));
  if (lua_istable(L, d)) {       /* no stack: the details carry the place */
    push_list(L, ev, "console");
    lua_rawgeti(L, -1, ev->console_seq);
    if (lua_getfield(L, -1, "url") == LUA_TNIL) {
      lua_getfield(L, d, "url");
      lua_setfield(L, -3, "url");
      lua_getfield(L, d, "lineNumber");
      if (lua_isinteger(L, -1)) {
        lua_pushinteger(L, lua_tointeger(L, -1) + 1);
        lua_setfield(L, -4, "line");
      }
    }
  }
  lua_settop(L, top);
}

/* ---------------------------------------------------------- network */

/* Pushes the request record of the request id at params (or nil). */
static int push_request(lua_State *L, events *ev, int params) {
  push_list(L, ev, "byid");
  lua_getfield(L, params, "requestId");
  lua_rawget(L, -2);
  lua_remove(L, -2);
  return lua_istable(L, -1);
}

static void finish_request(lua_State *L, int rec, int params) {
  lua_getfield(L, params, "timestamp");
  lua_getfield(L, rec, "started");
  if (lua_isnumber(L, -1) && lua_isnumber(L, -2)) {
    double ms = (lua_tonumber(L, -2) - lua_tonumber(L, -1)) * 1000.0;
    lua_pushinteger(L, (lua_Integer)(ms + 0.5));
    lua_setfield(L, rec, "duration_ms");
  }
  lua_pop(L, 2);
  lua_pushboolean(L, 1);
  lua_setfield(L, rec, "finished");
}

static void on_request(lua_State *L, events *ev, int params) {
  int top = lua_gettop(L);
  luaL_checkstack(L, 12, "vdx: request");
  lua_getfield(L, params, "redirectResponse");
  if (lua_istable(L, -1) && push_request(L, ev, params)) {
    int rec = lua_gettop(L);
    lua_getfield(L, -2, "status");
    lua_setfield(L, rec, "status");
    finish_request(L, rec, params);
  }
  lua_settop(L, top);
  lua_createtable(L, 0, 8);
  int rec = lua_gettop(L);
  lua_getfield(L, params, "requestId");
  lua_setfield(L, rec, "id");
  lua_getfield(L, params, "request");
  lua_getfield(L, -1, "method");
  lua_setfield(L, rec, "method");
  lua_getfield(L, -1, "url");
  lua_setfield(L, rec, "url");
  lua_pop(L, 1);
  lua_getfield(L, params, "type");
  lua_setfield(L, rec, "type");
  lua_getfield(L, params, "timestamp");
  lua_setfield(L, rec, "started");
  lua_pushinteger(L, ++ev->req_seq);
  lua_setfield(L, rec, "seq");
  push_list(L, ev, "byid");
  lua_getfield(L, params, "requestId");
  lua_pushvalue(L, rec);
  lua_rawset(L, -3);
  /* the record that falls out of the ring leaves the id map too */
  push_list(L, ev, "requests");
  if (lua_rawgeti(L, -1, ev->req_seq - REQUEST_CAP) == LUA_TTABLE) {
    lua_getfield(L, -1, "id");
    lua_pushvalue(L, -1);
    lua_rawget(L, -5);
    if (lua_rawequal(L, -1, -3)) {
      lua_pop(L, 1);
      lua_pushnil(L);
      lua_rawset(L, -5);
    }
  }
  lua_settop(L, rec);
  ring_put(L, ev, "requests", ev->req_seq, REQUEST_CAP);
  lua_settop(L, top);
}

static void on_request_end(lua_State *L, events *ev, const char *what,
                           int params) {
  int top = lua_gettop(L);
  if (!push_request(L, ev, params)) { lua_settop(L, top); return; }
  int rec = lua_gettop(L);
  if (strcmp(what, "responseReceived") == 0) {
    lua_getfield(L, params, "response");
    lua_getfield(L, -1, "status");
    lua_setfield(L, rec, "status");
    lua_getfield(L, -1, "mimeType");
    lua_setfield(L, rec, "mime_type");
  } else if (strcmp(what, "loadingFinished") == 0) {
    finish_request(L, rec, params);
  } else {
    lua_getfield(L, params, "canceled");
    int canceled = lua_toboolean(L, -1);
    lua_getfield(L, params, "errorText");
    if (canceled) lua_pushliteral(L, "canceled");
    else lua_pushvalue(L, -1);
    lua_setfield(L, rec, "failure");
    finish_request(L, rec, params);
  }
  lua_settop(L, top);
}

/* ---------------------------------------------------------- dialogs */

static void on_dialog(lua_State *L, events *ev, int params) {
  int top = lua_gettop(L);
  lua_getfield(L, params, "type");
  const char *type = luaL_optstring(L, -1, "alert");
  int accept = strcmp(type, "alert") == 0 || strcmp(type, "beforeunload") == 0;
  const char *prompt = NULL;
  if (ev->next_set) {
    accept = ev->next_accept;
    prompt = ev->next_prompt;
    ev->next_set = 0;
  }
  lua_createtable(L, 0, 2);
  lua_pushboolean(L, accept);
  lua_setfield(L, -2, "accept");
  if (accept && prompt) {
    lua_pushstring(L, prompt);
    lua_setfield(L, -2, "promptText");
  }
  vdx__conn_send_only(L, ev->p->b->conn, ev->p->session_id,
                      "Page.handleJavaScriptDialog", -1);
  lua_pop(L, 1);
  lua_createtable(L, 0, 6);
  lua_pushvalue(L, top + 1);
  lua_setfield(L, -2, "type");
  lua_getfield(L, params, "message");
  lua_setfield(L, -2, "message");
  lua_getfield(L, params, "url");
  lua_setfield(L, -2, "url");
  lua_getfield(L, params, "defaultPrompt");
  lua_setfield(L, -2, "default_prompt");
  lua_pushboolean(L, accept);
  lua_setfield(L, -2, "accepted");
  if (accept && prompt) {
    lua_pushstring(L, prompt);
    lua_setfield(L, -2, "prompt_text");
  }
  lua_pushinteger(L, ++ev->dialogs);
  lua_setfield(L, -2, "seq");
  free(ev->next_prompt);
  ev->next_prompt = NULL;
  ring_put(L, ev, "dialogs", ev->dialogs, LIST_CAP);
  lua_settop(L, top);
}

static void on_opened(lua_State *L, events *ev, const char *list, int params) {
  int top = lua_gettop(L);
  lua_Integer seq = strcmp(list, "popups") == 0 ? ++ev->popups : ++ev->downloads;
  lua_createtable(L, 0, 3);
  lua_getfield(L, params, "url");
  lua_setfield(L, -2, "url");
  lua_getfield(L, params, "suggestedFilename");
  lua_setfield(L, -2, "filename");
  lua_pushinteger(L, seq);
  lua_setfield(L, -2, "seq");
  ring_put(L, ev, list, seq, LIST_CAP);
  lua_settop(L, top);
}

/* ------------------------------------------------------- navigation */

static int is_main(lua_State *L, events *ev, int params, const char *field) {
  lua_getfield(L, params, field);
  int main = lua_isstring(L, -1) && strcmp(lua_tostring(L, -1), ev->p->frame_id) == 0;
  lua_pop(L, 1);
  return main;
}

static void set_url(events *ev, const char *url) {
  char *u = strdup(url ? url : "");
  if (u) { free(ev->url); ev->url = u; }
}

static int life_bit(const char *name) {
  if (strcmp(name, "commit") == 0) return VDX_LIFE_COMMIT;
  if (strcmp(name, "DOMContentLoaded") == 0) return VDX_LIFE_DCL;
  if (strcmp(name, "load") == 0) return VDX_LIFE_LOAD;
  return 0;
}

static void on_navigation(lua_State *L, events *ev, const char *method,
                          int params) {
  int top = lua_gettop(L);
  if (strcmp(method, "Page.frameNavigated") == 0) {
    lua_getfield(L, params, "frame");
    int f = lua_gettop(L);
    lua_getfield(L, f, "parentId");
    if (lua_isnil(L, -1)) {
      lua_getfield(L, f, "loaderId");
      const char *loader = luaL_optstring(L, -1, "");
      if (strcmp(loader, ev->loader) != 0) ev->life = 0;
      snprintf(ev->loader, sizeof ev->loader, "%s", loader);
      ev->life |= VDX_LIFE_COMMIT;
      /* A document back from the back/forward cache has loaded already;
       * it fires no lifecycle events again. */
      lua_getfield(L, params, "type");
      if (lua_isstring(L, -1) &&
          strcmp(lua_tostring(L, -1), "BackForwardCacheRestore") == 0)
        ev->life |= VDX_LIFE_DCL | VDX_LIFE_LOAD;
      ev->same_doc = 0;
      ev->nav_seq++;
      lua_getfield(L, f, "url");
      set_url(ev, lua_tostring(L, -1));
    }
  } else if (strcmp(method, "Page.navigatedWithinDocument") == 0) {
    if (is_main(L, ev, params, "frameId")) {
      ev->same_doc = 1;
      ev->nav_seq++;
      lua_getfield(L, params, "url");
      set_url(ev, lua_tostring(L, -1));
    }
  } else if (strcmp(method, "Page.lifecycleEvent") == 0) {
    if (is_main(L, ev, params, "frameId")) {
      lua_getfield(L, params, "loaderId");
      lua_getfield(L, params, "name");
      const char *loader = luaL_optstring(L, -2, "");
      if (strcmp(loader, ev->loader) != 0) {
        snprintf(ev->loader, sizeof ev->loader, "%s", loader);
        ev->life = 0;
      }
      ev->life |= life_bit(luaL_optstring(L, -1, ""));
    }
  } else if (strcmp(method, "Page.frameStoppedLoading") == 0) {
    if (is_main(L, ev, params, "frameId")) ev->nav_stopped++;
  } else if (is_main(L, ev, params, "frameId")) {
    ev->nav_req++;     /* requested, started navigating or started loading */
  }
  lua_settop(L, top);
}

static void quiet_fired(void *data, lua_State *L, int ok) {
  events *ev = data;
  (void)ok;
  ev->quiet = NULL;
  settle(L, ev);
}

/* Resolves the navigation waits that are now satisfied. */
static void settle(lua_State *L, events *ev) {
  uint64_t now = uv_now(vdx__uv_of(ev->lp));
  int want_quiet = 0;
  for (int i = 0; i < ev->nwaits;) {
    navwait *nw = &ev->waits[i];
    int done = 0;
    if (ev->nav_seq > nw->base) {
      int flag = nw->flag == VDX_LIFE_IDLE ? VDX_LIFE_LOAD : nw->flag;
      done = ev->same_doc || (ev->life & flag) == flag;
      if (done && nw->flag == VDX_LIFE_IDLE && !ev->same_doc &&
          now < ev->last_net + QUIET_MS) {
        done = 0;
        want_quiet = 1;
      }
    } else if (nw->soft && ev->nav_stopped > nw->stopped) {
      done = 1;                /* the navigation was abandoned */
    }
    if (done) {
      lua_pushboolean(L, 1);
      vdx__waiter_resolve(nw->w, L);   /* navwait_removed edits the array */
    } else {
      i++;
    }
  }
  if (want_quiet && ev->quiet == NULL) {
    ev->quiet = vdx__waiter_sleep(ev->lp, (int)(ev->last_net + QUIET_MS - now) + 1);
    vdx__waiter_then(ev->quiet, quiet_fired, ev);
  }
}

/* ------------------------------------------------------------ entry */

void vdx__page_events(lua_State *L, vdx_page *p, const char *method,
                      int params) {
  events *ev = ev_of(L, p);
  params = lua_absindex(L, params);
  if (strncmp(method, "Network.", 8) == 0) {
    const char *m = method + 8;
    int start = strcmp(m, "requestWillBeSent") == 0;
    int end = strcmp(m, "loadingFinished") == 0 || strcmp(m, "loadingFailed") == 0;
    if (start) on_request(L, ev, params);
    else if (end || strcmp(m, "responseReceived") == 0) on_request_end(L, ev, m, params);
    if (start || end) {
      ev->last_net = uv_now(vdx__uv_of(ev->lp));
      if (ev->nwaits) settle(L, ev);
    }
    return;
  }
  if (strcmp(method, "Runtime.consoleAPICalled") == 0) {
    on_console(L, ev, params);
  } else if (strcmp(method, "Runtime.exceptionThrown") == 0) {
    on_exception(L, ev, params);
  } else if (strcmp(method, "Page.javascriptDialogOpening") == 0) {
    on_dialog(L, ev, params);
  } else if (strcmp(method, "Page.windowOpen") == 0) {
    on_opened(L, ev, "popups", params);
  } else if (strcmp(method, "Page.downloadWillBegin") == 0) {
    on_opened(L, ev, "downloads", params);
  } else if (strcmp(method, "Page.frameNavigated") == 0 ||
             strcmp(method, "Page.navigatedWithinDocument") == 0 ||
             strcmp(method, "Page.lifecycleEvent") == 0 ||
             strcmp(method, "Page.frameStoppedLoading") == 0 ||
             strcmp(method, "Page.frameRequestedNavigation") == 0 ||
             strcmp(method, "Page.frameStartedNavigating") == 0 ||
             strcmp(method, "Page.frameStartedLoading") == 0) {
    on_navigation(L, ev, method, params);
    settle(L, ev);
  }
}

/* ------------------------------------------------- for the actions */

void vdx__events_mark(lua_State *L, vdx_page *p) {
  events *ev = ev_of(L, p);
  lua_createtable(L, 0, 8);
  lua_pushinteger(L, ev->console_seq);
  lua_setfield(L, -2, "console");
  lua_pushinteger(L, ev->dialogs);
  lua_setfield(L, -2, "dialogs");
  lua_pushinteger(L, ev->popups);
  lua_setfield(L, -2, "popups");
  lua_pushinteger(L, ev->downloads);
  lua_setfield(L, -2, "downloads");
  lua_pushinteger(L, ev->nav_seq);
  lua_setfield(L, -2, "nav");
  lua_pushinteger(L, ev->nav_req);
  lua_setfield(L, -2, "nav_req");
  lua_pushinteger(L, ev->nav_stopped);
  lua_setfield(L, -2, "nav_stopped");
  lua_pushinteger(L, ev->errors);
  lua_setfield(L, -2, "errors");
}

static lua_Integer mark_int(lua_State *L, int mark, const char *k) {
  lua_getfield(L, mark, k);
  lua_Integer v = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return v;
}

/* Copies records after seq `from` of list name into field name of res. */
static void copy_since(lua_State *L, events *ev, const char *name,
                       lua_Integer from, lua_Integer to, int res) {
  if (to <= from) return;
  push_list(L, ev, name);
  lua_createtable(L, (int)(to - from), 0);
  lua_Integer n = 0;
  for (lua_Integer i = from + 1; i <= to; i++)
    if (lua_rawgeti(L, -2, i) == LUA_TTABLE) lua_rawseti(L, -2, ++n);
    else lua_pop(L, 1);
  lua_setfield(L, res, name);
  lua_pop(L, 1);
}

void vdx__events_since(lua_State *L, vdx_page *p, int mark, int res) {
  events *ev = ev_of(L, p);
  mark = lua_absindex(L, mark);
  res = lua_absindex(L, res);
  luaL_checkstack(L, 10, "vdx: result");
  if (ev->nav_seq > mark_int(L, mark, "nav")) {
    lua_createtable(L, 0, 3);
    lua_pushstring(L, ev->url);
    lua_setfield(L, -2, "url");
    if (!ev->same_doc && p->status) {
      lua_pushinteger(L, p->status);
      lua_setfield(L, -2, "status");
    }
    lua_pushboolean(L, ev->same_doc);
    lua_setfield(L, -2, "same_document");
    lua_setfield(L, res, "navigation");
  }
  copy_since(L, ev, "popups", mark_int(L, mark, "popups"), ev->popups, res);
  copy_since(L, ev, "dialogs", mark_int(L, mark, "dialogs"), ev->dialogs, res);
  copy_since(L, ev, "downloads", mark_int(L, mark, "downloads"), ev->downloads, res);
  lua_pushinteger(L, ev->errors - mark_int(L, mark, "errors"));
  lua_setfield(L, res, "console_errors");
}

static vdx_waiter *add_wait(lua_State *L, events *ev, vdx_waiter *w,
                            lua_Integer base, int flag, int soft,
                            lua_Integer stopped) {
  if (ev->nwaits == (int)(sizeof ev->waits / sizeof ev->waits[0])) {
    vdx__waiter_abandon(w);
    luaL_error(L, "too many navigation waits on this page");
  }
  navwait *nw = &ev->waits[ev->nwaits++];
  nw->base = base;
  nw->flag = flag;
  nw->soft = soft;
  nw->stopped = stopped;
  nw->w = w;
  vdx__waiter_on_done(w, navwait_removed, ev);
  settle(L, ev);
  return w;
}

vdx_waiter *vdx__events_settle(lua_State *L, vdx_page *p, int mark,
                               int timeout_ms) {
  events *ev = ev_of(L, p);
  mark = lua_absindex(L, mark);
  lua_Integer nav = mark_int(L, mark, "nav");
  lua_Integer req = mark_int(L, mark, "nav_req");
  lua_Integer stopped = mark_int(L, mark, "nav_stopped");
  int committed = ev->nav_seq > nav;
  if (ev->nav_req <= req && !committed) return NULL;
  if (committed && (ev->same_doc || (ev->life & VDX_LIFE_LOAD))) return NULL;
  vdx_waiter *w = vdx__waiter_sleep(ev->lp, timeout_ms > 0 ? timeout_ms : 1);
  return add_wait(L, ev, w, nav, VDX_LIFE_LOAD, 1, stopped);
}

void vdx__events_fail(lua_State *L, vdx_page *p, const char *type,
                      const char *msg) {
  events *ev = p->events;
  while (ev && ev->nwaits > 0) {
    vdx_waiter *w = ev->waits[0].w;   /* navwait_removed edits the array */
    vdx__error_push(L, type, "%s", msg);
    vdx__waiter_reject(w, L);
  }
}

lua_Integer vdx__events_nav_seq(lua_State *L, vdx_page *p) {
  return ev_of(L, p)->nav_seq;
}

vdx_waiter *vdx__events_nav_wait(lua_State *L, vdx_page *p, lua_Integer base,
                                 int flag, int timeout_ms) {
  events *ev = ev_of(L, p);
  vdx_waiter *w = vdx__waiter_new(ev->lp, timeout_ms, "navigation");
  return add_wait(L, ev, w, base, flag, 0, 0);
}

const char *vdx__events_url(lua_State *L, vdx_page *p) {
  return ev_of(L, p)->url;
}

void vdx__events_pointer(lua_State *L, vdx_page *p, double *x, double *y,
                         int set) {
  events *ev = ev_of(L, p);
  if (set) { ev->px = *x; ev->py = *y; }
  else { *x = ev->px; *y = ev->py; }
}

/* ----------------------------------------------------- page objects */

void vdx__page_register(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (lua_getfield(L, LUA_REGISTRYINDEX, PAGES_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, PAGES_KEY);
  }
  lua_pushlightuserdata(L, lua_touserdata(L, idx));
  lua_pushvalue(L, idx);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void vdx__page_push_existing(lua_State *L, vdx_page *p) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, PAGES_KEY) != LUA_TTABLE) return;
  lua_rawgetp(L, -1, p);
  lua_remove(L, -2);
}

/* ---------------------------------------------------------- methods */

static vdx_page *open_page(lua_State *L) {
  vdx_page *p = vdx__check_page(L, 1);
  if (p->closed && p->b == NULL)
    vdx__error_raise(L, "PageClosed", "the page is closed (%s)", p->close_reason);
  return p;
}

/* Pushes the records of list name with seq > since that keep(L, rec)
 * accepts, at most limit of the newest. */
typedef int (*keep_fn)(lua_State *L, int rec, int opts);

static void collect(lua_State *L, events *ev, const char *name,
                    lua_Integer from, lua_Integer to, lua_Integer cap,
                    lua_Integer limit, keep_fn keep, int opts) {
  luaL_checkstack(L, 8, "vdx: records");
  push_list(L, ev, name);
  int list = lua_gettop(L);
  lua_newtable(L);
  int out = lua_gettop(L);
  lua_Integer n = 0;
  if (from < to - cap) from = to - cap;
  for (lua_Integer i = from + 1; i <= to; i++) {
    if (lua_rawgeti(L, list, i) == LUA_TTABLE && keep(L, lua_gettop(L), opts))
      lua_rawseti(L, out, ++n);
    else
      lua_pop(L, 1);
  }
  if (limit > 0 && n > limit) {         /* keep the newest */
    for (lua_Integer i = 1; i <= limit; i++) {
      lua_rawgeti(L, out, n - limit + i);
      lua_rawseti(L, out, i);
    }
    for (lua_Integer i = limit + 1; i <= n; i++) {
      lua_pushnil(L);
      lua_rawseti(L, out, i);
    }
  }
  lua_remove(L, list);
}

static int keep_console(lua_State *L, int rec, int opts) {
  lua_getfield(L, opts, "level");
  const char *want = lua_tostring(L, -1);
  lua_getfield(L, rec, "level");
  int ok = want == NULL || level_rank(lua_tostring(L, -1)) >= level_rank(want);
  lua_pop(L, 2);
  return ok;
}

/* Reads since= (nil, "last" or a seq) against the `seen` mark. */
static lua_Integer opt_since(lua_State *L, int opts, lua_Integer seen) {
  lua_getfield(L, opts, "since");
  lua_Integer from = 0;
  if (lua_type(L, -1) == LUA_TSTRING) {
    if (strcmp(lua_tostring(L, -1), "last") != 0)
      luaL_error(L, "since must be \"last\" or a seq number");
    from = seen;
  } else if (!lua_isnil(L, -1)) {
    from = luaL_checkinteger(L, -1);
  }
  lua_pop(L, 1);
  return from;
}

/*
 * page:console{ level = nil, since = nil, limit = nil } -> { {seq=,
 * level=, source=, text=, url=, line=, column=}… }, oldest first.
 * level "error" keeps errors, "warning" warnings and errors, and so on
 * (debug < log = info < warning < error); since = "last" keeps what came
 * after the previous page:console call, since = n what came after seq n.
 * Uncaught exceptions are errors with source "exception".  The page keeps
 * the last 500 messages.
 */
static int page_console(lua_State *L) {
  static const char *const known[] = {"level", "since", "limit", NULL};
  vdx_page *p = open_page(L);
  if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
  vdx__check_opts(L, 2, known);
  lua_getfield(L, 2, "level");
  if (!lua_isnil(L, -1) && level_rank(luaL_checkstring(L, -1)) < 0)
    luaL_error(L, "level must be debug, log, info, warning or error");
  lua_pop(L, 1);
  events *ev = ev_of(L, p);
  lua_Integer from = opt_since(L, 2, ev->console_seen);
  collect(L, ev, "console", from, ev->console_seq, CONSOLE_CAP,
          vdx__opt_int(L, 2, "limit", 0), keep_console, 2);
  ev->console_seen = ev->console_seq;
  return 1;
}

static int keep_request(lua_State *L, int rec, int opts) {
  int ok = 1;
  lua_getfield(L, opts, "filter");
  if (lua_isstring(L, -1)) {
    lua_getfield(L, rec, "url");
    ok = lua_isstring(L, -1) && strstr(lua_tostring(L, -1), lua_tostring(L, -2));
    lua_pop(L, 1);
  }
  lua_getfield(L, opts, "failed");
  if (ok && lua_toboolean(L, -1)) {
    lua_getfield(L, rec, "failure");
    lua_getfield(L, rec, "status");
    ok = lua_isstring(L, -2) || lua_tointeger(L, -1) >= 400;
    lua_pop(L, 2);
  }
  lua_pop(L, 2);
  return ok;
}

/*
 * page:requests{ filter = nil, failed = false, since = nil, limit = nil }
 * -> { {seq=, id=, method=, url=, type=, status=, mime_type=, failure=,
 * duration_ms=, finished=}… }, oldest first.  filter keeps URLs that
 * contain it (plain text); failed keeps failures and statuses >= 400.
 * The page keeps the last 1000 requests.
 */
static int page_requests(lua_State *L) {
  static const char *const known[] = {"filter", "failed", "since", "limit", NULL};
  vdx_page *p = open_page(L);
  if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
  vdx__check_opts(L, 2, known);
  events *ev = ev_of(L, p);
  lua_Integer from = opt_since(L, 2, 0);
  collect(L, ev, "requests", from, ev->req_seq, REQUEST_CAP,
          vdx__opt_int(L, 2, "limit", 0), keep_request, 2);
  return 1;
}

static int keep_all(lua_State *L, int rec, int opts) {
  (void)L; (void)rec; (void)opts;
  return 1;
}

/* page:dialogs() -> { {seq=, type=, message=, url=, accepted=,
 * default_prompt=, prompt_text=}… }: the JavaScript dialogs the page
 * opened and how each was answered (the last 100). */
static int page_dialogs(lua_State *L) {
  vdx_page *p = open_page(L);
  events *ev = ev_of(L, p);
  collect(L, ev, "dialogs", 0, ev->dialogs, LIST_CAP, 0, keep_all, 1);
  return 1;
}

/*
 * page:handle_dialog{ accept = true, prompt_text = nil } -> true: how to
 * answer the next dialog.  Without it the policy answers every dialog at
 * once: alerts (and beforeunload) are accepted, confirms and prompts are
 * dismissed; either way it is recorded (page:dialogs, action results).
 */
static int page_handle_dialog(lua_State *L) {
  static const char *const known[] = {"accept", "prompt_text", NULL};
  vdx_page *p = open_page(L);
  luaL_checktype(L, 2, LUA_TTABLE);
  vdx__check_opts(L, 2, known);
  events *ev = ev_of(L, p);
  lua_getfield(L, 2, "accept");
  ev->next_accept = lua_isnil(L, -1) ? 1 : lua_toboolean(L, -1);
  lua_getfield(L, 2, "prompt_text");
  free(ev->next_prompt);
  ev->next_prompt = lua_isnil(L, -1) ? NULL : strdup(luaL_checkstring(L, -1));
  ev->next_set = 1;
  lua_pushboolean(L, 1);
  return 1;
}

int vdx__tabs_bring_to_front(lua_State *L);

void vdx__event_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"console", page_console},
    {"requests", page_requests},
    {"dialogs", page_dialogs},
    {"handle_dialog", page_handle_dialog},
    {"bring_to_front", vdx__tabs_bring_to_front},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
