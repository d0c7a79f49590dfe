/*
 * capture.c -- page:screenshot and page:pdf: images of a page.
 */
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "input.h"

static vdx_waiter *call(lua_State *L, vdx_page *p, const char *method) {
  /* stack: params -> */
  vdx_waiter *w = vdx__conn_call(L, vdx__browser_conn(L, p->b), p->session_id,
                                 method, -1, 0);
  if (w == NULL) lua_error(L);
  return w;
}

/* --------------------------------------------------------- screenshot */

static double num(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  double v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}

static void set_num(lua_State *L, int t, const char *k, double v) {
  lua_pushnumber(L, v);
  lua_setfield(L, t, k);
}

/* stack: page, opts, clip, [value] */
static int shot_k(lua_State *L, int status, lua_KContext step) {
  (void)status;
  luaL_checkstack(L, 20, "vdx: screenshot");
  vdx_page *p = vdx__check_page(L, 1);
  vdx_waiter *w;
  if (step == 1) {                         /* the element's rectangle */
    static const char *const k[] = {"x", "y", "width", "height"};
    for (int i = 0; i < 4; i++) set_num(L, 3, k[i], num(L, 4, k[i]));
    lua_getfield(L, 2, "ref");
    vdx_frame *f = vdx__ref_frame(L, p, lua_tostring(L, -1));
    lua_settop(L, 3);
    if (f->ordinal) {
      w = vdx__frame_offset(L, p, f, num(L, 3, "x"), num(L, 3, "y"), 0);
      return vdx__await(L, w, 2, shot_k);
    }
    step = 2;
    lua_createtable(L, 0, 2);              /* as if offset by nothing */
    set_num(L, 4, "x", num(L, 3, "x"));
    set_num(L, 4, "y", num(L, 3, "y"));
  }
  if (step == 2) {                         /* in main-viewport coordinates */
    if (lua_getfield(L, 4, "covered") == LUA_TTABLE) {
      lua_getfield(L, 2, "ref");
      return vdx__error_raise(L, "ElementCovered", "%s is covered by an element "
                              "of a parent frame", lua_tostring(L, -1));
    }
    set_num(L, 3, "x", num(L, 4, "x"));
    set_num(L, 3, "y", num(L, 4, "y"));
    lua_settop(L, 3);
    lua_newtable(L);
    w = call(L, p, "Page.getLayoutMetrics");
    lua_settop(L, 3);
    return vdx__await(L, w, 3, shot_k);
  }
  if (step == 3) {                         /* metrics: make the clip */
    lua_getfield(L, 2, "full_page");
    int full = lua_toboolean(L, -1);
    lua_getfield(L, 4, full ? "cssContentSize" : "cssVisualViewport");
    int m = lua_gettop(L);
    if (full) {
      set_num(L, 3, "x", 0);
      set_num(L, 3, "y", 0);
      set_num(L, 3, "width", num(L, m, "width"));
      set_num(L, 3, "height", num(L, m, "height"));
    } else {
      set_num(L, 3, "x", num(L, 3, "x") + num(L, m, "pageX"));
      set_num(L, 3, "y", num(L, 3, "y") + num(L, m, "pageY"));
    }
    set_num(L, 3, "scale", 1);
    step = 0;
  }
  if (step == 0) {                         /* capture */
    lua_settop(L, 3);
    lua_createtable(L, 0, 4);
    lua_getfield(L, 2, "format");
    if (lua_isnil(L, -1)) { lua_pop(L, 1); lua_pushliteral(L, "png"); }
    lua_setfield(L, -2, "format");
    lua_getfield(L, 2, "quality");
    lua_setfield(L, -2, "quality");
    if (lua_getfield(L, 3, "scale") != LUA_TNIL) {
      lua_pushvalue(L, 3);
      lua_setfield(L, -3, "clip");
      lua_pushboolean(L, 1);
      lua_setfield(L, -3, "captureBeyondViewport");
    }
    lua_pop(L, 1);
    w = call(L, p, "Page.captureScreenshot");
    lua_settop(L, 3);
    return vdx__await(L, w, 4, shot_k);
  }
  size_t len;
  lua_getfield(L, 4, "data");
  const char *b64 = luaL_checklstring(L, -1, &len);
  int data = lua_gettop(L);
  lua_getfield(L, 2, "path");
  if (lua_isnil(L, -1)) {
    lua_createtable(L, 0, 3);
    size_t pad = len >= 2 ? (b64[len - 1] == '=') + (b64[len - 2] == '=') : 0;
    lua_pushinteger(L, (lua_Integer)(len / 4 * 3 - pad));
    lua_setfield(L, -2, "size");
  } else {
    vdx__b64_write_file(L, lua_tostring(L, -1), b64, len);
  }
  lua_pushvalue(L, data);
  lua_setfield(L, -2, "base64");
  lua_getfield(L, 2, "format");
  if (lua_isnil(L, -1)) { lua_pop(L, 1); lua_pushliteral(L, "png"); }
  lua_setfield(L, -2, "format");
  return 1;
}

/*
 * page:screenshot{ path = nil, full_page = false, ref = nil, format =
 * "png", quality = nil } -> { base64 =, format =, size =, path = }.
 * Captures the viewport, the whole page (full_page) or one element (ref,
 * from any frame) as png, jpeg or webp (quality 0-100 for the last two).
 * The image comes back as the browser sent it, base64; with path it is
 * also written there, decoded (size is the decoded length either way).
 */
static int page_screenshot(lua_State *L) {
  static const char *const known[] = {"path", "full_page", "ref", "format",
                                      "quality", NULL};
  vdx_page *p = vdx__check_open_page(L, 1);
  if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
  luaL_checktype(L, 2, LUA_TTABLE);
  vdx__check_opts(L, 2, known);
  lua_settop(L, 2);
  lua_getfield(L, 2, "path");
  luaL_argcheck(L, lua_isnil(L, -1) || lua_isstring(L, -1), 2,
                "path must be a string when given");
  lua_getfield(L, 2, "format");
  const char *fmt = luaL_optstring(L, -1, "png");
  if (strcmp(fmt, "png") && strcmp(fmt, "jpeg") && strcmp(fmt, "webp"))
    return vdx__misuse(L, "format must be png, jpeg or webp (got '%s')", fmt);
  lua_settop(L, 2);
  lua_newtable(L);                         /* slot 3: the clip */
  lua_getfield(L, 2, "ref");
  if (!lua_isnil(L, -1)) {
    lua_createtable(L, 1, 0);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, 1);
    vdx_waiter *w = vdx__ref_call(L, p, luaL_checkstring(L, -2), "rect", -1, 0);
    lua_settop(L, 3);
    return vdx__await(L, w, 1, shot_k);
  }
  lua_pop(L, 1);
  lua_getfield(L, 2, "full_page");
  if (lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    vdx_waiter *w = call(L, p, "Page.getLayoutMetrics");
    lua_settop(L, 3);
    return vdx__await(L, w, 3, shot_k);
  }
  lua_settop(L, 3);
  return shot_k(L, LUA_OK, 0);
}

static int pdf_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  size_t len;
  lua_getfield(L, -1, "data");
  const char *b64 = luaL_checklstring(L, -1, &len);
  lua_getfield(L, 2, "path");
  vdx__b64_write_file(L, lua_tostring(L, -1), b64, len);
  return 1;
}

/* page:pdf{ path =, landscape = false, print_background = true } ->
 * { path =, size = }: the page printed to PDF (headless only). */
static int page_pdf(lua_State *L) {
  static const char *const known[] = {"path", "landscape", "print_background", NULL};
  vdx_page *p = vdx__check_open_page(L, 1);
  if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
  luaL_checktype(L, 2, LUA_TTABLE);
  vdx__check_opts(L, 2, known);
  lua_settop(L, 2);
  lua_getfield(L, 2, "path");
  luaL_argcheck(L, lua_isstring(L, -1), 2, "path is required");
  lua_pop(L, 1);
  lua_createtable(L, 0, 3);
  lua_getfield(L, 2, "landscape");
  lua_pushboolean(L, lua_toboolean(L, -1));
  lua_setfield(L, -3, "landscape");
  lua_pop(L, 1);
  lua_getfield(L, 2, "print_background");
  lua_pushboolean(L, lua_isnil(L, -1) || lua_toboolean(L, -1));
  lua_setfield(L, -3, "printBackground");
  lua_pop(L, 1);
  vdx_waiter *w = call(L, p, "Page.printToPDF");
  lua_settop(L, 2);
  return vdx__await(L, w, 0, pdf_k);
}

void vdx__capture_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"screenshot", page_screenshot},
    {"pdf", page_pdf},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
