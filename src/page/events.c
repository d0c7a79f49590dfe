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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "events.h"
#include "events_priv.h"
#include "task.h"

#define PAGES_KEY "vdx.page_objects"   /* registry: weak lightuserdata -> page */
#define DIALOGS_TOLD 5                   /* dialogs listed in an action's result */

/* ------------------------------------------------------------ state */

events *vdx__events_of(lua_State *L, vdx_page *p) {
  if (p->events) return p->events;
  events *ev = calloc(1, sizeof *ev);
  if (ev == NULL) luaL_error(L, "out of memory");
  ev->p = p;
  ev->lp = p->b->lp;
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

void vdx__events_list(lua_State *L, events *ev, const char *name) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, ev->ref);
  lua_getfield(L, -1, name);
  lua_remove(L, -2);
}

/* Stores the table on top as record seq of list name, dropping the record
 * that falls out of a ring of cap. */
static void ring_put(lua_State *L, events *ev, const char *name,
                     lua_Integer seq, int cap) {
  vdx__events_list(L, ev, name);
  lua_insert(L, -2);
  lua_rawseti(L, -2, seq);
  lua_pushnil(L);
  lua_rawseti(L, -2, seq - cap);
  lua_pop(L, 1);
}

void vdx__page_events_free(vdx_page *p) {
  events *ev = p->events;
  if (ev == NULL) return;
  p->events = NULL;
  int closed = vdx__loop_closed(ev->lp);
  if (!closed) {
    luaL_unref(vdx__main_state(ev->lp), LUA_REGISTRYINDEX, ev->ref);
  }
  free(ev->next_prompt);
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

int vdx__events_level_rank(const char *level) {
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
  lua_createtable(L, 0, 8);
  lua_pushinteger(L, ++ev->console_seq);
  lua_setfield(L, -2, "seq");
  /* the requests' seq so far: what a message came after (the document
   * it belongs to is the last one requested before it) */
  lua_pushinteger(L, ev->req_seq);
  lua_setfield(L, -2, "request_seq");
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
    vdx__events_list(L, ev, "console");
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
  vdx__events_list(L, ev, "byid");
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
    if (ms > -9e15 && ms < 9e15) {     /* false for NaN and infinities too */
      lua_pushinteger(L, (lua_Integer)(ms + 0.5));
      lua_setfield(L, rec, "duration_ms");
    }
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
  vdx__events_list(L, ev, "byid");
  lua_getfield(L, params, "requestId");
  lua_pushvalue(L, rec);
  lua_rawset(L, -3);
  /* the record that falls out of the ring leaves the id map too */
  vdx__events_list(L, ev, "requests");
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

/* A failed fetch or XHR answer keeps its body (the first BODY_KEEP bytes):
 * the browser drops a body with its document, and the body of an error
 * is what a person reading the failure wants (an API's message).  Asked
 * of the browser as the request finishes; the answer lands in the record
 * (body, body_size, body_binary) when it comes. */
#define BODY_KEEP (64 * 1024)

static void kept_body(void *data, lua_State *L, int ok) {
  int ref = (int)(intptr_t)data;
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  luaL_unref(L, LUA_REGISTRYINDEX, ref);
  int rec = lua_gettop(L);
  if (!ok || !lua_istable(L, 1) || !lua_istable(L, rec)) return;
  lua_getfield(L, 1, "base64Encoded");
  int binary = lua_toboolean(L, -1);
  size_t len = 0;
  lua_getfield(L, 1, "body");
  const char *body = lua_tolstring(L, -1, &len);
  if (body == NULL) return;
  lua_pushinteger(L, (lua_Integer)len);
  lua_setfield(L, rec, "body_size");
  if (binary) {
    lua_pushboolean(L, 1);
    lua_setfield(L, rec, "body_binary");
    return;
  }
  lua_pushlstring(L, body, len > BODY_KEEP ? BODY_KEEP : len);
  lua_setfield(L, rec, "body");
}

static void keep_failed_body(lua_State *L, events *ev, int rec, int params) {
  lua_getfield(L, rec, "status");
  lua_Integer status = lua_tointeger(L, -1);
  lua_getfield(L, rec, "type");
  const char *type = lua_tostring(L, -1);
  int api = type && (strcmp(type, "Fetch") == 0 || strcmp(type, "XHR") == 0);
  lua_pop(L, 2);
  vdx_conn *c = ev->p->b->conn;
  if (status < 400 || !api || c == NULL || vdx__conn_closed(c)) return;
  lua_createtable(L, 0, 1);
  lua_getfield(L, params, "requestId");
  lua_setfield(L, -2, "requestId");
  vdx_waiter *w = vdx__conn_call(L, c, ev->p->session_id,
                                 "Network.getResponseBody", -1,
                                 vdx__conn_default_timeout(c));
  if (w == NULL) { lua_pop(L, 2); return; }   /* params and the error */
  lua_pop(L, 1);
  lua_pushvalue(L, rec);
  vdx__waiter_then(w, kept_body, (void *)(intptr_t)luaL_ref(L, LUA_REGISTRYINDEX));
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
    keep_failed_body(L, ev, rec, params);
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

/* A storm: STORM_RUN dialogs in a row, each opened within STORM_GAP_MS of
 * the one before (a page that opens them in a loop, on load, on a timer).
 * Each is answered at once all the same; at every STORM_RUN-th the
 * page's running script gets Runtime.terminateExecution, so a loop that
 * never returns stops and the load, a navigation or a call can go on (a
 * timer's storm resumes with its next tick, and is stopped again). */
#define STORM_RUN 50
#define STORM_GAP_MS 250

static void storm_check(lua_State *L, events *ev) {
  uint64_t now = uv_now(vdx__uv_of(ev->lp));
  ev->dialog_run = ev->dialog_at && now - ev->dialog_at <= STORM_GAP_MS ? ev->dialog_run + 1 : 1;
  ev->dialog_at = now;
  if (ev->dialog_run % STORM_RUN != 0) return;
  vdx__trace("a dialog storm: the page's script is stopped");
  ev->dialog_stops++;
  lua_newtable(L);
  vdx__conn_send_only(L, ev->p->b->conn, ev->p->session_id,
                      "Runtime.terminateExecution", -1);
  lua_pop(L, 1);
}

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
  storm_check(L, ev);
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

/* ------------------------------------------------------------ entry */

void vdx__page_events(lua_State *L, vdx_page *p, const char *method,
                      int params) {
  events *ev = vdx__events_of(L, p);
  params = lua_absindex(L, params);
  if (strncmp(method, "Network.", 8) == 0) {
    const char *m = method + 8;
    int start = strcmp(m, "requestWillBeSent") == 0;
    int end = strcmp(m, "loadingFinished") == 0 || strcmp(m, "loadingFailed") == 0;
    if (start) on_request(L, ev, params);
    else if (end || strcmp(m, "responseReceived") == 0) on_request_end(L, ev, m, params);
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
  }
}

/* ------------------------------------------------- for the actions */

void vdx__events_mark(lua_State *L, vdx_page *p) {
  events *ev = vdx__events_of(L, p);
  lua_createtable(L, 0, 8);
  lua_pushinteger(L, ev->console_seq);
  lua_setfield(L, -2, "console");
  lua_pushinteger(L, ev->dialogs);
  lua_setfield(L, -2, "dialogs");
  lua_pushinteger(L, ev->popups);
  lua_setfield(L, -2, "popups");
  lua_pushinteger(L, ev->downloads);
  lua_setfield(L, -2, "downloads");
  lua_pushinteger(L, ev->errors);
  lua_setfield(L, -2, "errors");
  lua_pushinteger(L, ev->dialog_stops);
  lua_setfield(L, -2, "dialog_stops");
  lua_pushinteger(L, ev->req_seq);
  lua_setfield(L, -2, "requests");
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
  vdx__events_list(L, ev, name);
  lua_createtable(L, (int)(to - from), 0);
  lua_Integer n = 0;
  for (lua_Integer i = from + 1; i <= to; i++)
    if (lua_rawgeti(L, -2, i) == LUA_TTABLE) lua_rawseti(L, -2, ++n);
    else lua_pop(L, 1);
  lua_setfield(L, res, name);
  lua_pop(L, 1);
}

void vdx__events_since(lua_State *L, vdx_page *p, int mark, int res) {
  events *ev = vdx__events_of(L, p);
  mark = lua_absindex(L, mark);
  res = lua_absindex(L, res);
  luaL_checkstack(L, 10, "vdx: result");
  copy_since(L, ev, "popups", mark_int(L, mark, "popups"), ev->popups, res);
  /* Many dialogs (a storm) are told by count: at most DIALOGS_TOLD of
   * them, the earliest the ring still holds, then dialog_count, and how
   * often the page's script was stopped. */
  lua_Integer d0 = mark_int(L, mark, "dialogs");
  lua_Integer from = ev->dialogs - d0 > LIST_CAP ? ev->dialogs - LIST_CAP : d0;
  lua_Integer to = ev->dialogs - from > DIALOGS_TOLD ? from + DIALOGS_TOLD : ev->dialogs;
  copy_since(L, ev, "dialogs", from, to, res);
  if (ev->dialogs - d0 > to - from) {
    lua_pushinteger(L, ev->dialogs - d0);
    lua_setfield(L, res, "dialog_count");
  }
  if (ev->dialog_stops > mark_int(L, mark, "dialog_stops")) {
    lua_pushinteger(L, ev->dialog_stops - mark_int(L, mark, "dialog_stops"));
    lua_setfield(L, res, "dialog_storms_stopped");
  }
  copy_since(L, ev, "downloads", mark_int(L, mark, "downloads"), ev->downloads, res);
  lua_pushinteger(L, ev->errors - mark_int(L, mark, "errors"));
  lua_setfield(L, res, "console_errors");
}

void vdx__events_pointer(lua_State *L, vdx_page *p, double *x, double *y,
                         int set) {
  events *ev = vdx__events_of(L, p);
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

