/*
 * logs.c -- the page methods that read what events.c recorded:
 * page:console(), page:requests(), page:dialogs() and
 * page:handle_dialog(), the policy for the next dialog.
 */
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "events_priv.h"

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
  vdx__events_list(L, ev, name);
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
  int ok = want == NULL || vdx__events_level_rank(lua_tostring(L, -1)) >= vdx__events_level_rank(want);
  lua_pop(L, 2);
  return ok;
}

/* Reads since= (nil, "last" or a seq) against the `seen` mark; *moves is
 * set when the call moves that mark (not for a seq: a reader that keeps
 * its own seq leaves the "last" mark to the reader that follows it). */
static lua_Integer opt_since(lua_State *L, int opts, lua_Integer seen, int *moves) {
  lua_getfield(L, opts, "since");
  lua_Integer from = 0;
  *moves = 1;
  if (lua_type(L, -1) == LUA_TSTRING) {
    if (strcmp(lua_tostring(L, -1), "last") != 0)
      vdx__misuse(L, "since must be \"last\" or a seq number");
    from = seen;
  } else if (!lua_isnil(L, -1)) {
    from = luaL_checkinteger(L, -1);
    *moves = 0;
  }
  lua_pop(L, 1);
  return from;
}

/*
 * page:console{ level = nil, since = nil, limit = nil } -> { {seq=,
 * level=, source=, text=, url=, line=, column=, request_seq=}… }, oldest
 * first; request_seq is the seq of the last request page:requests had
 * when the message came (the document it followed).
 * level "error" keeps errors, "warning" warnings and errors, and so on
 * (debug < log = info < warning < error); since = "last" keeps what came
 * after the previous page:console call that gave no seq, since = n what
 * came after seq n (and leaves the "last" mark where it was).
 * Uncaught exceptions are errors with source "exception".  The page keeps
 * the last 500 messages.
 */
static int page_console(lua_State *L) {
  static const char *const known[] = {"level", "since", "limit", NULL};
  vdx_page *p = open_page(L);
  if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
  vdx__check_opts(L, 2, known);
  lua_getfield(L, 2, "level");
  if (!lua_isnil(L, -1) && vdx__events_level_rank(luaL_checkstring(L, -1)) < 0)
    vdx__misuse(L, "level must be debug, log, info, warning or error");
  lua_pop(L, 1);
  events *ev = vdx__events_of(L, p);
  int moves;
  lua_Integer from = opt_since(L, 2, ev->console_seen, &moves);
  collect(L, ev, "console", from, ev->console_seq, CONSOLE_CAP,
          vdx__opt_int(L, 2, "limit", 0), keep_console, 2);
  if (moves) ev->console_seen = ev->console_seq;
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
 * duration_ms=, finished=, body=, body_size=, body_binary=}… }, oldest
 * first.  filter keeps URLs that contain it (plain text); failed keeps
 * failures and statuses >= 400.  A fetch or XHR answered with a status
 * of 400 or more keeps its body (its first 64 KiB; body_binary instead
 * for bytes), read as it finished: it lands a moment after finished.
 * The page keeps the last 1000 requests.
 */
static int page_requests(lua_State *L) {
  static const char *const known[] = {"filter", "failed", "since", "limit", NULL};
  vdx_page *p = open_page(L);
  if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
  vdx__check_opts(L, 2, known);
  events *ev = vdx__events_of(L, p);
  int moves; /* (requests keep no "last" mark) */
  lua_Integer from = opt_since(L, 2, 0, &moves);
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
  events *ev = vdx__events_of(L, p);
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
  events *ev = vdx__events_of(L, p);
  lua_getfield(L, 2, "accept");
  ev->next_accept = lua_isnil(L, -1) ? 1 : lua_toboolean(L, -1);
  lua_getfield(L, 2, "prompt_text");
  free(ev->next_prompt);
  ev->next_prompt = lua_isnil(L, -1) ? NULL : strdup(luaL_checkstring(L, -1));
  ev->next_set = 1;
  lua_pushboolean(L, 1);
  return 1;
}

void vdx__log_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"console", page_console},
    {"requests", page_requests},
    {"dialogs", page_dialogs},
    {"handle_dialog", page_handle_dialog},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
