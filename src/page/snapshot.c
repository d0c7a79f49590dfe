/*
 * snapshot.c -- page:snapshot, page:describe, page:accessible and
 * page:bridge: the primitive calls into the frames' bridges.
 *
 * A snapshot is one bridge call per frame, all frames at once.  Child
 * frames are first tagged in their parent's bridge (once per parent
 * document), so the parent's text carries a placeholder where each iframe's
 * content goes; the host splices the frames' texts together, qualifies
 * nothing (each bridge already writes f<N>_ refs), and applies the budget
 * with an explicit marker.  Nothing is cut silently.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"

#define PLACEHOLDER "\001frame:"

/* -------------------------------------------------------------- join */

/* Collects the outcomes of several waiters into {[i] = {ok=, value=}}. */
typedef struct join {
  vdx_loop *lp;
  vdx_waiter *out;
  int pending;
  int results_ref;
} join;

typedef struct join_item { join *j; int index; } join_item;

static void join_done(vdx_waiter *w, void *data) {
  join *j = data;
  (void)w;
  j->out = NULL;
}

static void join_release(join *j) {
  if (j->pending > 0 || j->out) return;
  if (!vdx__loop_closed(j->lp))
    luaL_unref(vdx__main_state(j->lp), LUA_REGISTRYINDEX, j->results_ref);
  free(j);
}

static void join_item_cb(void *data, lua_State *L, int ok) {
  join_item *it = data;
  join *j = it->j;
  lua_rawgeti(L, LUA_REGISTRYINDEX, j->results_ref);
  lua_createtable(L, 0, 2);
  lua_pushboolean(L, ok);
  lua_setfield(L, -2, "ok");
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "value");
  lua_rawseti(L, -2, it->index);
  lua_pop(L, 1);
  free(it);
  if (--j->pending == 0 && j->out) {
    vdx_waiter *out = j->out;
    vdx__waiter_on_done(out, NULL, NULL);
    j->out = NULL;
    lua_rawgeti(L, LUA_REGISTRYINDEX, j->results_ref);
    vdx__waiter_resolve(out, L);
  }
  join_release(j);
}

static join *join_new(lua_State *L, vdx_loop *lp, int timeout_ms) {
  join *j = calloc(1, sizeof *j);
  if (j == NULL) return NULL;
  j->lp = lp;
  j->out = vdx__waiter_new(lp, timeout_ms, "page:snapshot()");
  lua_newtable(L);
  j->results_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  vdx__waiter_on_done(j->out, join_done, j);
  return j;
}

/* Adds w as item index; on w == NULL the error on L's top is recorded. */
static void join_add(lua_State *L, join *j, vdx_waiter *w, int index) {
  if (w == NULL) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, j->results_ref);
    lua_createtable(L, 0, 2);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "ok");
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "value");
    lua_rawseti(L, -2, index);
    lua_pop(L, 2);
    return;
  }
  join_item *it = malloc(sizeof *it);
  it->j = j;
  it->index = index;
  j->pending++;
  vdx__waiter_then(w, join_item_cb, it);
}

/* Resolves the join now if nothing is pending; returns its waiter. */
static vdx_waiter *join_seal(lua_State *L, join *j) {
  vdx_waiter *out = j->out;
  if (j->pending == 0) {
    vdx__waiter_on_done(out, NULL, NULL);
    j->out = NULL;
    lua_rawgeti(L, LUA_REGISTRYINDEX, j->results_ref);
    vdx__waiter_resolve(out, L);
    join_release(j);
  }
  return out;
}

/* ------------------------------------------------------------ tagging */

/* A child frame's tagging: its key given to its owner element in the
 * parent's bridge, remembered for the parent's document on success. */
typedef struct tagop {
  vdx_page *p;
  char frame[64];
  int parent_doc;
  vdx_waiter *out;
} tagop;

static void tag_out_done(vdx_waiter *w, void *data) {
  (void)w;
  ((tagop *)data)->out = NULL;
}

static void tag_done(void *data, lua_State *L, int ok) {
  tagop *t = data;
  vdx_frame *f = ok ? vdx__frame_find(t->p, t->frame) : NULL;
  if (f) f->tagged_doc = t->parent_doc;
  if (t->out) {
    vdx__waiter_on_done(t->out, NULL, NULL);
    if (ok) vdx__waiter_resolve(t->out, L); else vdx__waiter_reject(t->out, L);
  }
  free(t);
}

/* Tags child frame f in its parent's bridge; returns a waiter or NULL. */
static vdx_waiter *tag_frame(lua_State *L, vdx_page *p, vdx_frame *f) {
  vdx_frame *parent = vdx__frame_find(p, f->parent);
  if (parent == NULL || parent->ctx == 0 || f->tagged_doc == parent->doc)
    return NULL;
  tagop *t = calloc(1, sizeof *t);
  if (t == NULL) return NULL;
  t->p = p;
  snprintf(t->frame, sizeof t->frame, "%s", f->id);
  t->parent_doc = parent->doc;
  lua_createtable(L, 1, 0);
  lua_pushfstring(L, "f%d", f->ordinal);
  lua_rawseti(L, -2, 1);
  const vdx_bridge_opts on_owner = {.owner_of = f->id};
  vdx_waiter *w = vdx__bridge_call_opts(L, p, parent->id, "tagFrame", -1, 5000,
                                        &on_owner);
  lua_pop(L, 1);
  t->out = w ? vdx__waiter_new(p->b->lp, 5000, "tagging a frame") : NULL;
  if (t->out == NULL) {
    if (w) vdx__waiter_abandon(w);
    free(t);
    return NULL;
  }
  vdx__waiter_on_done(t->out, tag_out_done, t);
  vdx__waiter_then(w, tag_done, t);
  return t->out;
}

/* ---------------------------------------------------------- stitching */

/* A growable byte buffer (a luaL_Buffer cannot share the stack with the
 * tables the stitcher walks). */
typedef struct sbuf { char *p; size_t len, cap; int oom; } sbuf;

static void sb_add(sbuf *b, const char *s, size_t n) {
  if (b->oom) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    char *np = realloc(b->p, cap);
    if (np == NULL) { b->oom = 1; return; }
    b->p = np;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
}

static void sb_str(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

typedef struct stitch {
  lua_State *L;
  int results;            /* ordinal -> {ok=, value=} */
  int warnings;           /* list */
  sbuf *out;
  lua_Integer elements, refs, unmeasurable;
  lua_Integer more_lines, more_chars; /* estimates left unwalked (cut) */
  int cut;                /* a bridge stopped at the budget */
  int depth;
} stitch;

static void add_warning(stitch *s, const char *w) {
  lua_State *L = s->L;
  lua_pushstring(L, w);
  lua_rawseti(L, s->warnings, luaL_len(L, s->warnings) + 1);
}

static void emit_frame(stitch *s, int ordinal, const char *indent, size_t ilen);

/* Appends text, indenting every line and splicing frame placeholders. */
static void emit_text(stitch *s, const char *text, size_t len,
                      const char *indent, size_t ilen) {
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    const char *q = p;
    while (q < le && *q == ' ') q++;
    if ((size_t)(le - q) > strlen(PLACEHOLDER) &&
        memcmp(q, PLACEHOLDER, strlen(PLACEHOLDER)) == 0) {
      const char *key = q + strlen(PLACEHOLDER);
      char ind[256];
      size_t n = ilen + (size_t)(q - p);
      if (n >= sizeof ind) n = sizeof ind - 1;
      memcpy(ind, indent, ilen < n ? ilen : n);
      memset(ind + (ilen < n ? ilen : n), ' ', n - (ilen < n ? ilen : n));
      ind[n] = '\0';
      if (*key == 'f' && key[1] >= '0' && key[1] <= '9')
        emit_frame(s, atoi(key + 1), ind, n);
      else {
        sb_add(s->out, ind, n);
        sb_str(s->out, "- note: \"this frame appeared during the snapshot; "
                       "snapshot again to see it\"\n");
        add_warning(s, "a frame appeared during the snapshot and is not shown");
      }
    } else if (le > p) {
      sb_add(s->out, indent, ilen);
      sb_add(s->out, p, (size_t)(le - p));
      sb_add(s->out, "\n", 1);
    }
    p = le + 1;
  }
}

static void emit_frame(stitch *s, int ordinal, const char *indent, size_t ilen) {
  lua_State *L = s->L;
  luaL_checkstack(L, 12, "vdx: snapshot");
  if (++s->depth > 32) { s->depth--; return; }
  lua_rawgeti(L, s->results, ordinal);
  if (!lua_istable(L, -1)) {
    sb_add(s->out, indent, ilen);
    sb_str(s->out, lua_pushfstring(L, "- note: frame f%d could not be read "
                                   "(it appeared during the snapshot)\n", ordinal));
    lua_pop(L, 1);
    add_warning(s, lua_pushfstring(L, "frame f%d appeared during the snapshot", ordinal));
    lua_pop(L, 2);
    s->depth--;
    return;
  }
  lua_getfield(L, -1, "ok");
  int ok = lua_toboolean(L, -1);
  lua_getfield(L, -2, "value");
  if (!ok) {
    const char *why = luaL_tolstring(L, -1, NULL);
    sb_add(s->out, indent, ilen);
    /* The note is a YAML double-quoted scalar: JSON's escapes are YAML's. */
    lua_pushfstring(L, "frame f%d could not be read: %s", ordinal, why);
    sb_str(s->out, "- note: ");
    sb_str(s->out, vdx__json_encode(L, -1, NULL));
    sb_str(s->out, "\n");
    lua_pop(L, 2);
    add_warning(s, lua_pushfstring(L, "frame f%d could not be read: %s", ordinal, why));
    lua_pop(L, 5);
    s->depth--;
    return;
  }
  int v = lua_gettop(L);
  lua_getfield(L, v, "element_count");
  s->elements += lua_tointeger(L, -1);
  lua_getfield(L, v, "ref_count");
  s->refs += lua_tointeger(L, -1);
  lua_getfield(L, v, "unmeasurable");
  s->unmeasurable += lua_tointeger(L, -1);
  lua_pop(L, 3);
  lua_getfield(L, v, "more_lines");
  lua_getfield(L, v, "more_chars");
  if (lua_isinteger(L, -2)) {
    s->cut = 1;
    s->more_lines += lua_tointeger(L, -2);
    s->more_chars += lua_tointeger(L, -1);
  }
  lua_pop(L, 2);
  lua_getfield(L, v, "text");
  size_t len;
  const char *text = lua_tolstring(L, -1, &len);
  if (text) emit_text(s, text, len, indent, ilen);
  lua_pop(L, 4);
  s->depth--;
}

/* Cuts text at the budget by whole lines, from line `offset` on.  When a
 * bridge stopped walking at the budget (s->cut), the text ends a line past
 * the cut and the total is an estimate: `lines_estimate` stands in for
 * `line_count`. */
static void apply_budget(lua_State *L, int res, const char *text, size_t len,
                         lua_Integer budget_chars, lua_Integer offset,
                         const stitch *s) {
  lua_Integer total = 0, line = 0, first = -1, kept_end = -1;
  const char *p = text, *end = text + len;
  const char *start = NULL, *stop = NULL;
  size_t used = 0;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl + 1 : end;
    if (line >= offset) {
      if (first < 0) { first = line; start = p; }
      if (kept_end < 0 && used + (size_t)(le - p) > (size_t)budget_chars && used > 0)
        kept_end = line;
      if (kept_end < 0) { used += (size_t)(le - p); stop = le; }
    }
    line++;
    p = le;
  }
  total = line;
  if (start == NULL) { start = stop = end; }
  if (s->cut && kept_end < 0) kept_end = total;
  lua_pushlstring(L, start, stop ? (size_t)(stop - start) : 0);
  if (kept_end >= 0) {
    size_t rest = (size_t)(end - (stop ? stop : end));
    if (s->cut)
      lua_pushfstring(L, "- note: \"snapshot truncated: lines %I to %I of about "
                      "%I shown; about %I more lines (about %I tokens) left "
                      "out. Call snapshot{offset=%I} for the rest, "
                      "snapshot{root=REF} for one part, or snapshot{depth=N} "
                      "for less depth\"\n",
                      (lua_Integer)(first + 1), kept_end, total + s->more_lines,
                      total - kept_end + s->more_lines,
                      (lua_Integer)((rest + (size_t)s->more_chars) / 4), kept_end);
    else
      lua_pushfstring(L, "- note: \"snapshot truncated: lines %I to %I of %I "
                      "shown; %I more lines (about %I tokens) left out. Call "
                      "snapshot{offset=%I} for the rest, snapshot{root=REF} for "
                      "one part, or snapshot{depth=N} for less depth\"\n",
                      (lua_Integer)(first + 1), kept_end, total, total - kept_end,
                      (lua_Integer)(rest / 4), kept_end);
    lua_concat(L, 2);
  }
  lua_setfield(L, res, "text");
  lua_pushboolean(L, kept_end >= 0);
  lua_setfield(L, res, "truncated");
  lua_pushinteger(L, total + s->more_lines);
  lua_setfield(L, res, s->cut ? "lines_estimate" : "line_count");
  if (kept_end >= 0) {
    lua_pushinteger(L, kept_end);
    lua_setfield(L, res, "next_offset");
  }
}

/* ------------------------------------------------------------ snapshot */

/* stack: page, opts, args, budget, offset, [join results] */
/* The ordinal of the frame of the snapshot's root ref (0 without one). */
static int root_ordinal(lua_State *L) {
  lua_getfield(L, 2, "root");
  int ordinal = 0;
  if (lua_isstring(L, -1)) vdx__ref_parse(lua_tostring(L, -1), &ordinal);
  lua_pop(L, 1);
  return ordinal;
}

/* Starts the snapshot of every frame (from the root's frame on) and
 * returns the waiter of them all.  stack: page, opts, args, budget, offset */
static vdx_waiter *snapshot_frames(lua_State *L, vdx_page *p) {
  int timeout = (int)vdx__opt_int(L, 2, "timeout_ms",
                                  vdx__conn_default_timeout(p->b->conn));
  join *j = join_new(L, p->b->lp, timeout);
  if (j == NULL) luaL_error(L, "out of memory");
  lua_getfield(L, 2, "root");
  int has_root = !lua_isnil(L, -1);
  lua_pop(L, 1);
  int root_frame = root_ordinal(L);
  for (int i = 0; i < p->nframes; i++) {
    vdx_frame *f = &p->frames[i];
    if (has_root && f->ordinal < root_frame) continue;
    lua_pushvalue(L, 3);
    if (has_root && f->ordinal != root_frame) {
      /* frames other than the root's are snapshotted whole */
      lua_newtable(L);
      lua_newtable(L);
      lua_getfield(L, 2, "max_options");
      lua_setfield(L, -2, "maxOptions");
      lua_rawseti(L, -2, 1);
      lua_replace(L, -2);
    }
    /* A child frame that has no document yet must not hold up the page:
     * it gets a short wait and is then reported as unreadable. */
    int wait = f->ordinal == root_frame ? timeout : (f->ctx ? 10000 : 3000);
    if (wait > timeout) wait = timeout;
    vdx_waiter *w = vdx__bridge_call(L, p, f->id, "snapshot", -1, wait);
    join_add(L, j, w, f->ordinal + 1);
    if (w == NULL) lua_pop(L, 1);
    lua_pop(L, 1);
  }
  return join_seal(L, j);
}

/* Sets url and title of the result at res from the root frame's value. */
static void set_page_facts(lua_State *L, int results, int root_frame, int res) {
  lua_rawgeti(L, results, root_frame);
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "value");
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, "url");
      lua_setfield(L, res, "url");
      lua_getfield(L, -1, "title");
      lua_setfield(L, res, "title");
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* stack: page, opts, args, budget, offset, [results (ordinal+1 keyed)] */
static int snapshot_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  luaL_checkstack(L, 40, "vdx: snapshot");
  vdx_page *p = vdx__check_page(L, 1);
  if (ctx == 0) {                           /* frames tagged: snapshot all */
    lua_settop(L, 5);
    return vdx__await(L, snapshot_frames(L, p), 1, snapshot_k);
  }
  int raw = lua_gettop(L);
  lua_newtable(L);
  int results = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, raw)) {
    lua_pushinteger(L, lua_tointeger(L, -2) - 1);
    lua_insert(L, -2);
    lua_settable(L, results);
  }
  lua_createtable(L, 0, 10);
  int res = lua_gettop(L);
  lua_newtable(L);
  int warnings = lua_gettop(L);
  sbuf b = {NULL, 0, 0, 0};
  stitch s = {L, results, warnings, &b, 0, 0, 0, 0, 0, 0, 0};
  int root_frame = root_ordinal(L);
  lua_rawgeti(L, results, root_frame);
  if (lua_istable(L, -1)) {             /* the root frame failing is an error */
    lua_getfield(L, -1, "ok");
    if (!lua_toboolean(L, -1)) {
      lua_getfield(L, -2, "value");
      return lua_error(L);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  emit_frame(&s, root_frame, "", 0);
  if (b.oom) { free(b.p); return luaL_error(L, "out of memory"); }
  apply_budget(L, res, b.p ? b.p : "", b.len, lua_tointeger(L, 4), lua_tointeger(L, 5), &s);
  free(b.p);
  lua_pushvalue(L, warnings);
  lua_setfield(L, res, "warnings");
  lua_pushinteger(L, s.elements);
  lua_setfield(L, res, "element_count");
  lua_pushinteger(L, s.refs);
  lua_setfield(L, res, "ref_count");
  lua_pushinteger(L, s.unmeasurable);
  lua_setfield(L, res, "unmeasurable");
  set_page_facts(L, results, root_frame, res);
  lua_pushvalue(L, res);
  return 1;
}

/*
 * page:snapshot{ budget_tokens = 8000, root = nil, depth = nil,
 * offset = nil, max_options = 10 } -> { text=, url=, title=, ref_count=,
 * element_count=, unmeasurable=, warnings = {…}, truncated=, line_count=,
 * next_offset= }.  Every frame (same-origin and cross-origin) is read by
 * its own bridge, all at once; refs inside frames are f<N>_eM.  A bridge
 * stops walking once its text passes the budget, so a cut snapshot costs
 * about what its text shows; it then gives lines_estimate instead of
 * line_count, and ref_count counts the refs up to the cut.
 */
static int page_snapshot(lua_State *L) {
  static const char *const known[] = {"budget_tokens", "root", "depth",
    "offset", "max_options", "timeout_ms", NULL};
  vdx_page *p = vdx__check_open_page(L, 1);
  luaL_checkstack(L, 40, "vdx: snapshot");
  if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
  vdx__check_opts(L, 2, known);
  lua_settop(L, 2);
  lua_Integer budget = vdx__opt_int(L, 2, "budget_tokens", 8000);
  lua_Integer offset = vdx__opt_int(L, 2, "offset", 0);
  lua_Integer depth = vdx__opt_int(L, 2, "depth", 0);
  lua_Integer maxopt = vdx__opt_int(L, 2, "max_options", 10);
  luaL_argcheck(L, budget > 0, 2, "budget_tokens must be > 0");
  luaL_argcheck(L, offset >= 0, 2, "offset must be >= 0");
  lua_getfield(L, 2, "root");
  const char *root = lua_tostring(L, -1);
  if (root && !lua_isstring(L, -1)) return luaL_argerror(L, 2, "root must be a ref");
  /* args for the bridge: { {root=, depth=, maxOptions=} } */
  lua_createtable(L, 1, 0);
  lua_createtable(L, 0, 3);
  if (root) {
    const char *u = strchr(root, '_');
    lua_pushstring(L, root);
    lua_setfield(L, -2, "root");
    (void)u;
  }
  if (depth > 0) { lua_pushinteger(L, depth); lua_setfield(L, -2, "depth"); }
  lua_pushinteger(L, maxopt);
  lua_setfield(L, -2, "maxOptions");
  /* Each bridge stops walking once its text passes the budget. */
  lua_pushinteger(L, budget * 4);
  lua_setfield(L, -2, "maxChars");
  lua_pushinteger(L, offset);
  lua_setfield(L, -2, "fromLine");
  lua_rawseti(L, -2, 1);
  lua_replace(L, 3);
  lua_pushinteger(L, budget * 4);
  lua_pushinteger(L, offset);
  /* Tag the child frames that are not tagged in their parent's document. */
  join *j = join_new(L, p->b->lp, 10000);
  if (j == NULL) return luaL_error(L, "out of memory");
  for (int i = 0; i < p->nframes; i++) {
    if (p->frames[i].ordinal == 0) continue;
    vdx_waiter *w = tag_frame(L, p, &p->frames[i]);
    if (w) join_add(L, j, w, i + 1);
  }
  vdx_waiter *out = join_seal(L, j);
  return vdx__await(L, out, 0, snapshot_k);
}

void vdx__snapshot_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"snapshot", page_snapshot},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
