/*
 * ref.c -- the one grammar of element refs, and the frame a ref names.
 *
 * vdx__ref_call is the one road from a ref to its frame's bridge.
 *
 * A ref is "e<N>" for an element of the main frame or "f<K>e<N>" for one
 * of the frame with ordinal K, where N and K are decimal numbers >= 1
 * without leading zeros (the bridge's refs.js and vdx.flow_locator accept
 * exactly these; vdx.is_ref gives Lua this same check).
 */
#include <string.h>

#include "vdx.h"
#include "objects.h"

#define REF_GRAMMAR "refs are e<N> or f<K>e<N> with N, K >= 1, as in e3 or " \
                    "f1e7, taken from the latest snapshot"

/* Reads a number >= 1 without leading zeros at *s; advances *s past it.
 * Returns -1 when there is none or it is too large. */
static long read_number(const char **s) {
  const char *p = *s;
  if (*p < '1' || *p > '9') return -1;
  long v = 0;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (v > 100000000L) return -1;
    v = v * 10 + (*p - '0');
  }
  *s = p;
  return v;
}

int vdx__ref_parse(const char *s, int *ordinal) {
  int k = 0;
  if (s == NULL) return 0;
  if (*s == 'f') {
    s++;
    long v = read_number(&s);
    if (v < 1) return 0;
    k = (int)v;
  }
  if (*s++ != 'e' || read_number(&s) < 1 || *s != '\0') return 0;
  if (ordinal) *ordinal = k;
  return 1;
}

int vdx__ref_raise_malformed(lua_State *L, const char *ref) {
  vdx__error_push(L, "InvalidArgument", "'%s' is not a ref: " REF_GRAMMAR, ref);
  lua_pushstring(L, ref);
  lua_setfield(L, -2, "ref");
  lua_pushliteral(L, "e<N> or f<K>e<N>");
  lua_setfield(L, -2, "expected");
  return lua_error(L);
}

vdx_frame *vdx__ref_frame(lua_State *L, vdx_page *p, const char *ref) {
  int ordinal = 0;
  if (!vdx__ref_parse(ref, &ordinal)) vdx__ref_raise_malformed(L, ref);
  vdx_frame *f = vdx__frame_by_ordinal(p, ordinal);
  if (f == NULL) {
    vdx__error_push(L, "UnknownRef", "ref %s is not known: its frame f%d is "
                    "gone", ref, ordinal);
    lua_pushstring(L, ref);
    lua_setfield(L, -2, "ref");
    lua_error(L);
  }
  return f;
}

vdx_waiter *vdx__ref_call(lua_State *L, vdx_page *p, const char *ref,
                          const char *method, int args_idx, int timeout_ms) {
  args_idx = lua_absindex(L, args_idx);
  vdx_frame *f = vdx__ref_frame(L, p, ref);
  vdx_waiter *w = vdx__bridge_call(L, p, f->id, method, args_idx, timeout_ms);
  if (w == NULL) luaL_error(L, "out of memory");
  return w;
}

/* vdx.is_ref(s) -> true when s is a well-formed ref (e3, f1e7), with the
 * frame ordinal (0 for the main frame) as a second result. */
static int l_is_ref(lua_State *L) {
  int ordinal = 0;
  int ok = lua_type(L, 1) == LUA_TSTRING && vdx__ref_parse(lua_tostring(L, 1), &ordinal);
  lua_pushboolean(L, ok);
  if (!ok) return 1;
  lua_pushinteger(L, ordinal);
  return 2;
}

/* vdx.check_ref(s) -> s, frame: s and the name of its frame ("main",
 * "f1"); raises InvalidArgument naming the grammar when s is not a
 * well-formed ref.  The actions parse a ref here once and then name its
 * frame by that name. */
static int l_check_ref(lua_State *L) {
  const char *s = luaL_checkstring(L, 1);
  int ordinal = 0;
  if (!vdx__ref_parse(s, &ordinal)) return vdx__ref_raise_malformed(L, s);
  lua_settop(L, 1);
  if (ordinal) lua_pushfstring(L, "f%d", ordinal);
  else lua_pushliteral(L, "main");
  return 2;
}

void vdx__ref_open(lua_State *L) {
  lua_pushcfunction(L, l_is_ref);
  lua_setfield(L, -2, "is_ref");
  lua_pushcfunction(L, l_check_ref);
  lua_setfield(L, -2, "check_ref");
}
