/*
 * explore.c -- the structure queries around a ref: resolve_container,
 * inspect_pattern, extract_anchors, the unique selector of a ref, locator
 * checks and read_html.  Each is one bridge call in the frame that owns
 * the ref (same-origin and out-of-process frames alike); the results are
 * facts (tags, attributes, counts, text), bounded by the bridge.
 */
#include <string.h>

#include "vdx.h"
#include "objects.h"

/* Calls method in the frame of the ref at index 2 with the list at the
 * top of the stack as arguments, and returns its value. */
static int call_in_ref_frame(lua_State *L, vdx_page *p, const char *method,
                             int timeout) {
  vdx_waiter *w = vdx__ref_call(L, p, luaL_checkstring(L, 2), method, -1, timeout);
  lua_settop(L, 1);
  return vdx__await(L, w, 0, vdx__k_value);
}

/* Pushes {a1, …} from the stack slots first..last (nil becomes {} for
 * option tables so the bridge sees an object). */
static void push_args(lua_State *L, int first, int last) {
  luaL_checkstack(L, 4, NULL);
  lua_createtable(L, last - first + 1, 0);
  for (int i = first; i <= last; i++) {
    if (lua_isnoneornil(L, i)) lua_newtable(L); else lua_pushvalue(L, i);
    lua_rawseti(L, -2, i - first + 1);
  }
}

static int opt_timeout(lua_State *L, int idx) {
  return lua_istable(L, idx) ? (int)vdx__opt_int(L, idx, "timeout_ms", 0) : 0;
}

/* A query on the ref at 2, an optional level, then an options table. */
static int ref_query(lua_State *L, const char *method, int has_level) {
  vdx_page *p = vdx__check_open_page(L, 1);
  int opts = has_level ? 4 : 3;
  luaL_checkstring(L, 2);
  if (has_level) luaL_checkinteger(L, 3);
  if (!lua_isnoneornil(L, opts)) luaL_checktype(L, opts, LUA_TTABLE);
  lua_settop(L, opts);
  int t = opt_timeout(L, opts);
  push_args(L, 2, opts);
  return call_in_ref_frame(L, p, method, t);
}

/*
 * page:resolve_container(ref [, {max_refs=, max_text=}]) -> { target =
 * {ref, tag, role, name, text}, ancestors = {{level, tag, attributes,
 * child_elements, contains_refs = {refs, total}}, …}, levels_total }.
 */
static int page_resolve_container(lua_State *L) {
  return ref_query(L, "resolveContainer", 0);
}

/*
 * page:inspect_pattern(ref, level [, {max_siblings=20}]) -> { container_at,
 * target_sibling_index, siblings_total, shown, siblings = {…} }.  A level
 * past body raises InvalidArgument naming the largest valid level.
 */
static int page_inspect_pattern(lua_State *L) {
  return ref_query(L, "inspectPattern", 1);
}

/*
 * page:extract_anchors(ref, level [, {max_depth=4, max_children=15,
 * max_total=100}]) -> { ancestor_at, descendants = {{depth, index, tag,
 * attributes, ref, role, name, direct_text, full_text}, …},
 * total_descendants, shown, limits }.
 */
static int page_extract_anchors(lua_State *L) {
  return ref_query(L, "extractAnchors", 1);
}

/* page:selector(ref) -> { selector = "…" } verified unique in its frame,
 * or { at = {x=, y=} } when no selector reaches the element. */
static int page_selector(lua_State *L) {
  vdx_page *p = vdx__check_open_page(L, 1);
  luaL_checkstring(L, 2);
  lua_settop(L, 2);
  push_args(L, 2, 2);
  return call_in_ref_frame(L, p, "selector", 0);
}

/* The frame opts.frame names (a frame's name or a ref); main by default. */
static vdx_frame *opt_frame(lua_State *L, vdx_page *p, int idx) {
  vdx_frame *f = &p->frames[0];
  if (lua_istable(L, idx)) {
    if (lua_getfield(L, idx, "frame") != LUA_TNIL) f = vdx__frame_named(L, p, -1);
    lua_pop(L, 1);
  }
  return f;
}

/*
 * page:locator_count(expr [, {frame=, details=}]) -> { count = n, refs =
 * {…}, matches = {…} }: evaluates a Playwright locator expression with
 * Playwright's matching semantics against the live page.  refs holds the
 * first 50 matches' refs (null for one an agent cannot act on); with
 * details = N, matches describes the first N: {role, name, tag, text,
 * visible, ref}.  An expression that cannot be parsed
 * raises LocatorSyntax pointing at the offending column.
 */
static int page_locator_count(lua_State *L) {
  static const char *const known[] = {"frame", "timeout_ms", "details", NULL};
  vdx_page *p = vdx__check_open_page(L, 1);
  luaL_checkstring(L, 2);
  vdx__check_opts(L, 3, known);
  lua_settop(L, 3);
  vdx_frame *f = opt_frame(L, p, 3);
  int t = opt_timeout(L, 3);
  lua_Integer details = lua_istable(L, 3) ? vdx__opt_int(L, 3, "details", 0) : 0;
  push_args(L, 2, 2);
  if (details > 0) {                /* the bridge's options: { details = n } */
    lua_createtable(L, 0, 1);
    lua_pushinteger(L, details);
    lua_setfield(L, -2, "details");
    lua_rawseti(L, -2, 2);
  }
  vdx_waiter *w = vdx__bridge_call(L, p, f->id, "locatorCount", -1, t);
  if (w == NULL) return luaL_error(L, "out of memory");
  lua_settop(L, 1);
  return vdx__await(L, w, 0, vdx__k_value);
}

/*
 * page:read_html{ mode = "form" | "text" | "full", root = ref, frame =
 * name } -> { html, size_before, size_after, interactive_kept,
 * hidden_left_out, frames? }, computed on a clone: the live page is never
 * written to.  Without root, the body of frame's document (default the
 * main frame's); frames names the frames the markup holds (see readHtml).
 */
static int page_read_html(lua_State *L) {
  static const char *const known[] = {"mode", "root", "frame", "timeout_ms", NULL};
  vdx_page *p = vdx__check_open_page(L, 1);
  if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
  vdx__check_opts(L, 2, known);
  lua_settop(L, 2);
  lua_getfield(L, 2, "mode");
  const char *mode = luaL_optstring(L, -1, "form");
  if (strcmp(mode, "form") && strcmp(mode, "text") && strcmp(mode, "full"))
    return vdx__misuse(L, "mode must be form, text or full (got '%s')", mode);
  lua_pop(L, 1);
  vdx_frame *f = opt_frame(L, p, 2);
  lua_createtable(L, 0, 2);                   /* 3: the bridge's options */
  lua_pushstring(L, mode);
  lua_setfield(L, 3, "mode");
  if (lua_getfield(L, 2, "root") == LUA_TSTRING) {
    f = vdx__ref_frame(L, p, lua_tostring(L, -1));
    lua_setfield(L, 3, "root");
  } else {
    lua_pop(L, 1);
  }
  int t = opt_timeout(L, 2);
  push_args(L, 3, 3);
  vdx_waiter *w = vdx__bridge_call(L, p, f->id, "readHtml", -1, t);
  if (w == NULL) return luaL_error(L, "out of memory");
  lua_settop(L, 1);
  return vdx__await(L, w, 0, vdx__k_value);
}

/* page:selector_coverage([{frame=}]) -> { refs, with_selector, ratio }
 * over the live refs of a frame's document. */
static int page_selector_coverage(lua_State *L) {
  vdx_page *p = vdx__check_open_page(L, 1);
  lua_settop(L, 2);
  vdx_frame *f = opt_frame(L, p, 2);
  lua_newtable(L);
  vdx_waiter *w = vdx__bridge_call(L, p, f->id, "selectorCoverage", -1, 0);
  if (w == NULL) return luaL_error(L, "out of memory");
  lua_settop(L, 1);
  return vdx__await(L, w, 0, vdx__k_value);
}

void vdx__explore_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"resolve_container", page_resolve_container},
    {"inspect_pattern", page_inspect_pattern},
    {"extract_anchors", page_extract_anchors},
    {"selector", page_selector},
    {"locator_count", page_locator_count},
    {"read_html", page_read_html},
    {"selector_coverage", page_selector_coverage},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
