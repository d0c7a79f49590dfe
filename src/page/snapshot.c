/*
 * snapshot.c -- page:snapshot_frames: the bridges' snapshots of every
 * frame of a page, the mechanism under page:snapshot.
 *
 * A snapshot is one bridge call per frame, all frames at once.  Child
 * frames are first tagged in their parent's bridge (once per parent
 * document), so the parent's text carries a placeholder where each iframe's
 * content goes.  A frame is tagged as soon as it is attached, while its
 * page loads (vdx__snapshot_tag_early): the tagging takes three round
 * trips (the owner's node, its object in the parent's world, the call),
 * which a first snapshot right after navigate would otherwise wait for
 * before it reads any frame.  The per-frame answers go back to Lua as they
 * are: the splicing, the budget and every word an agent reads are policy,
 * in lua/vdx/snapshot.lua.
 */
#include <stdio.h>
#include <stdlib.h>

#include "vdx.h"
#include "objects.h"

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

/* Sends the tagging of child frame f to its parent's bridge, unless the
 * parent has no world yet or f is tagged in its current document already;
 * returns the operation, or NULL when nothing was sent. */
static tagop *tag_start(lua_State *L, vdx_page *p, vdx_frame *f) {
  vdx_frame *parent = vdx__frame_find(p, f->parent);
  if (parent == NULL || parent->world == 0 || f->tagged_doc == parent->doc)
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
  if (w == NULL || vdx__waiter_done(w)) {   /* none, or failed at once */
    if (w) vdx__waiter_abandon(w);
    free(t);
    return NULL;
  }
  vdx__waiter_then(w, tag_done, t);
  return t;
}

/* Tags child frame f in its parent's bridge; returns a waiter or NULL. */
static vdx_waiter *tag_frame(lua_State *L, vdx_page *p, vdx_frame *f) {
  tagop *t = tag_start(L, p, f);
  if (t == NULL) return NULL;
  t->out = vdx__waiter_new(p->b->lp, 5000, "tagging a frame");
  if (t->out == NULL) return NULL;      /* the tagging goes on, unawaited */
  vdx__waiter_on_done(t->out, tag_out_done, t);
  return t->out;
}

/* Frames at most that a page has for them to be tagged early. */
#define EARLY_TAGS_MAX 64

void vdx__snapshot_tag_early(lua_State *L, vdx_page *p, vdx_frame *f) {
  if (f->ordinal == 0 || p->closed || p->nframes > EARLY_TAGS_MAX) return;
  tag_start(L, p, f);
}

/* ------------------------------------------------------------ snapshot */

/* stack: page, options, opts, args, ... */
/* The ordinal of the frame of the snapshot's root ref (0 without one). */
static int root_ordinal(lua_State *L) {
  lua_getfield(L, 2, "root");
  int ordinal = 0;
  if (lua_isstring(L, -1)) vdx__ref_parse(lua_tostring(L, -1), &ordinal);
  lua_pop(L, 1);
  return ordinal;
}

/* Starts the snapshot of every frame (from the root's frame on) and
 * returns the waiter of them all.  stack: page, options, opts, args */
static vdx_waiter *snapshot_frames(lua_State *L, vdx_page *p) {
  int timeout = (int)vdx__opt_int(L, 3, "timeout_ms",
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
    lua_pushvalue(L, 4);
    if (has_root && f->ordinal != root_frame) {
      /* frames other than the root's are snapshotted whole */
      lua_newtable(L);
      lua_newtable(L);
      lua_getfield(L, 2, "maxOptions");
      lua_setfield(L, -2, "maxOptions");
      lua_getfield(L, 2, "keepNames");
      lua_setfield(L, -2, "keepNames");
      lua_getfield(L, 2, "interactive");
      lua_setfield(L, -2, "interactive");
      lua_rawseti(L, -2, 1);
      lua_replace(L, -2);
    }
    /* A child frame that has no document yet must not hold up the page:
     * it gets a short wait and is then reported as unreadable. */
    int wait = f->ordinal == root_frame ? timeout : (f->world ? 10000 : 3000);
    if (wait > timeout) wait = timeout;
    vdx_waiter *w = vdx__bridge_call(L, p, f->id, "snapshot", -1, wait);
    join_add(L, j, w, f->ordinal + 1);
    if (w == NULL) lua_pop(L, 1);
    lua_pop(L, 1);
  }
  return join_seal(L, j);
}

/* stack: page, options, opts, args, [results (ordinal+1 keyed)] */
static int snapshot_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  luaL_checkstack(L, 20, "vdx: snapshot");
  vdx_page *p = vdx__check_page(L, 1);
  if (ctx == 0) {                           /* frames tagged: snapshot all */
    lua_settop(L, 4);
    return vdx__await(L, snapshot_frames(L, p), 1, snapshot_k);
  }
  int raw = lua_gettop(L);
  lua_createtable(L, 0, 2);
  vdx_frame *root = vdx__frame_by_ordinal(p, root_ordinal(L));
  if (root) vdx__frame_push_name(L, root);
  else lua_pushfstring(L, "f%d", root_ordinal(L));
  lua_setfield(L, -2, "root_frame");
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, raw)) {
    lua_Integer ordinal = lua_tointeger(L, -2) - 1;
    if (ordinal) lua_pushfstring(L, "f%I", ordinal);
    else lua_pushliteral(L, "main");
    lua_insert(L, -2);
    lua_settable(L, -4);
  }
  lua_setfield(L, -2, "frames");
  return 1;
}

/*
 * page:snapshot_frames(options [, {timeout_ms=}]) -> { root_frame =,
 * frames = { [ordinal] = { ok =, value = } } }: the bridge's snapshot of
 * every frame, all at once, each child frame first tagged in its parent's
 * document so that the parent's text holds a "\001frame:f<N>" line where
 * the frame's text goes.  options go to the bridges as they are (root,
 * depth, maxOptions, maxChars, fromLine, keepNames, interactive); with a
 * root, only frames from the root's on are read, and those other than the
 * root's whole.  value is the bridge's answer, or the error of a frame that
 * could not be read.
 * The primitive under page:snapshot (lua/vdx/snapshot.lua), which stitches
 * the texts, applies the budget and words the notes.
 */
static int page_snapshot_frames(lua_State *L) {
  static const char *const known[] = {"timeout_ms", NULL};
  vdx_page *p = vdx__check_open_page(L, 1);
  luaL_checkstack(L, 40, "vdx: snapshot");
  luaL_checktype(L, 2, LUA_TTABLE);
  vdx__check_opts(L, 3, known);
  lua_settop(L, 3);
  lua_createtable(L, 1, 0);                /* slot 4: the bridge's args */
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 1);
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
    {"snapshot_frames", page_snapshot_frames},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
