/*
 * input_api.c -- real input as Lua sees it: the vdx.input table (event
 * builders and the button and modifier names the core accepts), the page
 * methods input() and pointer(), and vdx.base64_decode / vdx.write_base64
 * for what the browser sends as base64.  The actions of lua/vdx/actions.lua
 * are written on these.
 */
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "input.h"
#include "events.h"

/* vdx.input.press(combo) -> { {method, params}, … }: the key events of
 * pressing and releasing "Enter", "Control+A", "Shift+Tab"… */
static int input_press(lua_State *L) {
  const char *combo = luaL_checkstring(L, 1);
  lua_newtable(L);
  vdx__input_press(L, -1, combo);
  return 1;
}

/* vdx.input.type(text) -> { {method, params}, … }: typing text key by key
 * (characters without a key are inserted as text). */
static int input_type(lua_State *L) {
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  lua_newtable(L);
  vdx__input_type(L, -1, text, len);
  return 1;
}

/*
 * vdx.input.mouse(type, x, y [, {button=, click_count=0, modifiers=}]) ->
 * {method, params}: one Input.dispatchMouseEvent (mouseMoved,
 * mousePressed, mouseReleased).  Raises InvalidArgument on an unknown
 * button or modifier.
 */
static int input_mouse(lua_State *L) {
  static const char *const known[] = {"button", "click_count", "modifiers", NULL};
  const char *type = luaL_checkstring(L, 1);
  double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3);
  vdx__check_opts(L, 4, known);
  const char *button = NULL;
  int count = (int)vdx__opt_int(L, 4, "click_count", 0), mods = 0;
  if (lua_istable(L, 4)) {
    lua_getfield(L, 4, "button");
    button = lua_tostring(L, -1);
    if (button && !vdx__input_button_bit(button))
      return vdx__error_raise(L, "InvalidArgument", "button must be left, "
                              "right or middle (got '%s')", button);
    lua_getfield(L, 4, "modifiers");
    mods = vdx__input_modifiers(L, -1);
  }
  lua_newtable(L);
  vdx__input_mouse(L, -1, type, x, y, button, count, mods);
  lua_rawgeti(L, -1, 1);
  return 1;
}

/* vdx.input.modifiers(names) -> bits: validates a list (or "A+B" string)
 * of modifier names; raises InvalidArgument naming an unknown one. */
static int input_modifiers(lua_State *L) {
  lua_pushinteger(L, vdx__input_modifiers(L, 1));
  return 1;
}

/* vdx.base64_decode(s) -> the bytes; raises on a character that is not
 * base64. */
static int l_base64_decode(lua_State *L) {
  size_t len;
  const char *in = luaL_checklstring(L, 1, &len);
  unsigned char *buf = lua_newuserdatauv(L, len / 4 * 3 + 4, 0);
  long n = vdx__b64_decode(in, len, buf);
  if (n < 0) return vdx__error_raise(L, "InvalidArgument", "not base64 data");
  lua_pushlstring(L, (const char *)buf, (size_t)n);
  return 1;
}

/* vdx.write_base64(path, b64) -> { path =, size = }: writes the decoded
 * bytes to path (IOError when it cannot). */
static int l_write_base64(lua_State *L) {
  size_t len;
  const char *path = luaL_checkstring(L, 1);
  const char *b64 = luaL_checklstring(L, 2, &len);
  vdx__b64_write_file(L, path, b64, len);
  return 1;
}

void vdx__input_open(lua_State *L) {
  lua_pushcfunction(L, l_base64_decode);
  lua_setfield(L, -2, "base64_decode");
  lua_pushcfunction(L, l_write_base64);
  lua_setfield(L, -2, "write_base64");
  static const luaL_Reg fns[] = {
    {"press", input_press},
    {"type", input_type},
    {"mouse", input_mouse},
    {"modifiers", input_modifiers},
    {NULL, NULL}};
  luaL_newlib(L, fns);
  vdx__input_push_modifier_names(L);
  lua_setfield(L, -2, "MODIFIERS");
  vdx__input_push_button_names(L);
  lua_setfield(L, -2, "BUTTONS");
  lua_setfield(L, -2, "input");
}

/*
 * page:input(events [, {timeout_ms=}]) -> the last call's result.  Sends
 * the list of {method, params} (or {sleep = ms}) in order on the page's
 * main session, in batches that do not wait for each answer (a sleep or a
 * second mouse move waits for the batch before it).
 */
static int page_input(lua_State *L) {
  static const char *const known[] = {"timeout_ms", NULL};
  vdx_page *p = vdx__check_open_page(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  vdx__check_opts(L, 3, known);
  int timeout = (int)vdx__opt_int(L, 3, "timeout_ms", 0);
  vdx_waiter *w = vdx__input_run(L, p, 2, timeout);
  if (w == NULL) return lua_error(L);
  lua_settop(L, 1);
  return vdx__await(L, w, 0, vdx__k_value);
}

/* page:pointer([x, y]) -> x, y: where the last input left the pointer;
 * with x and y, records a new position. */
static int page_pointer(lua_State *L) {
  vdx_page *p = vdx__check_page(L, 1);
  double x, y;
  if (!lua_isnoneornil(L, 2)) {
    x = luaL_checknumber(L, 2);
    y = luaL_checknumber(L, 3);
    vdx__events_pointer(L, p, &x, &y, 1);
  }
  vdx__events_pointer(L, p, &x, &y, 0);
  lua_pushnumber(L, x);
  lua_pushnumber(L, y);
  return 2;
}

void vdx__input_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"input", page_input},
    {"pointer", page_pointer},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
