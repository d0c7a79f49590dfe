/*
 * actions.c -- acting on the page like a user: click, hover, type, check,
 * select_option, press_key, drag, upload_file, click_at; fill_form (in
 * fill_form.c) runs these field by field.
 *
 * Every action is one small program of steps run by act_k: resolve the
 * target (a snapshot ref, or a description through the bridge's ladder),
 * wait in the page until it can take input, add the offsets of the frames
 * it sits in (frame_offset.c), hit-test, send real input events on the
 * page's main session, let the page settle (a navigation it started loads
 * or is abandoned), and report what happened.  All the state of a running
 * action is in one Lua table (stack slot 2), so a continuation finds
 * everything there.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "input.h"
#include "events.h"
#include "actions.h"

#define ST 2              /* stack slot of the action's state table */

enum {
  S_RESOLVE, S_POINT, S_OFFSET, S_NEXT, S_MOUSE, S_FOCUS, S_KEYS, S_SELECT,
  S_SLIDER, S_STATE, S_STATE2, S_FILEINFO, S_FILEOBJ, S_SETFILES, S_SETTLE,
  S_NAVWAIT, S_SHOT, S_RESULT, S_SNAPSHOT, S_END
};

enum { K_CLICK, K_HOVER, K_TYPE, K_CHECK, K_SELECT, K_PRESS, K_DRAG, K_UPLOAD,
       K_CLICKAT, K_SLIDER };

#define TAIL S_SETTLE, S_NAVWAIT, S_RESULT, S_SNAPSHOT, S_END
static const signed char PROGRAMS[][16] = {
  [K_CLICK] = {S_RESOLVE, S_POINT, S_OFFSET, S_MOUSE, TAIL},
  [K_HOVER] = {S_RESOLVE, S_POINT, S_OFFSET, S_MOUSE, TAIL},
  [K_TYPE] = {S_RESOLVE, S_FOCUS, S_KEYS, TAIL},
  [K_CHECK] = {S_RESOLVE, S_STATE, S_POINT, S_OFFSET, S_MOUSE, S_STATE2, TAIL},
  [K_SELECT] = {S_RESOLVE, S_SELECT, TAIL},
  [K_PRESS] = {S_RESOLVE, S_FOCUS, S_KEYS, TAIL},
  [K_DRAG] = {S_RESOLVE, S_POINT, S_OFFSET, S_NEXT, S_RESOLVE, S_POINT,
              S_OFFSET, S_MOUSE, TAIL},
  [K_UPLOAD] = {S_RESOLVE, S_FILEINFO, S_FILEOBJ, S_SETFILES, TAIL},
  [K_CLICKAT] = {S_MOUSE, S_SETTLE, S_NAVWAIT, S_SHOT, S_RESULT, S_SNAPSHOT,
                 S_END},
  [K_SLIDER] = {S_RESOLVE, S_SLIDER, TAIL},
};

/* Runs in a frame's world: the file input of a ref, as an object. */
static const char FILE_FN[] =
  "function (prefix, ref) { return globalThis.__vdxBridge.instance(prefix)"
  ".fileInput(ref); }";

/* ------------------------------------------------------------ state */

static lua_Integer st_int(lua_State *L, const char *k) {
  lua_getfield(L, ST, k);
  lua_Integer v = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return v;
}

static double st_num(lua_State *L, const char *k) {
  lua_getfield(L, ST, k);
  double v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}

static int st_bool(lua_State *L, const char *k) {
  lua_getfield(L, ST, k);
  int v = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

/* A string of the state table: valid while the table holds it. */
static const char *st_str(lua_State *L, const char *k) {
  lua_getfield(L, ST, k);
  const char *v = lua_tostring(L, -1);
  lua_pop(L, 1);
  return v;
}

/* The state key k of the current target ("ref" -> "ref1" or "ref2"). */
static const char *cur(lua_State *L, const char *k) {
  static char buf[32];
  snprintf(buf, sizeof buf, "%s%d", k, (int)st_int(L, "cur"));
  return buf;
}

/* Milliseconds left before the action's deadline (at least 1). */
static int left_ms(lua_State *L, vdx_page *p) {
  lua_Integer now = (lua_Integer)uv_now(vdx__uv_of(p->b->lp));
  lua_Integer left = st_int(L, "deadline") - now;
  return left < 1 ? 1 : left > INT_MAX ? INT_MAX : (int)left;
}

static vdx_frame *cur_frame(lua_State *L, vdx_page *p) {
  const char *id = st_str(L, cur(L, "frame"));
  vdx_frame *f = id ? vdx__frame_find(p, id) : NULL;
  if (f == NULL)
    vdx__error_raise(L, "FrameDetached", "the frame of %s is gone (it was "
                     "removed or navigated away); take a new snapshot",
                     st_str(L, cur(L, "ref")));
  return f;
}

int vdx__is_ref(const char *s) {
  if (s[0] == 'f') {
    if (s[1] < '1' || s[1] > '9') return 0;
    s++;
    while (*s >= '0' && *s <= '9') s++;
    if (*s++ != '_') return 0;
  }
  if (s[0] != 'e' || s[1] < '1' || s[1] > '9') return 0;
  for (s++; *s; s++)
    if (*s < '0' || *s > '9') return 0;
  return 1;
}

/* ------------------------------------------------------------ errors */

/* Raises ElementCovered for the covering element (table at cov). */
static int raise_covered(lua_State *L, int cov) {
  const char *ref = st_str(L, cur(L, "ref"));
  lua_getfield(L, cov, "tag");
  lua_getfield(L, cov, "id");
  lua_getfield(L, cov, "class");
  lua_getfield(L, cov, "text");
  const char *tag = luaL_optstring(L, -4, ""), *id = luaL_optstring(L, -3, "");
  const char *cls = luaL_optstring(L, -2, ""), *text = luaL_optstring(L, -1, "");
  if (!*tag) {
    vdx__error_push(L, "ElementCovered", "the point to press %s is outside "
                    "the page's viewport; nothing there would receive it", ref);
  } else {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "<%s", tag);
    luaL_addvalue(&b);
    if (*id) { lua_pushfstring(L, " id=\"%s\"", id); luaL_addvalue(&b); }
    if (*cls) { lua_pushfstring(L, " class=\"%s\"", cls); luaL_addvalue(&b); }
    luaL_addstring(&b, ">");
    if (*text) { lua_pushfstring(L, " \"%s\"", text); luaL_addvalue(&b); }
    if (lua_getfield(L, cov, "layer") == LUA_TTABLE) {
      lua_getfield(L, -1, "tag");
      lua_getfield(L, -2, "id");
      lua_pushfstring(L, ", inside <%s id=\"%s\">", luaL_optstring(L, -2, ""),
                      luaL_optstring(L, -1, ""));
      lua_remove(L, -2);
      lua_remove(L, -2);
      lua_remove(L, -2);
      luaL_addvalue(&b);
    } else {
      lua_pop(L, 1);
    }
    luaL_pushresult(&b);
    vdx__error_push(L, "ElementCovered", "%s is covered by %s, which would "
                    "receive the click; deal with that element first (close or "
                    "accept it), retrying will not help", ref, lua_tostring(L, -1));
  }
  lua_pushstring(L, ref);
  lua_setfield(L, -2, "ref");
  lua_pushvalue(L, cov);
  lua_setfield(L, -2, "covering");
  return lua_error(L);
}

static int raise_nomatch(lua_State *L, int miss) {
  lua_getfield(L, miss, "message");
  vdx__error_push(L, "NoMatch", "%s", luaL_optstring(L, -1, "nothing matches"));
  int e = lua_gettop(L);
  static const char *const keys[] = {"description", "tried", "links", "href",
                                     "url", NULL};
  for (int i = 0; keys[i]; i++) {
    lua_getfield(L, miss, keys[i]);
    lua_setfield(L, e, keys[i]);
  }
  return lua_error(L);
}

/* ------------------------------------------------------------- steps */

/* Pushes { ref, opts } for a bridge method taking (ref, opts). */
static void push_ref_args(lua_State *L, vdx_page *p) {
  lua_createtable(L, 2, 0);
  lua_getfield(L, ST, cur(L, "ref"));
  lua_rawseti(L, -2, 1);
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, left_ms(L, p));
  lua_setfield(L, -2, "timeout");
  lua_rawseti(L, -2, 2);
}

static vdx_waiter *bridge(lua_State *L, vdx_page *p, const char *method) {
  /* stack: args */
  vdx_frame *f = cur_frame(L, p);
  vdx_waiter *w = vdx__bridge_call(L, p, f->id, method, -1, left_ms(L, p) + 1000);
  if (w == NULL) luaL_error(L, "out of memory");
  return w;
}

static vdx_waiter *call_main(lua_State *L, vdx_page *p, const char *method) {
  /* stack: params */
  vdx_waiter *w = vdx__conn_call(L, vdx__browser_conn(L, p->b), p->session_id,
                                 method, -1, left_ms(L, p));
  if (w == NULL) lua_error(L);
  return w;
}

static void mouse_list(lua_State *L, vdx_page *p, int kind) {
  lua_newtable(L);
  int list = lua_gettop(L);
  int mods = (int)st_int(L, "mods");
  const char *button = st_str(L, "button");
  double x = st_num(L, "x1"), y = st_num(L, "y1"), px, py;
  vdx__events_pointer(L, p, &px, &py, 0);
  if (kind == K_CLICKAT) {
    double tx = st_num(L, "ax"), ty = st_num(L, "ay");
    int steps = (int)st_int(L, "steps");
    for (int i = 1; i <= steps; i++)
      vdx__input_mouse(L, list, "mouseMoved", px + (tx - px) * i / steps,
                       py + (ty - py) * i / steps, NULL, 0, mods);
    vdx__input_mouse(L, list, "mousePressed", tx, ty, button, 1, mods);
    if (st_int(L, "hold") > 0) {
      lua_createtable(L, 0, 1);
      lua_pushinteger(L, st_int(L, "hold"));
      lua_setfield(L, -2, "sleep");
      lua_rawseti(L, list, (lua_Integer)luaL_len(L, list) + 1);
    }
    vdx__input_mouse(L, list, "mouseReleased", tx, ty, button, 1, mods);
    x = tx;
    y = ty;
  } else if (kind == K_DRAG) {
    double x2 = st_num(L, "x2"), y2 = st_num(L, "y2");
    int steps = (int)st_int(L, "steps");
    vdx__input_mouse(L, list, "mouseMoved", x, y, NULL, 0, mods);
    vdx__input_mouse(L, list, "mousePressed", x, y, "left", 1, mods);
    for (int i = 1; i <= steps; i++)
      vdx__input_mouse(L, list, "mouseMoved", x + (x2 - x) * i / steps,
                       y + (y2 - y) * i / steps, "left", 0, mods);
    vdx__input_mouse(L, list, "mouseReleased", x2, y2, "left", 1, mods);
    x = x2;
    y = y2;
  } else {
    vdx__input_mouse(L, list, "mouseMoved", x, y, NULL, 0, mods);
    int count = kind == K_HOVER ? 0 : (int)st_int(L, "count");
    for (int i = 1; i <= count; i++) {
      vdx__input_mouse(L, list, "mousePressed", x, y, button, i, mods);
      vdx__input_mouse(L, list, "mouseReleased", x, y, button, i, mods);
    }
  }
  vdx__events_pointer(L, p, &x, &y, 1);
}

static void key_list(lua_State *L, int kind) {
  lua_newtable(L);
  int list = lua_gettop(L);
  if (kind == K_PRESS) {
    vdx__input_press(L, list, st_str(L, "key"));
    return;
  }
  size_t len;
  lua_getfield(L, ST, "text");
  const char *text = lua_tolstring(L, -1, &len);
  if (len > 0 && st_bool(L, "slowly")) {
    vdx__input_type(L, list, text, len);
  } else if (len > 0) {
    lua_createtable(L, 2, 0);
    lua_pushliteral(L, "Input.insertText");
    lua_rawseti(L, -2, 1);
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "text");
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, list, (lua_Integer)luaL_len(L, list) + 1);
  } else if (st_bool(L, "clear") && st_bool(L, "had_text")) {
    vdx__input_press(L, list, "Delete");
  }
  lua_pop(L, 1);
  if (st_bool(L, "submit")) vdx__input_press(L, list, "Enter");
}

/* Starts a step; returns what to wait for, or NULL when the step is done. */
static vdx_waiter *step_start(lua_State *L, vdx_page *p, int kind, int step) {
  luaL_checkstack(L, 30, "vdx: action");
  switch (step) {
  case S_RESOLVE: {
    lua_getfield(L, ST, cur(L, "target"));
    if (lua_isnil(L, -1)) return NULL;           /* press_key without one */
    const char *t = lua_tostring(L, -1);
    if (vdx__is_ref(t)) {
      vdx_frame *f = vdx__ref_frame(L, p, t);
      lua_setfield(L, ST, cur(L, "ref"));
      lua_pushstring(L, f->id);
      lua_setfield(L, ST, cur(L, "frame"));
      return NULL;
    }
    lua_pushstring(L, p->frames[0].id);
    lua_setfield(L, ST, cur(L, "frame"));
    lua_createtable(L, 1, 0);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, 1);
    return bridge(L, p, "findByDescription");
  }
  case S_POINT:
    push_ref_args(L, p);
    lua_rawgeti(L, -1, 2);
    lua_getfield(L, ST, "position");
    lua_setfield(L, -2, "position");
    lua_pop(L, 1);
    return bridge(L, p, "actionPoint");
  case S_OFFSET: {
    vdx_frame *f = cur_frame(L, p);
    if (f->ordinal == 0) return NULL;
    double x = st_num(L, cur(L, "x"));
    double y = st_num(L, cur(L, "y"));
    return vdx__frame_offset(L, p, f, x, y, left_ms(L, p));
  }
  case S_NEXT:
    lua_pushinteger(L, 2);
    lua_setfield(L, ST, "cur");
    return NULL;
  case S_MOUSE:
    mouse_list(L, p, kind);
    return vdx__input_run(L, p, -1, left_ms(L, p));
  case S_FOCUS:
    if (kind == K_PRESS && lua_getfield(L, ST, "ref1") == LUA_TNIL) return NULL;
    push_ref_args(L, p);
    if (kind == K_TYPE) {
      lua_rawgeti(L, -1, 2);
      lua_pushboolean(L, st_bool(L, "clear"));
      lua_setfield(L, -2, "clear");
      lua_pop(L, 1);
      return bridge(L, p, "prepareType");
    }
    return bridge(L, p, "focus");
  case S_KEYS:
    key_list(L, kind);
    return vdx__input_run(L, p, -1, left_ms(L, p));
  case S_SELECT:
  case S_SLIDER:
    push_ref_args(L, p);
    lua_rawgeti(L, -1, 2);            /* (ref, values|value, opts) */
    lua_rawseti(L, -2, 3);
    lua_getfield(L, ST, "values");
    lua_rawseti(L, -2, 2);
    return bridge(L, p, step == S_SELECT ? "selectOption" : "setSlider");
  case S_STATE:
  case S_STATE2:
    if (step == S_STATE2 && st_bool(L, "unchanged")) return NULL;
    push_ref_args(L, p);
    return bridge(L, p, "checkState");
  case S_FILEINFO:
    push_ref_args(L, p);
    return bridge(L, p, "fileInputInfo");
  case S_FILEOBJ: {
    vdx_frame *f = cur_frame(L, p);
    lua_createtable(L, 0, 4);
    lua_pushstring(L, FILE_FN);
    lua_setfield(L, -2, "functionDeclaration");
    lua_pushinteger(L, f->ctx);
    lua_setfield(L, -2, "executionContextId");
    lua_createtable(L, 2, 0);
    lua_createtable(L, 0, 1);
    if (f->ordinal) lua_pushfstring(L, "f%d_", f->ordinal);
    else lua_pushliteral(L, "");
    lua_setfield(L, -2, "value");
    lua_rawseti(L, -2, 1);
    lua_createtable(L, 0, 1);
    lua_getfield(L, ST, "ref1");
    lua_setfield(L, -2, "value");
    lua_rawseti(L, -2, 2);
    lua_setfield(L, -2, "arguments");
    vdx_waiter *w = vdx__conn_call(L, vdx__browser_conn(L, p->b), f->sid,
                                   "Runtime.callFunctionOn", -1, left_ms(L, p));
    if (w == NULL) lua_error(L);
    return w;
  }
  case S_SETFILES: {
    vdx_frame *f = cur_frame(L, p);
    lua_createtable(L, 0, 2);
    lua_getfield(L, ST, "paths");
    lua_setfield(L, -2, "files");
    lua_getfield(L, ST, "object");
    lua_setfield(L, -2, "objectId");
    vdx_waiter *w = vdx__conn_call(L, vdx__browser_conn(L, p->b), f->sid,
                                   "DOM.setFileInputFiles", -1, left_ms(L, p));
    if (w == NULL) lua_error(L);
    return w;
  }
  case S_SETTLE:                  /* a round trip: the page's events are in */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "0");
    lua_setfield(L, -2, "expression");
    return call_main(L, p, "Runtime.evaluate");
  case S_NAVWAIT:
    lua_getfield(L, ST, "mark");
    return vdx__events_settle(L, p, -1, left_ms(L, p));
  case S_SHOT:
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "png");
    lua_setfield(L, -2, "format");
    return call_main(L, p, "Page.captureScreenshot");
  case S_RESULT:
    lua_createtable(L, 0, 8);
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "ok");
    lua_getfield(L, ST, "ref1");
    lua_setfield(L, -2, "ref");
    lua_getfield(L, ST, "mark");
    vdx__events_since(L, p, -1, -2);
    lua_pop(L, 1);
    lua_getfield(L, ST, "extra");
    if (lua_istable(L, -1)) {             /* facts of the steps: selected… */
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_settable(L, -5);
      }
    }
    lua_pop(L, 1);
    lua_setfield(L, ST, "result");
    return NULL;
  default:
    return NULL;
  }
}

static void set_extra(lua_State *L, const char *k) {
  /* stack: value -> */
  if (lua_getfield(L, ST, "extra") != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, ST, "extra");
  }
  lua_insert(L, -2);
  lua_setfield(L, -2, k);
  lua_pop(L, 1);
}

/* Consumes the value (slot 3) of a step; returns a step to jump to or -1. */
static int step_finish(lua_State *L, vdx_page *p, int kind, int step) {
  luaL_checkstack(L, 30, "vdx: action");
  (void)p;
  switch (step) {
  case S_RESOLVE:
    if (lua_getfield(L, 3, "miss") == LUA_TTABLE) return raise_nomatch(L, lua_gettop(L));
    lua_getfield(L, 3, "ref");
    lua_setfield(L, ST, cur(L, "ref"));
    lua_getfield(L, 3, "by");
    set_extra(L, "found_by");
    return -1;
  case S_POINT:
    lua_getfield(L, 3, "x");
    lua_setfield(L, ST, cur(L, "x"));
    lua_getfield(L, 3, "y");
    lua_setfield(L, ST, cur(L, "y"));
    if (lua_getfield(L, 3, "covered") == LUA_TTABLE) return raise_covered(L, lua_gettop(L));
    return -1;
  case S_OFFSET:
    if (lua_getfield(L, 3, "covered") == LUA_TTABLE) return raise_covered(L, lua_gettop(L));
    lua_getfield(L, 3, "x");
    lua_setfield(L, ST, cur(L, "x"));
    lua_getfield(L, 3, "y");
    lua_setfield(L, ST, cur(L, "y"));
    return -1;
  case S_FOCUS:
    if (kind == K_TYPE) {
      lua_getfield(L, 3, "had_text");
      lua_setfield(L, ST, "had_text");
    }
    return -1;
  case S_SELECT:
    lua_getfield(L, 3, "selected");
    set_extra(L, "selected");
    return -1;
  case S_SLIDER:
    lua_getfield(L, 3, "value");
    set_extra(L, "value");
    return -1;
  case S_STATE:
  case S_STATE2: {
    lua_getfield(L, 3, "checked");
    int mixed = lua_type(L, -1) == LUA_TSTRING;
    int checked = !mixed && lua_toboolean(L, -1);
    int want = st_bool(L, "want");
    lua_getfield(L, 3, "role");
    const char *role = luaL_optstring(L, -1, "?");
    if (step == S_STATE) {
      if (!want && strcmp(role, "radio") == 0 && checked)
        return vdx__error_raise(L, "NotCheckable", "%s is a radio button: it "
                                "cannot be unchecked, check another one",
                                st_str(L, "ref1"));
      if (!mixed && checked == want) {
        lua_pushboolean(L, 1);
        lua_setfield(L, ST, "unchanged");
        lua_pushboolean(L, 0);
        set_extra(L, "changed");
        return S_SETTLE;
      }
      lua_pushboolean(L, 1);
      set_extra(L, "changed");
    } else if (mixed || checked != want) {
      return vdx__error_raise(L, "CheckFailed", "clicking %s (%s) did not %s it",
                              st_str(L, "ref1"), role, want ? "check" : "uncheck");
    }
    return -1;
  }
  case S_FILEINFO:
    lua_getfield(L, 3, "multiple");
    lua_getfield(L, ST, "paths");
    if (!lua_toboolean(L, -2) && luaL_len(L, -1) > 1)
      return vdx__error_raise(L, "NotMultiple", "%s takes one file, not %d",
                              st_str(L, "ref1"), (int)luaL_len(L, -1));
    return -1;
  case S_FILEOBJ:
    if (lua_getfield(L, 3, "exceptionDetails") == LUA_TTABLE) {
      lua_getfield(L, -1, "exception");
      lua_getfield(L, -1, "description");
      return vdx__error_raise(L, "StaleRef", "%s: %s", st_str(L, "ref1"),
                              luaL_optstring(L, -1, "the element is gone"));
    }
    lua_getfield(L, 3, "result");
    lua_getfield(L, -1, "objectId");
    lua_setfield(L, ST, "object");
    return -1;
  case S_SHOT: {
    size_t len;
    lua_getfield(L, 3, "data");
    const char *b64 = luaL_checklstring(L, -1, &len);
    const char *path = st_str(L, "path");
    if (path) {
      vdx__b64_write_file(L, path, b64, len);
      set_extra(L, "screenshot");
    } else {
      unsigned char *buf = lua_newuserdatauv(L, len / 4 * 3 + 4, 0);
      long n = vdx__b64_decode(b64, len, buf);
      if (n < 0) return luaL_error(L, "the browser sent data that is not base64");
      lua_pushlstring(L, (const char *)buf, (size_t)n);
      set_extra(L, "png");
    }
    /* S_RESULT comes after the shot: nothing else to do here */
    return -1;
  }
  case S_SNAPSHOT:
    lua_getfield(L, ST, "result");
    lua_getfield(L, 3, "text");
    lua_setfield(L, -2, "snapshot");
    return -1;
  default:
    return -1;
  }
}

static int program_index(int kind, int step) {
  for (int i = 0; i < 16; i++)
    if (PROGRAMS[kind][i] == step) return i;
  return 15;
}

/* stack: page, state, [value] */
static int act_k(lua_State *L, int status, lua_KContext k) {
  (void)status;
  vdx_page *p = vdx__check_page(L, 1);
  int kind = (int)st_int(L, "kind");
  int pc = (int)(k >> 1), finishing = (int)(k & 1);
  for (;;) {
    int step = PROGRAMS[kind][pc];
    if (finishing) {
      lua_settop(L, 3);
      int jump = step_finish(L, p, kind, step);
      finishing = 0;
      pc = jump >= 0 ? program_index(kind, jump) : pc + 1;
      lua_settop(L, 2);
      continue;
    }
    lua_settop(L, 2);
    if (step == S_END) {
      lua_getfield(L, ST, "result");
      return 1;
    }
    if (step == S_SNAPSHOT) {
      if (!st_bool(L, "snapshot")) { pc++; continue; }
      lua_getfield(L, 1, "snapshot");
      lua_pushvalue(L, 1);
      lua_callk(L, 1, 1, ((lua_KContext)pc << 1) | 1, act_k);
      return act_k(L, LUA_OK, ((lua_KContext)pc << 1) | 1);
    }
    if (p->closed) {
      if (step >= S_SETTLE) {             /* the action closed the page */
        if (step == S_RESULT) { step_start(L, p, kind, step); }
        pc++;
        continue;
      }
      vdx__check_open_page(L, 1);         /* raises PageClosed */
    }
    vdx_waiter *w = step_start(L, p, kind, step);
    if (w == NULL) { pc++; continue; }
    lua_settop(L, 2);
    return vdx__await(L, w, ((lua_KContext)pc << 1) | 1, act_k);
  }
}

/* ------------------------------------------------------------ entries */

vdx_page *vdx__action_open_page(lua_State *L) {
  return vdx__check_open_page(L, 1);
}

static void check_target(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TSTRING || lua_rawlen(L, idx) == 0)
    luaL_argerror(L, idx, "a ref (e3, f1_e7) or a description expected");
}

/* Builds the state table at slot 2 from the options at opts (copied); the
 * caller then sets the action's own fields and calls run(). */
static void new_state(lua_State *L, vdx_page *p, int opts, int kind) {
  luaL_checkstack(L, 20, "vdx: action");
  opts = lua_absindex(L, opts);
  lua_createtable(L, 0, 24);
  int st = lua_gettop(L);
  lua_pushinteger(L, kind);
  lua_setfield(L, st, "kind");
  lua_pushinteger(L, 1);
  lua_setfield(L, st, "cur");
  int timeout = (int)vdx__opt_int(L, opts, "timeout_ms",
                                  vdx__conn_default_timeout(p->b->conn));
  uv_update_time(vdx__uv_of(p->b->lp));
  uv_update_time(vdx__uv_of(p->b->lp));
  lua_pushinteger(L, (lua_Integer)uv_now(vdx__uv_of(p->b->lp)) + timeout);
  lua_setfield(L, st, "deadline");
  lua_pushinteger(L, 1);
  lua_setfield(L, st, "count");
  lua_pushliteral(L, "left");
  lua_setfield(L, st, "button");
  if (lua_istable(L, opts)) {
    lua_pushnil(L);
    while (lua_next(L, opts)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_settable(L, st);
    }
  }
  vdx__events_mark(L, p);
  lua_setfield(L, st, "mark");
}

/* stack: page, state -> result */
static int run(lua_State *L, int state) {
  lua_pushvalue(L, state);
  lua_replace(L, 2);
  lua_settop(L, 2);
  return act_k(L, LUA_OK, 0);
}

static void set_field(lua_State *L, int st, const char *k, int idx) {
  lua_pushvalue(L, idx);
  lua_setfield(L, st, k);
}

/* Reads button / click_count / modifiers / position from the state. */
static void mouse_opts(lua_State *L, int st) {
  lua_getfield(L, st, "button");
  const char *b = luaL_checkstring(L, -1);
  if (strcmp(b, "left") && strcmp(b, "right") && strcmp(b, "middle"))
    luaL_error(L, "button must be left, right or middle (got '%s')", b);
  lua_pop(L, 1);
  lua_getfield(L, st, "click_count");
  if (!lua_isnil(L, -1)) {
    lua_Integer n = luaL_checkinteger(L, -1);
    if (n < 1 || n > 3) luaL_error(L, "click_count must be 1, 2 or 3");
    lua_pushinteger(L, n);
    lua_setfield(L, st, "count");
  }
  lua_pop(L, 1);
  lua_getfield(L, st, "modifiers");
  lua_pushinteger(L, vdx__input_modifiers(L, -1));
  lua_setfield(L, st, "mods");
  lua_pop(L, 1);
  lua_getfield(L, st, "position");
  if (!lua_isnil(L, -1)) luaL_checktype(L, -1, LUA_TTABLE);
  lua_pop(L, 1);
}

#define COMMON "timeout_ms", "snapshot"

/*
 * page:click(target [, {button="left", click_count=1, modifiers=nil,
 * position={x=,y=}, timeout_ms=, snapshot=false}]) -> result.  target is
 * a ref from the latest snapshot or a description.  Waits until the
 * element is visible, enabled and still, scrolls it into view, hit-tests
 * its point (ElementCovered names what is on top) and sends real mouse
 * events.  The result: { ok=true, ref=, navigation=, popups=, dialogs=,
 * downloads=, console_errors=n, snapshot= (when asked) }.
 */
static int page_click(lua_State *L) {
  static const char *const known[] = {"button", "click_count", "modifiers",
                                      "position", COMMON, NULL};
  vdx_page *p = vdx__action_open_page(L);
  check_target(L, 2);
  vdx__check_opts(L, 3, known);
  new_state(L, p, 3, K_CLICK);
  int st = lua_gettop(L);
  set_field(L, st, "target1", 2);
  mouse_opts(L, st);
  return run(L, st);
}

/* page:hover(target [, {position=, modifiers=, timeout_ms=, snapshot=}])
 * -> result: moves the pointer onto the element (after the same waits
 * and hit test as click). */
static int page_hover(lua_State *L) {
  static const char *const known[] = {"position", "modifiers", COMMON, NULL};
  vdx_page *p = vdx__action_open_page(L);
  check_target(L, 2);
  vdx__check_opts(L, 3, known);
  new_state(L, p, 3, K_HOVER);
  int st = lua_gettop(L);
  set_field(L, st, "target1", 2);
  mouse_opts(L, st);
  return run(L, st);
}

/*
 * page:type(target, text [, {clear=false, submit=false, slowly=false,
 * timeout_ms=, snapshot=}]) -> result.  Focuses the input, textarea or
 * contenteditable element; clear replaces what it holds; text goes in with
 * Input.insertText, or key by key (keydown, keypress, input, keyup) when
 * slowly; submit presses Enter afterwards.
 */
static int page_type(lua_State *L) {
  static const char *const known[] = {"clear", "submit", "slowly", COMMON, NULL};
  vdx_page *p = vdx__action_open_page(L);
  check_target(L, 2);
  luaL_checkstring(L, 3);
  vdx__check_opts(L, 4, known);
  new_state(L, p, 4, K_TYPE);
  int st = lua_gettop(L);
  set_field(L, st, "target1", 2);
  lua_pushvalue(L, 3);
  lua_tostring(L, -1);
  lua_setfield(L, st, "text");
  return run(L, st);
}

static int check_common(lua_State *L, int want) {
  static const char *const known[] = {"position", COMMON, NULL};
  vdx_page *p = vdx__action_open_page(L);
  check_target(L, 2);
  vdx__check_opts(L, 3, known);
  new_state(L, p, 3, K_CHECK);
  int st = lua_gettop(L);
  set_field(L, st, "target1", 2);
  lua_pushboolean(L, want);
  lua_setfield(L, st, "want");
  return run(L, st);
}

/* page:check(target [, opts]) -> result with changed=true|false: clicks
 * a checkbox, radio or switch unless it is checked already, then verifies
 * it is (CheckFailed otherwise). */
static int page_check(lua_State *L) { return check_common(L, 1); }

/* page:uncheck(target [, opts]) -> result: the same towards unchecked. */
static int page_uncheck(lua_State *L) { return check_common(L, 0); }

/*
 * page:select_option(target, values [, {timeout_ms=, snapshot=}]) ->
 * result with selected = {values}.  values is a string or a list; each
 * matches an option's value or its label.  NoOption lists the options
 * there are when one does not match.
 */
static int page_select_option(lua_State *L) {
  static const char *const known[] = {COMMON, NULL};
  vdx_page *p = vdx__action_open_page(L);
  check_target(L, 2);
  if (lua_type(L, 3) == LUA_TSTRING || lua_type(L, 3) == LUA_TNUMBER) {
    lua_createtable(L, 1, 0);
    lua_pushvalue(L, 3);
    lua_tostring(L, -1);
    lua_rawseti(L, -2, 1);
    lua_replace(L, 3);
  }
  luaL_checktype(L, 3, LUA_TTABLE);
  vdx__check_opts(L, 4, known);
  new_state(L, p, 4, K_SELECT);
  int st = lua_gettop(L);
  set_field(L, st, "target1", 2);
  set_field(L, st, "values", 3);
  return run(L, st);
}

/* page:set_slider(target, value [, opts]) -> result: sets a range input
 * and fires input and change (what fill_form does for sliders). */
static int page_set_slider(lua_State *L) {
  static const char *const known[] = {COMMON, NULL};
  vdx_page *p = vdx__action_open_page(L);
  check_target(L, 2);
  luaL_checknumber(L, 3);
  vdx__check_opts(L, 4, known);
  new_state(L, p, 4, K_SLIDER);
  int st = lua_gettop(L);
  set_field(L, st, "target1", 2);
  set_field(L, st, "values", 3);
  return run(L, st);
}

/*
 * page:press_key(key [, {target=, timeout_ms=, snapshot=}]) -> result.
 * key is a key or a combination: "Enter", "Tab", "Shift+Tab",
 * "Control+A", "ArrowDown", "a".  With target the element is focused
 * first; otherwise the key goes to whatever has focus.
 */
static int page_press_key(lua_State *L) {
  static const char *const known[] = {"target", COMMON, NULL};
  vdx_page *p = vdx__action_open_page(L);
  const char *key = luaL_checkstring(L, 2);
  vdx__check_opts(L, 3, known);
  lua_newtable(L);                         /* validate the key now */
  vdx__input_press(L, -1, key);
  lua_pop(L, 1);
  new_state(L, p, 3, K_PRESS);
  int st = lua_gettop(L);
  set_field(L, st, "key", 2);
  lua_getfield(L, st, "target");
  if (!lua_isnil(L, -1)) {
    check_target(L, lua_gettop(L));
    lua_setfield(L, st, "target1");
  } else {
    lua_pop(L, 1);
  }
  return run(L, st);
}

/* page:drag(from, to [, {steps=5, timeout_ms=, snapshot=}]) -> result:
 * presses on from, moves in steps onto to and releases there (pointer
 * events; HTML5 drag-and-drop is not synthesized). */
static int page_drag(lua_State *L) {
  static const char *const known[] = {"steps", COMMON, NULL};
  vdx_page *p = vdx__action_open_page(L);
  check_target(L, 2);
  check_target(L, 3);
  vdx__check_opts(L, 4, known);
  new_state(L, p, 4, K_DRAG);
  int st = lua_gettop(L);
  set_field(L, st, "target1", 2);
  set_field(L, st, "target2", 3);
  lua_pushinteger(L, vdx__opt_int(L, 4, "steps", 5) < 1 ? 1 : vdx__opt_int(L, 4, "steps", 5));
  lua_setfield(L, st, "steps");
  return run(L, st);
}

/* page:upload_file(target, paths [, {timeout_ms=, snapshot=}]) -> result:
 * sets the files of a file input (or of the input its label controls);
 * paths is a path or a list, made absolute. */
static int page_upload_file(lua_State *L) {
  static const char *const known[] = {COMMON, NULL};
  vdx_page *p = vdx__action_open_page(L);
  check_target(L, 2);
  if (lua_type(L, 3) == LUA_TSTRING) {
    lua_createtable(L, 1, 0);
    lua_pushvalue(L, 3);
    lua_rawseti(L, -2, 1);
    lua_replace(L, 3);
  }
  luaL_checktype(L, 3, LUA_TTABLE);
  vdx__check_opts(L, 4, known);
  lua_newtable(L);
  for (lua_Integer i = 1; i <= luaL_len(L, 3); i++) {
    lua_rawgeti(L, 3, i);
    const char *path = luaL_checkstring(L, -1);
    char *abs = realpath(path, NULL);
    if (abs == NULL) return vdx__error_raise(L, "IOError", "no such file: %s", path);
    lua_pushstring(L, abs);
    free(abs);
    lua_rawseti(L, -3, i);
    lua_pop(L, 1);
  }
  lua_replace(L, 3);
  new_state(L, p, 4, K_UPLOAD);
  int st = lua_gettop(L);
  set_field(L, st, "target1", 2);
  set_field(L, st, "paths", 3);
  return run(L, st);
}

/*
 * page:click_at(x, y [, {hold_ms=0, steps=10, button="left", path=,
 * timeout_ms=}]) -> result with png = the PNG bytes of the viewport after
 * the release (or screenshot = {path=, size=} when path is given).  Moves
 * the pointer from where it was to (x, y) in steps, presses, holds, and
 * releases: for sliders, canvases and press-and-hold widgets.
 */
static int page_click_at(lua_State *L) {
  static const char *const known[] = {"hold_ms", "steps", "button", "path",
                                      "modifiers", COMMON, NULL};
  vdx_page *p = vdx__action_open_page(L);
  double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3);
  vdx__check_opts(L, 4, known);
  new_state(L, p, 4, K_CLICKAT);
  int st = lua_gettop(L);
  lua_pushnumber(L, x);
  lua_setfield(L, st, "ax");
  lua_pushnumber(L, y);
  lua_setfield(L, st, "ay");
  lua_pushinteger(L, vdx__opt_int(L, 4, "hold_ms", 0));
  lua_setfield(L, st, "hold");
  lua_Integer steps = vdx__opt_int(L, 4, "steps", 10);
  lua_pushinteger(L, steps < 1 ? 1 : steps);
  lua_setfield(L, st, "steps");
  mouse_opts(L, st);
  return run(L, st);
}

int vdx__nav_methods(lua_State *L);
int vdx__capture_methods(lua_State *L);

void vdx__action_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"click", page_click},
    {"hover", page_hover},
    {"type", page_type},
    {"check", page_check},
    {"uncheck", page_uncheck},
    {"select_option", page_select_option},
    {"set_slider", page_set_slider},
    {"press_key", page_press_key},
    {"drag", page_drag},
    {"upload_file", page_upload_file},
    {"click_at", page_click_at},
    {"fill_form", vdx__page_fill_form},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
  vdx__nav_methods(L);
  vdx__capture_methods(L);
}
